import { consumeSuspensions, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import type { TradeContext } from '../context.ts';
import { closeOffersOfMember } from '../offers/lifecycle.ts';

/**
 * A suspension (a ban or the automatic one, under any version of moderation's events): the
 * member's open offers (Pending or Accepted) are cancelled, announced, so the other party's chat
 * closes. Its end, by date or lifted by an admin (`suspension-ended`, `cause: 'lifted'`, issue 27), is
 * recorded (kit suspensions.ts) so a late or repeated suspension changes nothing; cancelled offers
 * stay cancelled. Safe to repeat.
 */
export function consumeModeration(bus: Bus, db: Connection, ctx: TradeContext, logger: Logger): Promise<Worker> {
  return consumeSuspensions(bus, {
    durable: 'trade-moderation',
    db,
    logger,
    suspended: async ({ userId }) => {
      const cancelled = await closeOffersOfMember(ctx, userId, ctx.clock());
      if (cancelled) logger.info({ userId, cancelled }, 'open offers of a suspended member cancelled');
    },
  });
}
