// The notification service's live hub: socket.io on /notificationhub, websockets only, on the
// kit's socket-hub (the origin, token, revocation and expiry checks chat's hub makes; rooms shared
// by the replicas through Redis). Each socket joins its member's room, so every tab of a member,
// on whichever replica, gets each event once: `Notification(notification)` for a new one and
// `UnreadCount(count)` after every change of the count. On connect the socket gets the current
// count. A revoked member's sockets are closed as a server disconnect (the page then goes to
// /geblokkeerd or the login).
import { NOTIFICATION_HUB, type Notification } from '@ruilplein/contracts';
import { createSocketHub, type Logger, type SocketHub, type TokenVerifier } from '@ruilplein/service-kit';
import type { RedisClientType } from 'redis';

export interface NotificationHubDeps {
  logger: Logger;
  verifyToken: TokenVerifier;
  /** `kit.redis()`: token versions and the revocation listener (fails at once while Redis is away). */
  redis: RedisClientType;
  allowOrigin: (origin: string | undefined) => boolean;
  /** Shares rooms between replicas: a client of its own with an offline queue (as chat's). Absent: this process only. */
  adapterRedis?: RedisClientType;
  /** The adapter's Redis stream; tests give each set of replicas their own. */
  streamName?: string;
  /** How long a disconnected socket's session (and what it missed) is kept; 2 minutes by default. */
  recoveryMs?: number;
  /** How often every socket is checked against revocations that were not announced; 1 minute by default. */
  revocationSweepMs?: number;
  /** The member's unread count now (sent to each socket on connect). */
  unreadCount(userId: string): Promise<number>;
}

export interface NotificationHub extends SocketHub {
  /** Sends a new notification to every socket of the member, on every replica. */
  push(userId: string, notification: Notification): void;
  /** Sends the member's unread count to every socket of the member, on every replica. */
  count(userId: string, n: number): void;
}

export const memberRoom = (userId: string) => `member:${userId.toLowerCase()}`;

export function createNotificationHub(deps: NotificationHubDeps): NotificationHub {
  const { logger } = deps;
  const hub = createSocketHub({
    name: 'notification hub',
    path: NOTIFICATION_HUB.path,
    tokenParam: NOTIFICATION_HUB.tokenParam,
    logger,
    verifyToken: deps.verifyToken,
    redis: deps.redis,
    allowOrigin: deps.allowOrigin,
    adapterRedis: deps.adapterRedis,
    streamName: deps.streamName ?? 'notification:hub',
    recoveryMs: deps.recoveryMs,
    revocationSweepMs: deps.revocationSweepMs,
    connected(socket, { userId }) {
      // A recovered socket is back in its room already.
      if (!socket.recovered) void socket.join(memberRoom(userId));
      // A count pushed to the room while this one is read is at least as new: then this one is not sent.
      let pushed = false;
      const seen = (event: string) => {
        if (event === NOTIFICATION_HUB.unreadCount) pushed = true;
      };
      socket.onAnyOutgoing(seen);
      deps
        .unreadCount(userId)
        .then(
          (n) => {
            if (!pushed && socket.connected) socket.emit(NOTIFICATION_HUB.unreadCount, n);
          },
          (err: unknown) => logger.warn({ err, userId }, 'notification hub: unread count not sent'),
        )
        .finally(() => socket.offAnyOutgoing(seen));
    },
  });

  return {
    ...hub,
    push(userId, notification) {
      hub.io.to(memberRoom(userId)).emit(NOTIFICATION_HUB.notification, notification);
    },
    count(userId, n) {
      hub.io.to(memberRoom(userId)).emit(NOTIFICATION_HUB.unreadCount, n);
    },
  };
}
