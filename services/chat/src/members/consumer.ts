import { eventRegistry } from '@ruilplein/contracts';
import { applyIfNewer, consume, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import type { ChatStore } from '../conversations/model.ts';

/**
 * The members projection: auth's `auth.user.*` events, each applied only when newer, for the
 * senders' first names. A deleted account becomes a tombstone without a name ('Voormalig lid').
 */
export function consumeMembers(bus: Bus, db: Connection, store: ChatStore, logger: Logger): Promise<Worker> {
  return consume(bus, {
    durable: 'chat-members',
    registry: eventRegistry,
    subjects: ['auth.user.registered', 'auth.user.activated', 'auth.user.updated', 'auth.user.deleted'],
    db,
    logger,
    handler: async (event) => {
      const id = event.payload.id.toLowerCase();
      if (event.type === 'auth.user.deleted') {
        await applyIfNewer(store.members, id, event.payload.version, { firstName: '', deleted: true });
        return;
      }
      await applyIfNewer(store.members, id, event.payload.version, { firstName: event.payload.firstName });
    },
  });
}
