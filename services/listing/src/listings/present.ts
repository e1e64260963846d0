import type { Category, Listing } from '@ruilplein/contracts';
import type { MemberDoc } from '../members/model.ts';
import type { CategorySnapshot } from '../categories/cache.ts';
import type { ListingDoc } from './model.ts';
import { distanceInKm, type Viewer } from './visibility.ts';

const byId = new WeakMap<CategorySnapshot, Map<string, Category>>();

/** The categories of a snapshot by id (built once per snapshot). */
export function categoryIndex(snapshot: CategorySnapshot): Map<string, Category> {
  let index = byId.get(snapshot);
  if (!index) byId.set(snapshot, (index = new Map(snapshot.list.map((c) => [c.id, c]))));
  return index;
}

/** The owner as a listing shows them; a member the projection does not know (yet) has empty names. */
export function ownerOf(ownerId: string, member: MemberDoc | null | undefined): Listing['user'] {
  return {
    id: ownerId,
    firstName: member && !member.deleted ? member.firstName : '',
    lastName: member && !member.deleted ? member.lastName : '',
    ...(member?.city && !member.deleted && { city: member.city }),
  };
}

/** A listing as answered (ListingSchema). */
export function toListing(doc: ListingDoc, context: { owner: MemberDoc | null | undefined; categories: Map<string, Category>; viewer: Viewer }): Listing {
  const cover = doc.photos[0];
  return {
    id: doc._id,
    title: doc.title,
    description: doc.description,
    imageUrl: cover?.imageUrl ?? '',
    thumbnailUrl: cover?.thumbnailUrl ?? '',
    placeholder: doc.placeholder,
    listingType: doc.listingType,
    acceptsItems: doc.acceptsItems,
    isPremium: doc.isPremium,
    initialValue: doc.initialValue ?? null,
    createdAt: new Date(doc.createdAt).toISOString(),
    isActive: doc.active,
    listingCategories: doc.categoryIds.flatMap((id) => context.categories.get(id) ?? []),
    distanceInKm: distanceInKm(context.viewer.place, doc),
    user: ownerOf(doc.ownerId, context.owner),
    listingPhotos: doc.photos.map((p) => ({ imageUrl: p.imageUrl, thumbnailUrl: p.thumbnailUrl, width: p.width, height: p.height })),
  };
}
