// What the listing service announces on NATS (`listing.>`). Payloads are schemas of their own, not
// HTTP answers: other services project them, so they change only compatibly.
import { z } from 'zod';
import { defineEvents } from '../events.ts';

/**
 * A category as announced. `version` counts its announced changes (1 when created); a projection
 * ignores an event with a lower version than the one it holds.
 */
export const CategoryEventSchema = z.object({
  id: z.string(),
  version: z.number().int().positive(),
  name: z.string().min(1).max(60),
  icon: z.string().min(1).max(60),
  isPremium: z.boolean(),
});
export type CategoryEvent = z.infer<typeof CategoryEventSchema>;

export const listingEvents = defineEvents('listing', {
  'listing.category.created': CategoryEventSchema,
});
