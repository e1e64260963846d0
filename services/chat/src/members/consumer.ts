import type { Bus, Logger, Worker } from '@ruilplein/service-kit';
import type { ChatStore } from '../conversations/model.ts';

/**
 * The members projection (the kit's, first names only) kept from auth's `auth.user.*` events, for
 * the senders' names. A deleted account becomes a tombstone without a name ('Voormalig lid'). On
 * the same durable, who blocked whom (`auth.block.*`): no chat between them.
 */
export const consumeMembers = (bus: Bus, store: ChatStore, logger: Logger): Promise<Worker> =>
  store.members.consume(bus, { durable: 'chat-members', logger, blocks: { projection: store.blocks } });
