import type { Category, Listing } from '@ruilplein/contracts';
import { placeOf, type MemberDoc } from '../members/model.ts';
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

/**
 * Whether the owner's place name may stand beside the listing's distance: the distance is measured
 * to the listing's copy of the owner's place (the search's filters use it too), and that copy
 * follows a move a moment later, listing by listing. In between, the owner's new city beside the
 * old distance read '124 km · Zeist' and '13 km · Zeist' for one owner (issue 27): then no name.
 */
export function namedHere(doc: Pick<ListingDoc, 'latitude' | 'longitude'>, owner: MemberDoc | null | undefined): boolean {
  const place = placeOf(owner);
  return place?.latitude === doc.latitude && place?.longitude === doc.longitude;
}

const withoutCity = ({ city: _city, ...user }: Listing['user']): Listing['user'] => user;

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
    user: namedHere(doc, context.owner) ? ownerOf(doc.ownerId, context.owner) : withoutCity(ownerOf(doc.ownerId, context.owner)),
    listingPhotos: doc.photos.map((p) => ({ imageUrl: p.imageUrl, thumbnailUrl: p.thumbnailUrl, width: p.width, height: p.height })),
  };
}
