import { NOTIFICATION_MESSAGES } from '@ruilplein/contracts';
import { notFound, type HandlerPart } from '@ruilplein/service-kit';
import type { NotificationContext } from '../context.ts';
import { countUnread, listNotifications, readAll, readOne } from './store.ts';

export function notificationHandlers(ctx: NotificationContext) {
  return {
    notification: {
      list: ({ principal, query }) => listNotifications(ctx, principal.userId, query.take, query.before),
      unreadCount: async ({ principal }) => ({ count: await countUnread(ctx, principal.userId) }),
      read: async ({ principal, params }) => {
        // Another member's notification is as unknown as one that never was.
        if (!(await readOne(ctx, principal.userId, params.id))) throw notFound(NOTIFICATION_MESSAGES.notFound);
        return null;
      },
      readAll: async ({ principal }) => {
        await readAll(ctx, principal.userId);
        return null;
      },
    },
  } satisfies HandlerPart<'notification'>;
}
