// The moderation service's HTTP routes. Each route spreads its zod-free ref (refs.ts) and adds what the
// service validates with.
import type { RouteDef } from '../routes.ts';
import type { moderationRefs } from './refs.ts';

/** None yet: the moderation service's issue declares them here, with their refs. */
export const moderationRoutes = {} satisfies Record<keyof typeof moderationRefs, RouteDef>;
