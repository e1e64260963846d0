// The payment service's HTTP routes. Each route spreads its zod-free ref (refs.ts) and adds what the
// service validates with.
import type { RouteDef } from '../routes.ts';
import type { paymentRefs } from './refs.ts';

/** None yet: the payment service's issue declares them here, with their refs. */
export const paymentRoutes = {} satisfies Record<keyof typeof paymentRefs, RouteDef>;
