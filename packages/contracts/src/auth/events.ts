// What the auth service announces on NATS (`auth.>`). Payloads are schemas of their own, not HTTP
// answers: other services project them, so they change only compatibly.
import { z } from 'zod';
import { defineEvents } from '../events.ts';
import { RoleSchema } from './tokens.ts';

/**
 * The member's version: 1 when registered, one more with every change announced. A projection
 * keeps the highest version it saw and ignores an event with a lower one (redelivery, reordering).
 */
const version = z.number().int().positive();

/** What auth's events say about a member: no email, no password, no suspension history. */
export const UserEventSchema = z.object({
  id: z.string(),
  version,
  firstName: z.string(),
  lastName: z.string(),
  profilePicture: z.string(),
  city: z.string().optional(),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
  roles: z.array(RoleSchema),
  activated: z.boolean(),
  subscriptionEndsAt: z.iso.datetime().optional(),
});
export type UserEvent = z.infer<typeof UserEventSchema>;

/** The member is gone for good: a projection drops it and ignores any later event about it. */
export const UserDeletedEventSchema = z.object({ id: z.string(), version });
export type UserDeletedEvent = z.infer<typeof UserDeletedEventSchema>;

/**
 * One member blocked (`auth.block.added`) or unblocked (`auth.block.removed`) another. `version`
 * counts the changes of this pair (blocker, blocked), one higher each time: projections keep the
 * newest per pair. Deleting an account ends its relations without these events: followers drop
 * them on `auth.user.deleted`.
 */
export const BlockEventSchema = z.object({ blockerId: z.string(), blockedId: z.string(), version, at: z.iso.datetime() });
export type BlockEvent = z.infer<typeof BlockEventSchema>;

export const authEvents = defineEvents('auth', {
  'auth.user.registered': UserEventSchema,
  'auth.user.activated': UserEventSchema,
  'auth.user.updated': UserEventSchema,
  'auth.user.deleted': UserDeletedEventSchema,
  'auth.block.added': BlockEventSchema,
  'auth.block.removed': BlockEventSchema,
});
