// The add and edit forms' checks, in the order spec 2 §5 gives, and the rules for chosen photos.
import {
  LISTING_CATEGORIES_MIN,
  LISTING_MESSAGES,
  LISTING_PHOTOS_MAX,
  LISTING_PHOTOS_MIN,
  LISTING_PHOTOS_MAX_TOTAL_BYTES,
  LISTING_TITLE_MAX_LENGTH,
  LISTING_DESCRIPTION_MAX_LENGTH,
  listingValueProblem,
  parseListingValue,
  type ListingType,
} from '@ruilplein/contracts/browser';

export interface ListingDraft {
  listingType: ListingType;
  /** Services only: items are accepted in exchange too. */
  acceptsItems: boolean;
  title: string;
  description: string;
  /** As typed: empty, or a number with a dot or a comma. */
  value: string;
  categoryIds: string[];
  isPremium: boolean;
}

export type DraftField = 'title' | 'description' | 'value' | 'photos' | 'categories';

export interface Problem {
  field?: DraftField;
  message: string;
}

const shown = (message: string): string => `❌ ${message}`;

function textProblems(draft: ListingDraft): Problem | undefined {
  const title = draft.title.trim();
  if (!title) return { field: 'title', message: LISTING_MESSAGES.titleRequired };
  if (title.length > LISTING_TITLE_MAX_LENGTH) return { field: 'title', message: LISTING_MESSAGES.titleTooLong };
  const description = draft.description.trim();
  if (!description) return { field: 'description', message: LISTING_MESSAGES.descriptionRequired };
  if (description.length > LISTING_DESCRIPTION_MAX_LENGTH) return { field: 'description', message: LISTING_MESSAGES.descriptionTooLong };
  const value = listingValueProblem(parseListingValue(draft.value));
  if (value) return { field: 'value', message: value };
  return undefined;
}

/** The add form: signed in, title, description, value, at least one photo, at least one category; each shown with '❌ '. */
export function addProblem(draft: ListingDraft, photoCount: number, signedIn: boolean): Problem | undefined {
  if (!signedIn) return { message: shown(LISTING_MESSAGES.notLoggedIn) };
  const text = textProblems(draft);
  if (text) return { ...text, message: shown(text.message) };
  if (photoCount < LISTING_PHOTOS_MIN) return { field: 'photos', message: shown(LISTING_MESSAGES.photoRequired) };
  if (draft.categoryIds.length < LISTING_CATEGORIES_MIN) return { field: 'categories', message: shown(LISTING_MESSAGES.categoryRequired) };
  return undefined;
}

/** The edit form: title, description, value, at least one category, worded as the spec's edit screen; no photo needed (none chosen keeps the old). */
export function editProblem(draft: ListingDraft): Problem | undefined {
  const text = textProblems(draft);
  if (text) return text;
  if (draft.categoryIds.length < LISTING_CATEGORIES_MIN) return { field: 'categories', message: LISTING_MESSAGES.categoryRequiredEdit };
  return undefined;
}

/**
 * Photos chosen on top of `current`: only images, at most five in all (the first ones), together at
 * most 20 MB (else the new choice is refused whole). `problem` says what was left out.
 */
export function addPhotos(current: readonly File[], chosen: readonly File[]): { photos: File[]; problem?: string } {
  const images = chosen.filter((file) => file.type.startsWith('image/'));
  let problem = images.length < chosen.length ? shown(LISTING_MESSAGES.photoNotImage) : undefined;
  let photos = [...current, ...images];
  if (photos.length > LISTING_PHOTOS_MAX) {
    photos = photos.slice(0, LISTING_PHOTOS_MAX);
    problem = shown(LISTING_MESSAGES.tooManyPhotos);
  }
  if (photos.reduce((sum, file) => sum + file.size, 0) > LISTING_PHOTOS_MAX_TOTAL_BYTES) {
    return { photos: [...current], problem: shown(LISTING_MESSAGES.photosTooLarge) };
  }
  return { photos, problem };
}

/** The value as the form sends it: a dot as decimal point, empty for none. */
export function valueField(text: string): string {
  const value = parseListingValue(text);
  return value === undefined ? '' : String(value);
}

/** The multipart body of a create (the seed's lower-case names) or an update (its capitalised ones). */
export function listingFormData(draft: ListingDraft, photos: readonly File[], call: 'create' | 'update'): FormData {
  const create = call === 'create';
  const form = new FormData();
  const service = draft.listingType === 'service';
  form.append(create ? 'title' : 'Title', draft.title.trim());
  form.append(create ? 'description' : 'Description', draft.description.trim());
  form.append('initialValue', valueField(draft.value));
  form.append(create ? 'isPremium' : 'IsPremium', String(draft.isPremium));
  form.append(create ? 'listingType' : 'ListingType', draft.listingType);
  form.append(create ? 'acceptsItems' : 'AcceptsItems', String(service && draft.acceptsItems));
  for (const id of draft.categoryIds) form.append('CategoryIDs', id);
  for (const photo of photos) form.append(create ? 'images' : 'Images', photo, photo.name);
  return form;
}
