import { consumeSuspensions, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import type { ListingContext } from '../listings/context.ts';
import { deactivateListingsOfSuspendedMember } from '../listings/lifecycle.ts';

/**
 * A suspension (a ban or the automatic one, under any version of moderation's events): the
 * member's listings leave search and offers (each announced as inactive) and their places are given
 * back. Its end, by date or lifted by an admin (`suspension-ended`, `cause: 'lifted'`, issue 27), is
 * recorded (kit suspensions.ts) so a late or repeated suspension changes nothing; the listings are
 * not relisted, the member turns on again what they still offer. Safe to repeat.
 */
export function consumeModeration(bus: Bus, db: Connection, ctx: ListingContext, logger: Logger): Promise<Worker> {
  return consumeSuspensions(bus, {
    durable: 'listing-moderation',
    db,
    logger,
    suspended: async ({ userId }) => {
      const count = await deactivateListingsOfSuspendedMember(ctx, userId);
      if (count) logger.info({ userId, count }, 'listings of a suspended member taken off');
    },
  });
}
