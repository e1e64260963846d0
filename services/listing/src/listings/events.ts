import { eventRegistry, type ListingEvent } from '@ruilplein/contracts';
import { createEvent } from '@ruilplein/service-kit';
import type { ListingDoc } from './model.ts';

/** What a listing's events say: the card's fields and its place, never the full description or every photo. */
export function listingEventPayload(doc: ListingDoc): ListingEvent {
  const cover = doc.photos[0];
  return {
    id: doc._id,
    version: doc.version,
    ownerId: doc.ownerId,
    active: doc.active,
    title: doc.title,
    excerpt: doc.description.slice(0, 200),
    listingType: doc.listingType,
    acceptsItems: doc.acceptsItems,
    isPremium: doc.isPremium,
    initialValue: doc.initialValue,
    categoryIds: [...doc.categoryIds],
    imageUrl: cover?.imageUrl ?? '',
    thumbnailUrl: cover?.thumbnailUrl ?? '',
    placeholder: doc.placeholder,
    createdAt: new Date(doc.createdAt).toISOString(),
    ...(typeof doc.latitude === 'number' && typeof doc.longitude === 'number' && { latitude: doc.latitude, longitude: doc.longitude }),
  };
}

export const listingCreated = (doc: ListingDoc) => createEvent(eventRegistry, 'listing.listing.created', listingEventPayload(doc));
export const listingUpdated = (doc: ListingDoc) => createEvent(eventRegistry, 'listing.listing.updated', listingEventPayload(doc));
export const listingDeleted = (doc: Pick<ListingDoc, '_id' | 'version' | 'ownerId'>) =>
  createEvent(eventRegistry, 'listing.listing.deleted', { id: doc._id, version: doc.version, ownerId: doc.ownerId });
