import { z } from 'zod';
import { SUSPENSION_REASONS } from './auth/suspensions.ts';

/** The body of every 4xx/5xx answer: a Dutch message for people, field errors for forms. */
export const ErrorBodySchema = z.object({
  message: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** A suspended member's 403 (auth/suspensions.ts): what /geblokkeerd shows (the seed's fields). */
  blocked: z.literal(true).optional(),
  reason: z.enum(SUSPENSION_REASONS).optional(),
  unblockDate: z.iso.datetime().nullable().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
