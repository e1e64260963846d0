// A listing on members' wishlists was traded or removed: each of them hears of it. listing keeps
// the wishlists and names the members; this service keeps no copy of them. A new listing matched a
// member's saved search: listing matched it (once per listing and member) and says how to mail it.
import { eventRegistry } from '@ruilplein/contracts';
import { consume, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import type { NotificationContext } from '../context.ts';
import { notify } from '../notifications/store.ts';

export function consumeListing(bus: Bus, db: Connection, ctx: NotificationContext, logger: Logger): Promise<Worker> {
  return consume(bus, {
    durable: 'notification-listing',
    registry: eventRegistry,
    subjects: ['listing.wishlist.ended', 'listing.saved-search.matched'],
    db,
    logger,
    handler: async (event) => {
      if (event.type === 'listing.saved-search.matched') {
        const e = event.payload;
        // One by one, as for wishlists: a redelivery part-way through repeats nothing already made.
        for (const m of e.matches) {
          const distance = m.distanceKm === null ? '' : `, ${String(m.distanceKm).replace('.', ',')} km`;
          await notify(
            ctx,
            {
              userId: m.userId,
              kind: 'saved-search',
              source: `s${e.listingId}`,
              at: new Date(e.at),
              title: `Nieuw voor "${m.searchName}": ${e.title}${distance}`,
              body: `Een nieuwe listing past bij je bewaarde zoekopdracht "${m.searchName}".`,
              link: `/dashboard/listing/${e.listingId}`,
            },
            { mail: m.alert },
          );
        }
        return;
      }
      if (event.type !== 'listing.wishlist.ended') return;
      const e = event.payload;
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
