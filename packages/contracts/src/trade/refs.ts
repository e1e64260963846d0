// Where each trade route lives and who may call it: zod-free, so the browser's typed client takes
// these very objects (`@ruilplein/contracts/browser`); routes.ts adds summaries and schemas.
import { defineRefs } from '../routes.ts';

// Order matters to the service's router: the fixed paths (`my`, `count`) come before
// `/api/tradeoffer/:id`. One group (the registry's `trade`): offers and reviews.
export const tradeRefs = defineRefs({
  my: { service: 'trade', method: 'get', path: '/api/tradeoffer/my', access: 'user', personal: true },
  // The session's daily count (spec 1 §4): only one's own.
  count: { service: 'trade', method: 'get', path: '/api/tradeoffer/count', access: 'user', caller: { query: ['userId'] } },
  // Each create asks the listing service twice: bounded per member even for Premium (no daily limit).
  create: {
    service: 'trade',
    method: 'post',
    path: '/api/tradeoffer/create',
    access: 'user',
    caller: { body: ['senderID'] },
    rateLimit: { per: 'user', points: 30, windowSeconds: 600, name: 'trade-offer-create' },
  },
  respond: { service: 'trade', method: 'put', path: '/api/tradeoffer/respond/:id', access: 'user' },
  confirm: { service: 'trade', method: 'post', path: '/api/tradeoffer/confirm/:id', access: 'user' },
  // A counter-offer (issue 24) is a new offer: bounded like creating one.
  counter: {
    service: 'trade',
    method: 'post',
    path: '/api/tradeoffer/:id/counter',
    access: 'user',
    rateLimit: { per: 'user', points: 30, windowSeconds: 600, name: 'trade-offer-counter' },
  },
  get: { service: 'trade', method: 'get', path: '/api/tradeoffer/:id', access: 'user', personal: true },
  addReview: { service: 'trade', method: 'post', path: '/api/review/add', access: 'user' },
  hasReviewed: { service: 'trade', method: 'get', path: '/api/review/has-reviewed/:userId', access: 'user' },
  // The public profile is fetched without a token (spec 2 §6), its reviews with it.
  reviews: { service: 'trade', method: 'get', path: '/api/review/user/:id', access: 'public' },
});
