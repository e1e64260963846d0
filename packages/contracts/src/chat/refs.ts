// Where each chat route lives and who may call it: zod-free, so the browser's typed client takes
// these very objects (`@ruilplein/contracts/browser`); routes.ts adds summaries and schemas.
// The real-time hub (/chathub) is no route: chat/rules.ts CHAT_HUB describes it.
import { defineRefs } from '../routes.ts';

export const chatRefs = defineRefs({
  // Only the offer's two parties (403 for anyone else, admins too).
  messages: { service: 'chat', method: 'get', path: '/api/chat/:offerId', access: 'user', personal: true },
  // Every message is stored and broadcast to the offer's room: bounded per member.
  send: { service: 'chat', method: 'post', path: '/api/chat/send', access: 'user', rateLimit: { per: 'user', points: 30, windowSeconds: 60, name: 'chat-send' } },
});
