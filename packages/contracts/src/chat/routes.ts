// The chat service's HTTP routes. Each route spreads its zod-free ref (refs.ts) and adds what the
// service validates with.
import type { RouteDef } from '../routes.ts';
import type { chatRefs } from './refs.ts';

/** None yet: the chat service's issue declares them here, with their refs. */
export const chatRoutes = {} satisfies Record<keyof typeof chatRefs, RouteDef>;
