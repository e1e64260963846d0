// The platform's API as the browser tests reach it from outside the browser: members signed in by
// the API, listings placed with a photo made here, and plain calls.
import { crc32, deflateSync } from 'node:zlib';
import type { MongoClient } from 'mongodb';
import { expect } from 'vitest';
import type { Category } from '@ruilplein/contracts/browser';
import { newMember, registerMember, type Member } from './members.ts';
import { get } from './platform.ts';

const HOUR = 3600_000;

export interface Account extends Member {
  id: string;
  token: string;
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

/** Places a listing and moves it a day into the past: a new one is for Premium members in its first six hours. */
export async function createListing(mongo: MongoClient, category: Category, owner: Account, title: string): Promise<string> {
  const form = new FormData();
  form.set('title', title);
  form.set('description', `${title}: netjes en compleet, op te halen in de buurt.`);
  form.set('initialValue', '25');
  form.set('isPremium', 'false');
  form.set('listingType', 'item');
  form.set('acceptsItems', 'false');
  form.append('CategoryIDs', category.id);
  form.append('images', new Blob([new Uint8Array(png(48, 36, [31, 122, 77]))], { type: 'image/png' }), 'foto.png');
  const { status, body } = await call<{ listing: { id: string } }>('/api/listing/create', { method: 'POST', body: form, token: owner.token });
  expect(status, `create ${title}: ${JSON.stringify(body)}`).toBe(201);
  const id = body.listing.id;
  const aged = await mongo
    .db('listing')
    .collection<{ _id: string; createdAt: Date }>('listings')
    .updateOne({ _id: id }, { $set: { createdAt: new Date(Date.now() - 24 * HOUR) } });
  expect(aged.matchedCount, `listing ${id} in listing.listings`).toBe(1);
  return id;
}
