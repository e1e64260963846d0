import type { Logger, OutboxRelay } from '@ruilplein/service-kit';
import type { CategoryCache } from '../categories/cache.ts';
import type { MemberModel } from '../members/model.ts';
import type { PhotoStore } from '../photos/store.ts';
import type { WishlistModel } from '../wishlist/model.ts';
import type { ListingModel } from './model.ts';
import type { OwnerCounter, OwnerModel } from './owners.ts';

/** What the listing, wishlist, inventory and member parts share. */
export interface ListingContext {
  listings: ListingModel;
  owners: OwnerModel;
  counter: OwnerCounter;
  members: MemberModel;
  wishlist: WishlistModel;
  photos: PhotoStore;
  categories: CategoryCache;
  relay: Pick<OutboxRelay, 'kick'>;
  logger: Logger;
}
