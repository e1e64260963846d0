// A listing on members' wishlists was traded or removed: each of them hears of it. listing keeps
// the wishlists and names the members; this service keeps no copy of them.
import { eventRegistry } from '@ruilplein/contracts';
import { consume, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import type { NotificationContext } from '../context.ts';
import { notify } from '../notifications/store.ts';

export function consumeListing(bus: Bus, db: Connection, ctx: NotificationContext, logger: Logger): Promise<Worker> {
  return consume(bus, {
    durable: 'notification-listing',
    registry: eventRegistry,
    subjects: ['listing.wishlist.ended'],
    db,
    logger,
    handler: async ({ payload: e }) => {
      const traded = e.reason === 'traded';
      for (const userId of e.userIds) {
        await notify(ctx, {
          userId,
          kind: traded ? 'wishlist-traded' : 'wishlist-removed',
          source: `l${e.listingId}v${e.version}`,
          at: new Date(e.at),
          title: traded ? 'Een artikel op je verlanglijstje is geruild' : 'Een artikel op je verlanglijstje is verwijderd',
          body: traded ? `"${e.title}" is geruild en niet meer te krijgen.` : `"${e.title}" is niet meer te krijgen.`,
          link: '/dashboard/wishlist',
        });
      }
    },
  });
}
