import type { BlockProjection, Logger, MemberProjection, OutboxRelay } from '@ruilplein/service-kit';
import type { CategoryCache } from '../categories/cache.ts';
import type { MemberField } from '../members/model.ts';
import type { PhotoStore } from '../photos/store.ts';
import type { WishlistCollection } from '../wishlist/model.ts';
import type { ListingCollection } from './model.ts';
import type { OwnerCollection, OwnerCounter } from './owners.ts';

/** What the listing, wishlist, inventory and member parts share. */
export interface ListingContext {
  listings: ListingCollection;
  owners: OwnerCollection;
  counter: OwnerCounter;
  members: MemberProjection<MemberField>;
  /** Who blocked whom (auth's events, on the members durable): neither sees the other's listings. */
  blocks: BlockProjection;
  wishlist: WishlistCollection;
  photos: PhotoStore;
  categories: CategoryCache;
  relay: Pick<OutboxRelay, 'kick'>;
  logger: Logger;
}
