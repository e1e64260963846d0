// The live half of the notifications: one socket.io connection per tab to the notification hub
// (NOTIFICATION_HUB: /notificationhub with the access token in the query, which the gateway and the
// hub check), for as long as a member is in the dashboard. What it hears goes into the shared query
// cache, so the bell, the notifications page and a remote's screens (the offers list) follow.
import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Socket } from 'socket.io-client';
import { NOTIFICATION_HUB, notificationApi, tradeApi, userApi, type Notification } from '@ruilplein/contracts/browser';
import { apiKey, renewSession, sessionToken, tokenExpiry } from '@ruilplein/ui';

export type { Notification };

/** Waits before each new attempt after a lost connection: quick at first, then every 30 s for as long as the page is open. */
const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000] as const;
/** The least time between two account checks after refused connections. */
const RECHECK_MS = 30_000;

const isNotification = (value: unknown): value is Notification =>
  typeof value === 'object' && value !== null && typeof (value as Notification).id === 'string' && typeof (value as Notification).kind === 'string';

/** The unread count as the bell shows it: the hub's latest figure, else the API's. */
export const unreadKey = apiKey(notificationApi.unreadCount);

/** Every list of notifications in the cache (the panel's, the page's pages, a remote's) is read again. */
export function refreshNotificationLists(queries: QueryClient): Promise<void> {
  return queries.invalidateQueries({ predicate: ({ queryKey }) => queryKey[1] === notificationApi.list.path });
}

/** What a new notification changes elsewhere: news of an offer changes the member's list of offers. */
function refreshAffected(queries: QueryClient, notification: Notification): Promise<void> {
  if (!/^(offer|trade)-/.test(notification.kind)) return Promise.resolve();
  return queries.invalidateQueries({ queryKey: apiKey(tradeApi.my) });
}

/**
 * Asks the account's status again (the dashboard's suspension check, Layout.tsx): a suspended
 * member's status, or the refused renewal of a revoked token, sends the page to /geblokkeerd
 * through the session's suspended handling; any other revocation ends in /login or a fresh token.
 */
const recheckAccount = (queries: QueryClient) => queries.invalidateQueries({ queryKey: apiKey(userApi.status) });

/**
 * Connects while `signedIn`. Only websockets (several replicas share no polling sessions). A token
 * about to end is renewed before each attempt, as the hub checks it at the handshake and closes
 * the socket when it expires. A close by the server means the token was revoked (suspension,
 * password change, sign-out elsewhere): the account is checked before connecting again. A
 * `suspension` notification checks it at once.
 */
export function useNotificationHub(signedIn: boolean): void {
  // The shell's one client: it never changes, so the socket is not opened again for it.
  const queries = useQueryClient();

  useEffect(() => {
    if (!signedIn) return;
    let stopped = false;
    let attempt = 0;
    let recheckedAt = -Infinity;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let socket: Socket | undefined;
    /** UnreadCount pushes heard so far (hub.on below). */
    let pushes = 0;

    const retry = () => {
      if (stopped) return;
      clearTimeout(timer);
      const delay = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)];
      attempt += 1;
      timer = setTimeout(() => void open(), delay);
    };

    const open = async () => {
      if (stopped) return;
      let token = sessionToken();
      const expiry = token ? tokenExpiry(token) : null;
      if (!token || (expiry !== null && expiry - Date.now() < 15_000)) token = await renewSession();
      if (stopped || !token) return;
      if (!socket) {
        // Its own chunk: a first visit of a public page does not download the client.
        const { io } = await import('socket.io-client');
        if (stopped) return;
        socket = io({ path: NOTIFICATION_HUB.path, transports: [...NOTIFICATION_HUB.transports], autoConnect: false, reconnection: false, timeout: 10_000 });
        listen(socket);
      }
      socket.io.opts.query = { [NOTIFICATION_HUB.tokenParam]: token };
      socket.disconnect();
      socket.connect();
    };

    const listen = (hub: Socket) => {
      hub.on('connect', () => {
        attempt = 0;
        // Whatever came while the tab was not connected, the count included: a notification stored
        // before this socket joined its member's room was pushed to no one here.
        void refreshNotificationLists(queries);
        void queries.invalidateQueries({ queryKey: unreadKey });
      });
      hub.on('connect_error', (err) => {
        if (stopped) return;
        console.warn('Meldingenverbinding mislukt', err.message);
        // A refused handshake looks like any failed one: from the second on, the account is checked
        // (a token revoked meanwhile is renewed that way, or the session ends).
        // At most once per RECHECK_MS: a hub that stays refused (the gateway's limit, a restart)
        // must not spend the member's calls on checks that find nothing new.
        if (attempt > 0 && Date.now() - recheckedAt >= RECHECK_MS) {
          recheckedAt = Date.now();
          void recheckAccount(queries);
        }
        retry();
      });
      hub.on('disconnect', (reason) => {
        if (stopped || reason === 'io client disconnect') return;
        if (reason === 'io server disconnect') void recheckAccount(queries);
        retry();
      });
      hub.on(NOTIFICATION_HUB.unreadCount, (count: unknown) => {
        if (!(typeof count === 'number' && Number.isInteger(count) && count >= 0)) return;
        // A fetch of the count under way (the page's first, or the one on connect) read the store
        // before this push and would overwrite it with the older figure when it lands: it is
        // cancelled first. Only the newest push is applied, whichever cancellation ends first.
        const push = ++pushes;
        void queries.cancelQueries({ queryKey: unreadKey }).then(() => {
          if (push === pushes) queries.setQueryData(unreadKey, { count });
        });
      });
      hub.on(NOTIFICATION_HUB.notification, (notification: unknown) => {
        if (!isNotification(notification)) return;
        if (notification.kind === 'suspension') void recheckAccount(queries);
        void refreshNotificationLists(queries);
        void refreshAffected(queries, notification);
      });
    };

    void open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      socket?.off();
      socket?.disconnect();
    };
  }, [signedIn, queries]);
}
