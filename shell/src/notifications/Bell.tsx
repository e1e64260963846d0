// The bell in the dashboard's header (issue 22): the live unread count, and a panel with the latest
// notifications, 'Alles gelezen' and the way to all of them. The panel is a disclosure, not a
// dialog: Escape or a click elsewhere closes it and the focus returns to the bell.
import { useEffect, useId, useRef, useState } from 'react';
import { Bell as BellIcon } from 'lucide-react';
import { Link } from 'react-router-dom';
import { NOTIFICATION_MESSAGES, NOTIFICATIONS_PAGE, notificationApi } from '@ruilplein/contracts/browser';
import { buttonClass, ErrorMessage, failureMessage, Spinner, useApi } from '@ruilplein/ui';
import { NotificationItem, useMarkRead, useOpenNotification } from './items.tsx';
import * as styles from './Notifications.module.css';

/** How many the panel shows; the page has the rest. */
const LATEST = 8;

function Panel({ id, count, onClose }: { id: string; count: number; onClose: () => void }) {
  const latest = useApi(notificationApi.list, { query: { take: String(LATEST) } });
  const { all } = useMarkRead();
  const open = useOpenNotification(onClose);
  const headingId = useId();
  const unread = count > 0 || (latest.data?.some((n) => !n.readAt) ?? false);
  return (
    <div id={id} className={styles.panel} role="region" aria-labelledby={headingId} data-testid="notification-panel">
      <div className={styles.panelHead}>
        <h2 id={headingId} className={styles.panelTitle}>
          {NOTIFICATION_MESSAGES.title}
        </h2>
        <button type="button" className={buttonClass('link')} onClick={() => all.mutate()} disabled={!unread || all.isPending}>
          {NOTIFICATION_MESSAGES.allRead}
        </button>
      </div>
      {all.isError && <p role="alert" className={styles.problem}>Markeren als gelezen mislukt. {failureMessage(all.error)}</p>}
      {latest.isPending ? (
        <Spinner label="Meldingen worden geladen…" />
      ) : latest.isError ? (
        <ErrorMessage message={`Kan meldingen niet ophalen. ${failureMessage(latest.error)}`} onRetry={() => void latest.refetch()} />
      ) : latest.data.length === 0 ? (
        <p className={styles.none}>{NOTIFICATION_MESSAGES.none}</p>
      ) : (
        <ul className={styles.list}>
          {latest.data.map((notification) => (
            <NotificationItem key={notification.id} notification={notification} onOpen={open} />
          ))}
        </ul>
      )}
      <Link to={NOTIFICATIONS_PAGE} className={styles.all} onClick={onClose}>
        Alle meldingen en e-mailinstellingen
      </Link>
    </div>
  );
}

export function NotificationBell({ count }: { count: number }) {
  const [open, setOpen] = useState(false);
  const bell = useRef<HTMLButtonElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const close = (refocus: boolean) => {
      setOpen(false);
      if (refocus) bell.current?.focus();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close(true);
    };
    const onPointer = (event: PointerEvent) => {
      if (box.current && !box.current.contains(event.target as Node)) close(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  const label = count === 0 ? 'Meldingen, geen ongelezen' : count === 1 ? 'Meldingen, 1 ongelezen' : `Meldingen, ${count} ongelezen`;
  return (
    <div ref={box} className={styles.bellBox}>
      <button
        ref={bell}
        type="button"
        className={styles.bell}
        aria-label={label}
        title={label}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen(!open)}
        data-testid="notification-bell"
      >
        <BellIcon aria-hidden="true" size={22} />
        {count > 0 && (
          <span className={styles.count} aria-hidden="true" data-testid="notification-count">
            {count > 99 ? '99+' : count}
          </span>
        )}
      </button>
      {open && <Panel id={panelId} count={count} onClose={() => setOpen(false)} />}
    </div>
  );
}
