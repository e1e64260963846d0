import { LISTING_MESSAGES, LISTING_PHOTOS_MAX, LISTING_PHOTOS_MAX_TOTAL_BYTES, LISTING_PHOTOS_MIN, type Category } from '@ruilplein/contracts';
import { badRequest, forbidden, type UploadedFile } from '@ruilplein/service-kit';
import type { ListingFields } from './lifecycle.ts';
import type { ListingDoc } from './model.ts';

/** The photos of a form: the add form sends `images`, the edit form `Images`; either is taken on both. */
export function photosOf(files: Record<string, UploadedFile[]>, required: boolean): UploadedFile[] {
  const photos = [...(files.images ?? []), ...(files.Images ?? [])];
  if (required && photos.length < LISTING_PHOTOS_MIN) throw badRequest(LISTING_MESSAGES.photoRequired);
  if (photos.length > LISTING_PHOTOS_MAX) throw badRequest(LISTING_MESSAGES.tooManyPhotos);
  if (photos.reduce((sum, f) => sum + f.size, 0) > LISTING_PHOTOS_MAX_TOTAL_BYTES) throw badRequest(LISTING_MESSAGES.photosTooLarge);
  return photos;
}

/**
 * The rules of the form beyond its fields: every category must exist; premium categories and a
 * premium-only listing are for Premium members. An edit may keep what the listing already has (a
 * member whose Premium ended can still correct a typo), but not add to it.
 */
export function checkFields(fields: ListingFields, categories: Map<string, Category>, premium: boolean, existing?: Pick<ListingDoc, 'categoryIds' | 'isPremium'>): void {
  if (fields.categoryIds.some((id) => !categories.has(id))) throw badRequest(LISTING_MESSAGES.unknownCategory);
  if (premium) return;
  const kept = new Set(existing?.categoryIds ?? []);
  if (fields.categoryIds.some((id) => categories.get(id)!.isPremium && !kept.has(id))) throw forbidden(LISTING_MESSAGES.premiumCategoryRefused);
  if (fields.isPremium && !existing?.isPremium) throw forbidden(LISTING_MESSAGES.premiumListingRefused);
}
