// The six-hour head start in search runs on the platform's clock (the kit's now(), moved through
// RUILPLEIN_CLOCK_FILE as local runs and browser tests do), not the machine's.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListingCardSchema } from '@ruilplein/contracts';
import { body } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { call, createListing, itemFields, PLACES, startListing, waitFor, type ListingHarness, type TestMember } from './listings.helpers.ts';

const HOUR = 3600_000;
let clockDir: string;
let h: ListingHarness;
let plain: TestMember;
let premium: TestMember;
let owner: TestMember;

const moveClock = (ms: number) => writeFile(process.env.RUILPLEIN_CLOCK_FILE!, String(ms));

beforeAll(async () => {
  clockDir = await mkdtemp(join(tmpdir(), 'ruilplein-clock-'));
  process.env.RUILPLEIN_CLOCK_FILE = join(clockDir, 'offset');
  await moveClock(0);
  h = await startListing();
  await waitFor(async () => (await fetch(`${h.url}/readyz`)).status === 200, 'the search index');
  [plain, premium, owner] = await Promise.all([h.member({ ...PLACES.amsterdam }), h.member({ ...PLACES.amsterdam, roles: ['Premium'] }), h.member({ ...PLACES.amsterdam })]);
});

afterAll(async () => {
  await h?.close();
  delete process.env.RUILPLEIN_CLOCK_FILE;
  await rm(clockDir, { recursive: true, force: true });
});

const sees = async (member: TestMember, id: string) => {
  const res = await call(h.url, '/api/listing?categoryIds=tuin&take=50', { token: member.token });
  const answer = await body(res);
  expect(res.status, JSON.stringify(answer)).toBe(200);
  return z.array(ListingCardSchema).parse(answer).some((c) => c.id === id);
};

it('shows a fresh listing to a standard member once the platform clock moved seven hours', async () => {
  const listing = await createListing(h.url, owner.token, itemFields({ title: 'Verse grasmaaier', CategoryIDs: ['tuin'] }));
  await waitFor(() => sees(premium, listing.id), 'the new listing in the premium member’s search');
  expect(await sees(plain, listing.id)).toBe(false);

  await moveClock(7 * HOUR);
  // Every process re-reads the clock file within 200 ms.
  await waitFor(() => sees(plain, listing.id), 'the listing in the standard member’s search after seven hours');

  await moveClock(0);
  await waitFor(async () => !(await sees(plain, listing.id)), 'the head start again with the clock back');
});
