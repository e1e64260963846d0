// Where each payment route lives and who may call it: zod-free, so the browser's typed client takes
// these very objects (`@ruilplein/contracts/browser`); routes.ts adds summaries and schemas.
import { defineRefs } from '../routes.ts';

export const paymentRefs = defineRefs({
  // Each start creates a payment at the provider: a few per member.
  startUpgradeFirst: { service: 'payment', method: 'post', path: '/api/payment/start-upgrade-first', access: 'user', rateLimit: { per: 'user', points: 10, windowSeconds: 600 } },
  // The seed's return screen asks without a token: the id is an unguessable secret and the answer only its status.
  status: { service: 'payment', method: 'get', path: '/api/payment/status', access: 'public', rateLimit: { per: 'client', points: 120, windowSeconds: 60 } },
  createSubscription: { service: 'payment', method: 'post', path: '/api/payment/create-subscription', access: 'user' },
  // The membership screen's own view (not in the seed): whether the subscription runs or was cancelled.
  mine: { service: 'payment', method: 'get', path: '/api/payment/subscription', access: 'user', personal: true },
  cancelSubscription: { service: 'payment', method: 'post', path: '/api/payment/cancel-subscription', access: 'user' },
  // The provider's call: only an id, checked by asking the provider.
  webhook: { service: 'payment', method: 'post', path: '/api/payment/webhook', access: 'public', form: true, rateLimit: { per: 'client', points: 600, windowSeconds: 60 } },
  // The local checkout (development and tests): Mollie's hosted page, played by the payment service.
  checkoutPage: { service: 'payment', method: 'get', path: '/api/payment/checkout/:id', access: 'public' },
  checkoutOutcome: { service: 'payment', method: 'post', path: '/api/payment/checkout/:id', access: 'public', form: true },
});
