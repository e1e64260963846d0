import { CHAT_MESSAGES } from '@ruilplein/contracts';
import { badRequest, type HandlerPart, type Logger, type OutboxRelay, type Router } from '@ruilplein/service-kit';
import type { Hub } from '../hub/hub.ts';
import { listMessages, partyConversation, storeMessage } from './messages.ts';
import { messageKey, type ChatStore } from './model.ts';
import { roomPresence } from './presence.ts';

export function chatHandlers(store: ChatStore, hub: Pick<Hub, 'broadcast' | 'io'>, relay: Pick<OutboxRelay, 'kick'>, logger: Logger) {
  const present = roomPresence(hub.io, logger);
  return {
    chat: {
      messages: async ({ params, query, principal }) => {
        const conversation = await partyConversation(store, params.offerId, principal.userId.toLowerCase());
        return listMessages(store, conversation, query.after);
      },
      send: async ({ body, principal }) => {
        const message = await storeMessage(store, body.tradeOfferId, principal.userId.toLowerCase(), body.content, { present });
        // Stored (acknowledged by the store) before anyone is shown it; its event follows through the outbox.
        hub.broadcast(message);
        relay.kick(store.messages.collectionName, messageKey(message.tradeOfferId, message.id));
        return message;
      },
    },
  } satisfies HandlerPart<'chat'>;
}

export function chatPlain(router: Router) {
  // The hub answers websockets only: with several replicas, long-polling would need sticky sessions.
  router.all(/^\/chathub(\/|$)/i, () => {
    throw badRequest(CHAT_MESSAGES.websocketOnly);
  });
}
