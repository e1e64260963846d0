// One notification as the panel and the page show it, and what opening it does: marked read, then
// its link (a path of the dashboard) opened in this tab.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { notificationApi } from '@ruilplein/contracts/browser';
import { request } from '@ruilplein/ui';
import { refreshNotificationLists, unreadKey, type Notification } from './hub.ts';
import * as styles from './Notifications.module.css';

const stamp = new Intl.DateTimeFormat('nl-NL', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Amsterdam' });

/** '3 jun 14:05', in Dutch time. */
const when = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : stamp.format(date);
};

/** A link of our own site only: a notification never sends the member elsewhere. */
const internal = (link: string) => (/^\/(?!\/)/.test(link) ? link : '/dashboard/notifications');

/** Marking read (one, or all) and the caches that follow: the lists, and the count until the hub sends its own. */
export function useMarkRead() {
  const queries = useQueryClient();
  const settle = () => {
    void refreshNotificationLists(queries);
    void queries.invalidateQueries({ queryKey: unreadKey });
  };
  const one = useMutation({
    mutationFn: (id: string) => request(notificationApi.read, { params: { id } }),
    onSettled: settle,
    onError: (err) => console.warn('Melding als gelezen markeren mislukt', err),
  });
  const all = useMutation({
    mutationFn: () => request(notificationApi.readAll),
    onMutate: () => queries.setQueryData(unreadKey, { count: 0 }),
    onSettled: settle,
  });
  return { one, all };
}

/** Opens a notification: marks it read (when it was not), and goes to its link. */
export function useOpenNotification(after?: () => void) {
  const navigate = useNavigate();
  const { one } = useMarkRead();
  return (notification: Notification) => {
    if (!notification.readAt) one.mutate(notification.id);
    after?.();
    void navigate(internal(notification.link));
  };
}

/** A notification's row: a button that opens it; unread ones stand out (and say so to a screen reader). */
export function NotificationItem({ notification, onOpen }: { notification: Notification; onOpen: (notification: Notification) => void }) {
  const unread = !notification.readAt;
  return (
    <li className={unread ? styles.unread : styles.read} data-testid="notification" data-kind={notification.kind} data-read={unread ? 'false' : 'true'}>
      <button type="button" className={styles.open} onClick={() => onOpen(notification)}>
        <span className={styles.itemTitle}>
          {unread && <span className={styles.hidden}>Ongelezen: </span>}
          {notification.title}
        </span>
        {notification.body && <span className={styles.body}>{notification.body}</span>}
        <time className={styles.time} dateTime={notification.createdAt}>
          {when(notification.createdAt)}
        </time>
      </button>
    </li>
  );
}
