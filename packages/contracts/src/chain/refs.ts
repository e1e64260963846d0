// Where each swap-chain route lives and who may call it: zod-free, so the browser's typed client
// takes these very objects (`@ruilplein/contracts/browser`); routes.ts adds summaries and schemas.
import { defineRefs } from '../routes.ts';

export const chainRefs = defineRefs({
  suggestions: { service: 'chain', method: 'get', path: '/api/chain/suggestions', access: 'user', personal: true },
  // Each proposal is a three-party offer with notifications to two members: a few per member.
  propose: { service: 'chain', method: 'post', path: '/api/chain/:id/propose', access: 'user', rateLimit: { per: 'user', points: 20, windowSeconds: 600 } },
});
