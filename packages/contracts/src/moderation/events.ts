// What the moderation service announces on NATS (`moderation.>`): payload schemas of their own, each
// about one member with the version of that member's moderation state (one higher per change), so
// auth, listing and trade apply a block or its end only when newer.
import { z } from 'zod';
import { BLOCK_REASONS } from '../auth/blocks.ts';
import { defineEvents } from '../events.ts';

/** A ban by an admin, or an automatic block after too many warnings: the member is blocked until `unblockDate`. */
export const MemberBlockedEventSchema = z.object({
  userId: z.string(),
  version: z.number().int().positive(),
  reason: z.enum(BLOCK_REASONS),
  /** ISO date the block ends; null: until it is lifted. */
  unblockDate: z.iso.datetime().nullable(),
  at: z.iso.datetime(),
});
export type MemberBlockedEvent = z.infer<typeof MemberBlockedEventSchema>;

export const MemberWarnedEventSchema = z.object({
  userId: z.string(),
  version: z.number().int().positive(),
  warningId: z.string(),
  /** Warnings within the automatic block's window, this one included. */
  recentWarnings: z.number().int().positive(),
  at: z.iso.datetime(),
});
export type MemberWarnedEvent = z.infer<typeof MemberWarnedEventSchema>;

/** The block ended (its date passed) or was lifted. */
export const MemberUnblockedEventSchema = z.object({ userId: z.string(), version: z.number().int().positive(), at: z.iso.datetime() });
export type MemberUnblockedEvent = z.infer<typeof MemberUnblockedEventSchema>;

export const moderationEvents = defineEvents('moderation', {
  'moderation.user.banned': MemberBlockedEventSchema,
  'moderation.user.blocked': MemberBlockedEventSchema,
  'moderation.user.warned': MemberWarnedEventSchema,
  'moderation.user.unblocked': MemberUnblockedEventSchema,
});
