// The platform's API as the browser tests reach it from outside the browser: members signed in by
// the API, listings placed with a photo made here, and plain calls.
import { crc32, deflateSync } from 'node:zlib';
import { expect } from 'vitest';
import { amsterdamDay, type Category } from '@ruilplein/contracts/browser';
import { newMember, registerMember, type Member } from './members.ts';
import { get, moveClock, platform } from './platform.ts';

const HOUR = 3600_000;

export interface Account extends Member {
  id: string;
  token: string;
}

/** Where a member lives, as the profile form saves it. */
export interface Place {
  city: string;
  latitude: number;
  longitude: number;
}

/**
 * Saves a member's place on their profile as the profile form does (the other services learn it
 * from auth's event); with `picture`, a profile photo in the same save.
 */
export async function setPlace(who: Pick<Account, 'firstName' | 'lastName' | 'token'>, place: Place, picture?: { file: Blob; name: string }): Promise<void> {
  const form = new FormData();
  form.set('firstName', who.firstName);
  form.set('lastName', who.lastName);
  form.set('city', place.city);
  form.set('latitude', String(place.latitude));
  form.set('longitude', String(place.longitude));
  if (picture) form.set('profilePicture', picture.file, picture.name);
  const { status, body } = await call('/api/user/update', { method: 'PUT', body: form, token: who.token });
  expect(status, `place of ${who.firstName}: ${JSON.stringify(body)}`).toBe(200);
}

/** A solid-colour PNG, made here (the listing service re-encodes it anyway). */
export function png(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([r, g, b], 1 + x * 3);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

/** One call on the platform's origin: the status and the parsed body. */
export async function call<T>(path: string, init: RequestInit & { token?: string } = {}): Promise<{ status: number; body: T }> {
  const { token, ...rest } = init;
  const res = await get(path, { ...rest, headers: { accept: 'application/json', ...(token && { authorization: `Bearer ${token}` }), ...rest.headers } });
  const text = await res.text();
  return { status: res.status, body: (text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T };
}

export const json = (body: unknown, method = 'POST') => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Signs in by the API: the member's id and access token. */
export async function signIn(member: Pick<Member, 'email' | 'password'>): Promise<{ id: string; token: string }> {
  const { status, body } = await call<{ token: string; user: { id: string } }>('/api/auth/login', json({ email: member.email, password: member.password }));
  expect(status, `login of ${member.email}`).toBe(200);
  return { id: body.user.id, token: body.token };
}

/** A new, activated member, signed in by the API. */
export async function account(firstName: string): Promise<Account> {
  const member = await registerMember(newMember(firstName));
  return { ...member, ...(await signIn(member)) };
}

/** A category everyone may use. */
export async function openCategory(): Promise<Category> {
  const category = (await call<Category[]>('/api/category')).body.find((c) => !c.isPremium);
  expect(category, 'a category for everyone').toBeDefined();
  return category!;
}

/** A listing as the create call answers it: enough to tell when it was placed, and by whom. */
export interface Placed {
  id: string;
  createdAt: string;
  isPremium: boolean;
  owner: Pick<Account, 'token'>;
}

/** How far the platform clock is moved now (0: not moved). */
export async function clockOffset(): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const text = await readFile(platform().clockFile, 'utf8').catch(() => '0');
  return Number(text.trim() || '0') || 0;
}

/** Waits until `probe` gives something (projections follow events, so reads lag writes a little); a loop, as hooks cannot use expect.poll. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined | false>, timeout = 30_000): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const found = await probe();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`${what}: not after ${timeout / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Places listings as if `hours` ago, by the platform clock rather than a write to a store: the
 * clock is put `hours` back while `work` runs and then back where it was, so nothing after sees it
 * moved (browser tests share one platform). Services re-read the clock within 200 ms, so `place`
 * checks each listing's `createdAt` and places again one the service made before it read the moved
 * clock (deleting that one). Once the clock is back, waits until a guest sees the placed listings
 * that are not Premium-only, and until the owner's offer day is today again (trade's clock).
 */
export async function placeEarlier<T>(hours: number, work: (place: (create: () => Promise<Placed>) => Promise<string>) => Promise<T>): Promise<T> {
  const before = await clockOffset();
  const back = before - hours * HOUR;
  const placed: Placed[] = [];
  await moveClock(back);
  let result: T;
  try {
    result = await work(async (create) => {
      for (let attempt = 1; ; attempt++) {
        const listing = await create();
        // Placed on the moved clock: well before what the clock said before it moved.
        if (Date.parse(listing.createdAt) < Date.now() + before - (hours * HOUR) / 2) {
          placed.push(listing);
          return listing.id;
        }
        const removed = await call(`/api/listing/delete/${listing.id}`, { method: 'DELETE', token: listing.owner.token });
        expect(removed.status, `delete of ${listing.id}, placed before the clock moved`).toBe(200);
        if (attempt === 20) throw new Error(`the listing service did not take the moved clock (${listing.createdAt})`);
      }
    });
  } finally {
    await moveClock(before);
  }
  for (const listing of placed.filter((l) => !l.isPremium)) {
    await eventually(`a guest sees listing ${listing.id}`, async () => (await call(`/api/listing/${listing.id}`)).status === 200);
  }
  const today = amsterdamDay(Date.now() + before);
  for (const { token } of new Set(placed.map((l) => l.owner))) {
    await eventually(`the offer day is ${today} again`, async () => (await call<{ date: string }>('/api/tradeoffer/count', { token })).body.date === today);
  }
  return result;
}

/** Places a listing a day before now (by the clock, see placeEarlier): a new one is for Premium members in its first six hours. */
export async function createListing(_unused: unknown, category: Category, owner: Account, title: string): Promise<string> {
  const form = new FormData();
  form.set('title', title);
  form.set('description', `${title}: netjes en compleet, op te halen in de buurt.`);
  form.set('initialValue', '25');
  form.set('isPremium', 'false');
  form.set('listingType', 'item');
  form.set('acceptsItems', 'false');
  form.append('CategoryIDs', category.id);
  form.append('images', new Blob([new Uint8Array(png(48, 36, [31, 122, 77]))], { type: 'image/png' }), 'foto.png');
  return placeEarlier(24, (place) =>
    place(async () => {
      const { status, body } = await call<{ listing: Placed }>('/api/listing/create', { method: 'POST', body: form, token: owner.token });
      expect(status, `create ${title}: ${JSON.stringify(body)}`).toBe(201);
      return { ...body.listing, owner };
    }),
  );
}

/** Waits until each owner's listing is inactive in their own list (listing follows trade's completion). */
export async function eventuallyInactive(owned: readonly (readonly [Account, string])[]): Promise<void> {
  for (const [owner, id] of owned) {
    await eventually(`listing ${id} inactive`, async () => {
      const mine = await call<{ id: string; isActive: boolean }[]>('/api/listing/my', { token: owner.token });
      return mine.body.find((l) => l.id === id)?.isActive === false;
    });
  }
}
