// A chat message the recipient did not see live (`recipientOnline`: chat knew whether they had the
// conversation open on any replica) becomes the conversation's one unread notification.
import { eventRegistry } from '@ruilplein/contracts';
import { consume, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import type { NotificationContext } from '../context.ts';
import { nameOf, notifyChat } from '../notifications/store.ts';

export function consumeChat(bus: Bus, db: Connection, ctx: NotificationContext, logger: Logger): Promise<Worker> {
  return consume(bus, {
    durable: 'notification-chat',
    registry: eventRegistry,
    subjects: ['chat.message.sent'],
    db,
    logger,
    // One at a time: a conversation's messages replace each other's notification in order.
    concurrency: 1,
    handler: async ({ payload: m }) => {
      if (m.recipientOnline) return;
      const senderName = await nameOf(ctx, m.senderId);
      for (const userId of m.recipientIds) {
        await notifyChat(ctx, { userId, offerId: m.offerId, messageId: m.messageId, senderId: m.senderId, senderName, preview: m.preview, at: new Date(m.sentAt) });
      }
    },
  });
}
