// /dashboard/notifications, 'Meldingen' (issue 22): every notification, newest first, paged with
// the `before` cursor ('Laad meer'), 'Alles gelezen', and per kind how the member wants mail about
// it (direct, in the daily digest, or not). In the app every kind shows, whatever the mail setting.
import { useId, useState, type FormEvent } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  MAIL_PREFERENCES,
  NOTIFICATION_KIND_NAMES,
  NOTIFICATION_KINDS,
  NOTIFICATION_MESSAGES,
  NOTIFICATION_PAGE_SIZE,
  notificationApi,
  type MailPreference,
  type NotificationKind,
} from '@ruilplein/contracts/browser';
import { apiKey, buttonClass, EmptyState, ErrorMessage, failureMessage, LoadMore, Loaded, Page, request, Spinner, useApi } from '@ruilplein/ui';
import { nextBefore } from './count.ts';
import type { Notification } from './hub.ts';
import { NotificationItem, useMarkRead, useOpenNotification } from './items.tsx';
import * as styles from './Notifications.module.css';

type Preferences = Record<NotificationKind, MailPreference>;

function AllNotifications() {
  const pages = useInfiniteQuery({
    // Under the list route's key, so the hub's and the marks' refreshes reach it too.
    queryKey: [...apiKey(notificationApi.list), 'pages'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => request(notificationApi.list, { query: { take: String(NOTIFICATION_PAGE_SIZE), ...(pageParam && { before: pageParam }) }, signal }),
    getNextPageParam: (last: Notification[]) => nextBefore(last, NOTIFICATION_PAGE_SIZE),
  });
  const { all } = useMarkRead();
  const open = useOpenNotification();
  const unread = useApi(notificationApi.unreadCount);
  const anyUnread = (unread.data?.count ?? 0) > 0 || (pages.data?.pages.some((page) => page.some((n) => !n.readAt)) ?? false);

  if (pages.isPending) return <Spinner label="Meldingen worden geladen…" />;
  if (pages.isError) return <ErrorMessage message={`Kan meldingen niet ophalen. ${failureMessage(pages.error)}`} onRetry={() => void pages.refetch()} />;
  const list = pages.data.pages.flat();
  return (
    <>
      <div className={styles.pageActions}>
        <button type="button" className={buttonClass('secondary')} onClick={() => all.mutate()} disabled={!anyUnread || all.isPending}>
          {NOTIFICATION_MESSAGES.allRead}
        </button>
        {all.isError && (
          <p role="alert" className={styles.problem}>
            Markeren als gelezen mislukt. {failureMessage(all.error)}
          </p>
        )}
      </div>
      {list.length === 0 ? (
        <EmptyState>{NOTIFICATION_MESSAGES.none}</EmptyState>
      ) : (
        <ul className={styles.pageList} aria-label="Alle meldingen">
          {list.map((notification) => (
            <NotificationItem key={notification.id} notification={notification} onOpen={open} />
          ))}
        </ul>
      )}
      <LoadMore pages={pages} />
    </>
  );
}

function MailSettings({ saved }: { saved: Preferences }) {
  const queries = useQueryClient();
  // The choices belong to the settings they were made on: new saved settings (this tab's save, or
  // another's read again) show as they are.
  const [edit, setEdit] = useState({ of: saved, choice: saved });
  const choice = edit.of === saved ? edit.choice : saved;
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const legendId = useId();
  const save = useMutation({
    mutationFn: (body: Preferences) => request(notificationApi.setPreferences, { body }),
    onSuccess: (answer) => {
      queries.setQueryData(apiKey(notificationApi.preferences), answer);
      setNotice({ ok: true, text: 'Je e-mailinstellingen zijn opgeslagen.' });
    },
    onError: (err) => setNotice({ ok: false, text: `Opslaan mislukt. ${failureMessage(err)}` }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    save.mutate(choice);
  };
  return (
    <form onSubmit={submit} className={styles.settings} aria-labelledby={legendId}>
      <p id={legendId} className={styles.explain}>
        Kies per soort melding of je er direct een e-mail over krijgt, één keer per dag een overzicht om 8 uur, of geen e-mail. In de app zie je ze altijd.
      </p>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">Soort melding</th>
            {MAIL_PREFERENCES.map((preference) => (
              <th scope="col" key={preference}>
                {NOTIFICATION_MESSAGES.preferenceLabels[preference]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {NOTIFICATION_KIND_NAMES.map((kind) => (
            <tr key={kind} data-testid="mail-preference" data-kind={kind}>
              <th scope="row">{NOTIFICATION_KINDS[kind].label}</th>
              {MAIL_PREFERENCES.map((preference) => (
                <td key={preference}>
                  <input
                    type="radio"
                    name={`mail-${kind}`}
                    value={preference}
                    checked={choice[kind] === preference}
                    onChange={() => setEdit({ of: saved, choice: { ...choice, [kind]: preference } })}
                    aria-label={`${NOTIFICATION_KINDS[kind].label}: ${NOTIFICATION_MESSAGES.preferenceLabels[preference]}`}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div className={styles.pageActions}>
        <button type="submit" className={buttonClass()} disabled={save.isPending}>
          {save.isPending ? 'Bezig…' : 'Opslaan'}
        </button>
      </div>
      <div role="status">{notice?.ok && <p className={styles.saved}>{notice.text}</p>}</div>
      {notice && !notice.ok && (
        <p role="alert" className={styles.problem}>
          {notice.text}
        </p>
      )}
    </form>
  );
}

export function NotificationsPage() {
  const preferences = useApi(notificationApi.preferences);
  return (
    <Page title={NOTIFICATION_MESSAGES.title}>
      <AllNotifications />
      <section aria-labelledby="mail-settings-title" className={styles.section}>
        <h2 id="mail-settings-title">{NOTIFICATION_MESSAGES.mailSettings}</h2>
        <Loaded query={preferences} label="E-mailinstellingen worden geladen…" failure="Kan je e-mailinstellingen niet ophalen.">
          {(saved) => <MailSettings saved={saved as Preferences} />}
        </Loaded>
      </section>
    </Page>
  );
}
