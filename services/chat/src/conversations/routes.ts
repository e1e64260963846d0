import { CHAT_MESSAGES, chatRoutes } from '@ruilplein/contracts';
import { badRequest, type Api } from '@ruilplein/service-kit';
import type { Hub } from '../hub/hub.ts';
import { listMessages, partyConversation, storeMessage } from './messages.ts';
import type { ChatStore } from './model.ts';

export function chatHttp(api: Api, store: ChatStore, hub: Pick<Hub, 'broadcast'>) {
  api.handle(chatRoutes.messages, async ({ params, query, principal }) => {
    const conversation = await partyConversation(store, params.offerId, principal.userId.toLowerCase());
    return listMessages(store, conversation, query.after);
  });

  api.handle(chatRoutes.send, async ({ body, principal }) => {
    const message = await storeMessage(store, body.tradeOfferId, principal.userId.toLowerCase(), body.content);
    // Stored (acknowledged by the store) before anyone is shown it.
    hub.broadcast(message);
    return message;
  });

  // The hub answers websockets only: with several replicas, long-polling would need sticky sessions.
  api.router.all(/^\/chathub(\/|$)/i, () => {
    throw badRequest(CHAT_MESSAGES.websocketOnly);
  });
}
