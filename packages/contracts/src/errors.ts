import { z } from 'zod';

/** The body of every 4xx/5xx answer: a Dutch message for people, field errors for forms. */
export const ErrorBodySchema = z.object({
  message: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** A blocked member's 403 (auth/blocks.ts): what /geblokkeerd shows. */
  blocked: z.literal(true).optional(),
  reason: z.enum(['ban', 'warnings']).optional(),
  unblockDate: z.iso.datetime().nullable().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
