// The trade service's HTTP routes. Each route spreads its zod-free ref (refs.ts) and adds what the
// service validates with.
import type { RouteDef } from '../routes.ts';
import type { tradeRefs } from './refs.ts';

/** None yet: the trade service's issue declares them here, with their refs. */
export const tradeRoutes = {} satisfies Record<keyof typeof tradeRefs, RouteDef>;
