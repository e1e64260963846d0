// The listing service over real HTTP on the run's stores (the kit's harness), with members made the
// way production makes them (auth's events), for the listing, wishlist and member tests.
import { DEFAULT_AVATAR } from '@ruilplein/contracts';
import { now, publishEvent, type ServiceParts } from '@ruilplein/service-kit';
import { body, call, silentLogger, startServiceForTest, testClock, type ServiceTest } from '@ruilplein/service-kit/testing';
import sharp from 'sharp';
import { expect } from 'vitest';
import { createListingService, type ListingDeps } from '../src/app.ts';
import { listingCreated } from '../src/listings/events.ts';
import { newListingId, type ListingDoc } from '../src/listings/model.ts';

export { call, waitFor } from '@ruilplein/service-kit/testing';

export const logger = silentLogger();
export const MB = 1024 * 1024;

export const PLACES = {
  utrecht: { city: 'Utrecht', latitude: 52.0907, longitude: 5.1214 },
  amsterdam: { city: 'Amsterdam', latitude: 52.3676, longitude: 4.9041 },
  rotterdam: { city: 'Rotterdam', latitude: 51.9244, longitude: 4.4777 },
} as const;

export type { TestMember } from '@ruilplein/service-kit/testing';
export type ListingHarness = ServiceTest<ServiceParts>;

/**
 * Empties the auth and listing streams first (the run's other files publish there too: this
 * file's service should neither replay nor count their events), then starts the service.
 */
export const startListing = (extra: Partial<ListingDeps> = {}): Promise<ListingHarness> =>
  startServiceForTest({
    service: 'listing',
    streams: ['auth'],
    memberDefaults: () => ({ profilePicture: DEFAULT_AVATAR, ...PLACES.utrecht }),
    create: (deps) => createListingService({ ...deps, logger, ...extra }),
  });

/** A photo as a camera makes one: JPEG with EXIF (and the place it was taken), in a colour of its own. */
export function photo(options: { width?: number; height?: number; color?: string; format?: 'jpeg' | 'png' | 'webp' } = {}): Promise<Buffer> {
  const { width = 1200, height = 900, color = '#3b82f6', format = 'jpeg' } = options;
  const image = sharp({ create: { width, height, channels: 3, background: color } });
  if (format === 'png') return image.png().toBuffer();
  if (format === 'webp') return image.webp().toBuffer();
  return image
    .jpeg()
    .withExif({ IFD0: { Make: 'Ruilcamera', Copyright: 'Sanne' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 5/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '5/1 7/1 0/1' } })
    .toBuffer();
}

export type FormFields = Record<string, string | string[] | undefined>;

/** A multipart form: text fields (arrays repeated), then files per field. */
export function formOf(fields: FormFields, files: Record<string, Buffer[]> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    for (const v of [value].flat()) form.append(name, v);
  }
  for (const [name, list] of Object.entries(files)) list.forEach((data, i) => form.append(name, new Blob([new Uint8Array(data)], { type: 'image/jpeg' }), `foto-${i}.jpg`));
  return form;
}

/** The add form's fields of a simple, valid item. */
export const itemFields = (overrides: FormFields = {}): FormFields => ({
  title: 'Stadsfiets',
  description: 'Een degelijke fiets met drie versnellingen.',
  initialValue: '120,50',
  listingType: 'item',
  CategoryIDs: ['fietsen'],
  ...overrides,
});

/** Places a listing through the API and answers it (201 expected). */
export async function createListing(url: string, token: string, fields: FormFields = itemFields(), photos?: Buffer[]) {
  const res = await call(url, '/api/listing/create', { method: 'POST', token, body: formOf(fields, { images: photos ?? [await photo()] }) });
  const answer = await body(res);
  expect(res.status, JSON.stringify(answer)).toBe(201);
  return answer.listing as { id: string } & Record<string, unknown>;
}

/**
 * Runs `place` with the platform clock `hours` back, then puts it back: what it places is that much
 * older (past the six-hour head start, say) for the service, with no write to its store.
 */
export async function earlier<T>(hours: number, place: () => Promise<T>): Promise<T> {
  const clock = await testClock();
  await clock.move(-hours * 3600_000);
  try {
    return await place();
  } finally {
    await clock.move(0);
  }
}

/**
 * A listing written as the write side writes it and announced as its outbox relay would, `hoursAgo`
 * old by the platform clock (written while the clock stands back: no write to age it). Faster than
 * a create over HTTP for tests that need many listings at chosen places and times.
 */
export function placeListing(h: ListingHarness, ownerId: string, over: Partial<Omit<ListingDoc, 'createdAt' | 'updatedAt'>> = {}, hoursAgo = 24): Promise<ListingDoc> {
  return earlier(hoursAgo, async () => {
    const id = newListingId();
    const doc: ListingDoc = {
      _id: id,
      ownerId,
      title: `Boekenkast ${id.slice(-4)}`,
      description: 'Stevige boekenkast van eikenhout. '.repeat(10),
      listingType: 'item',
      acceptsItems: false,
      isPremium: false,
      initialValue: 40,
      categoryIds: ['meubels'],
      photos: [{ imageUrl: `/uploads/listings/${id}.webp`, thumbnailUrl: `/uploads/listings/${id}-t.webp`, width: 1600, height: 1200 }],
      placeholder: 'data:image/webp;base64,UklGRg==',
      active: true,
      createdAt: now(),
      updatedAt: now(),
      version: 1,
      latitude: PLACES.amsterdam.latitude,
      longitude: PLACES.amsterdam.longitude,
      ...over,
    };
    await h.db.collection<ListingDoc>('listings').insertOne(doc);
    await publishEvent(h.bus, listingCreated(doc));
    return doc;
  });
}
