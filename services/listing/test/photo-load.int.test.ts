// Probe finding 3: ten parallel creates, each with five 40-megapixel photos, all answered 504 by
// the gateway after its timeout, yet all ten listings were created, and a retry made duplicates.
// Here: every create is answered (created or refused, with a Dutch message and Retry-After) within
// the gateway's timeout, a refused one stores nothing, and a retry with the same Idempotency-Key
// creates one listing. The big photos are made here, not committed.
import { randomUUID } from 'node:crypto';
import { IDEMPOTENCY_KEY_HEADER, LISTING_MESSAGES } from '@ruilplein/contracts';
import { imageSlots } from '@ruilplein/service-kit/upload';
import { body, listen } from '@ruilplein/service-kit/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formOf, itemFields, photo, startListing, waitFor, type FormFields, type ListingHarness, type TestMember } from './listings.helpers.ts';

/** The gateway's UPSTREAM_TIMEOUT_MS (its default): later, the member gets a 504. */
const GATEWAY_TIMEOUT_MS = 5000;

let h: ListingHarness;
let big: Buffer;
/** The service behind a server of the test's own, which times each request as the gateway waits for it. */
let timed: Awaited<ReturnType<typeof listen>>;
/** Per request (its `x-test-id`): from its body's arrival to its answer's last byte, in ms. */
const serviceMs = new Map<string, number>();
beforeAll(async () => {
  h = await startListing();
  big = await bigPhoto();
  timed = await listen((req, res) => {
    // The gateway's wait for the answer is refreshed while the body is still being sent: it starts
    // when the body has arrived. Listening for 'end' does not consume the body.
    let arrived = 0;
    req.on('end', () => (arrived = performance.now()));
    res.on('finish', () => serviceMs.set(String(req.headers['x-test-id']), performance.now() - arrived));
    h.service.app(req, res);
  });
}, 60_000);
afterAll(async () => {
  await timed?.close();
  await h?.close();
});

/**
 * A 40-megapixel progressive JPEG of about 3 MB (five fit in the 20 MB form): noise scaled up, so
 * it compresses like a photo and decodes as slowly as one.
 */
async function bigPhoto(): Promise<Buffer> {
  const tile = await sharp({ create: { width: 800, height: 533, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).png().toBuffer();
  const data = await sharp(tile).resize(7745, 5164, { kernel: 'cubic' }).jpeg({ quality: 55, progressive: true }).toBuffer();
  expect(data.length * 5).toBeLessThan(20 * 1024 * 1024);
  return data;
}

/** A form as the bytes a browser sends: built once, sent as often as needed without building it again. */
async function multipartOf(fields: FormFields, photos: Buffer[]) {
  const request = new Request('http://form.invalid/', { method: 'POST', body: formOf(fields, { images: photos }) });
  return { type: request.headers.get('content-type')!, data: new Uint8Array(await request.arrayBuffer()) };
}
type Multipart = Awaited<ReturnType<typeof multipartOf>>;

/** Sends a create; answers its status, body, Retry-After and the service's time for it (serviceMs). */
const send = async (member: TestMember, form: Multipart, key?: string) => {
  const id = randomUUID();
  const res = await fetch(`${timed.url}/api/listing/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${member.token}`, 'content-type': form.type, 'x-test-id': id, ...(key && { [IDEMPOTENCY_KEY_HEADER]: key }) },
    body: form.data,
  });
  const answer = await body(res);
  await waitFor(() => serviceMs.has(id), 'the answer timed');
  return { status: res.status, ms: serviceMs.get(id)!, retryAfter: res.headers.get('retry-after'), body: answer };
};
const create = async (member: TestMember, fields: FormFields, photos: Buffer[], key?: string) => send(member, await multipartOf(fields, photos), key);
const listingsOf = (member: TestMember) => h.db.collection<{ ownerId: string }>('listings').countDocuments({ ownerId: member.id });
const idle = () => waitFor(() => imageSlots.running === 0 && imageSlots.queued === 0, 'image work done', 60_000);

describe('creates with big photos under load', () => {
  it('answers ten parallel creates of five 40-megapixel photos within the gateway timeout; a refusal stores nothing', async () => {
    const members = await Promise.all(Array.from({ length: 10 }, () => h.member()));
    const keys = members.map(() => randomUUID());
    const form = await multipartOf(itemFields({ title: "Zware foto's" }), [big, big, big, big, big]);
    const answers = await Promise.all(members.map((m, i) => send(m, form, keys[i])));

    for (const a of answers) {
      expect(a.ms).toBeLessThan(GATEWAY_TIMEOUT_MS);
      expect([201, 503]).toContain(a.status);
      if (a.status === 503) {
        expect(a.body.message).toBe(LISTING_MESSAGES.photosBusy);
        expect(Number(a.retryAfter)).toBeGreaterThan(0);
      }
    }
    // Far more than fits: some are refused (which, depends on the machine's pace).
    expect(answers.some((a) => a.status === 503)).toBe(true);

    // Work a refused request had begun ends in the background; it still writes nothing.
    await idle();
    for (const [i, m] of members.entries()) expect(await listingsOf(m)).toBe(answers[i]!.status === 201 ? 1 : 0);

    // A created one sent again with its key: the first answer, nothing new.
    const made = answers.findIndex((a) => a.status === 201);
    if (made >= 0) {
      const again = await send(members[made]!, form, keys[made]);
      expect(again).toMatchObject({ status: 201, body: answers[made]!.body });
      expect(await listingsOf(members[made]!)).toBe(1);
    }
    // A refused one left its key free: the member's retry with it (one photo now) is created, once.
    const refused = answers.findIndex((a) => a.status === 503);
    const lighter = await multipartOf(itemFields({ title: "Zware foto's" }), [big]);
    const retried = await send(members[refused]!, lighter, keys[refused]);
    expect(retried.status).toBe(201);
    expect(await send(members[refused]!, lighter, keys[refused])).toMatchObject({ status: 201, body: retried.body });
    expect(await listingsOf(members[refused]!)).toBe(1);
  }, 120_000);

  it('takes one create with photos of a member at a time: a second at once is 429 with Retry-After', async () => {
    await idle();
    const member = await h.member();
    const form = await multipartOf(itemFields(), [big]);
    const both = await Promise.all([send(member, form), send(member, form)]);
    const refused = both.find((a) => a.status === 429);
    expect(refused, JSON.stringify(both.map((a) => a.status))).toBeDefined();
    expect(refused!.body.message).toBe(LISTING_MESSAGES.photosBusyMember);
    expect(Number(refused!.retryAfter)).toBeGreaterThan(0);
    await idle();
    expect(await listingsOf(member)).toBe(both.filter((a) => a.status === 201).length);
  }, 60_000);
});

describe('Idempotency-Key', () => {
  it('answers a repeat with the same key with the first result, creating one listing', async () => {
    const member = await h.member();
    const small = await photo();
    const key = randomUUID();
    const first = await create(member, itemFields(), [small], key);
    expect(first.status).toBe(201);
    const again = await create(member, itemFields(), [small], key);
    expect(again).toMatchObject({ status: 201, body: first.body });
    expect(await listingsOf(member)).toBe(1);
    // Without a key, or with another, a create is a new listing.
    expect((await create(member, itemFields(), [small])).status).toBe(201);
    expect((await create(member, itemFields(), [small], randomUUID())).status).toBe(201);
    expect(await listingsOf(member)).toBe(3);
  });

  it('two creates with one key at once make one listing', async () => {
    const member = await h.member();
    const small = await photo();
    const key = randomUUID();
    const both = await Promise.all([create(member, itemFields(), [small], key), create(member, itemFields(), [small], key)]);
    expect(both.map((a) => a.status).sort()).toContain(201);
    for (const a of both) expect([201, 409]).toContain(a.status);
    const busy = both.find((a) => a.status === 409);
    if (busy) expect(busy).toMatchObject({ body: { message: LISTING_MESSAGES.idempotencyKeyBusy }, retryAfter: expect.any(String) });
    expect(await listingsOf(member)).toBe(1);
  });

  it('refuses the key with another form (422), a malformed key (400), and keeps keys per member', async () => {
    const [member, other] = [await h.member(), await h.member()];
    const small = await photo();
    const key = randomUUID();
    expect((await create(member, itemFields(), [small], key)).status).toBe(201);
    const changed = await create(member, itemFields({ title: 'Andere titel' }), [small], key);
    expect(changed).toMatchObject({ status: 422, body: { message: LISTING_MESSAGES.idempotencyKeyReused } });
    for (const bad of ['kort', 'met spatie erin', 'x'.repeat(101)]) {
      expect(await create(member, itemFields(), [small], bad)).toMatchObject({ status: 400, body: { message: LISTING_MESSAGES.invalidIdempotencyKey } });
    }
    expect(await listingsOf(member)).toBe(1);
    // The same key from another member is their own.
    expect((await create(other, itemFields(), [small], key)).status).toBe(201);
    expect(await listingsOf(other)).toBe(1);
  });

  it('frees the key of a refused create: the corrected retry with the same key is created', async () => {
    const member = await h.member();
    const small = await photo();
    const key = randomUUID();
    expect((await create(member, itemFields({ CategoryIDs: ['bestaat-niet'] }), [small], key)).status).toBe(400);
    expect(await listingsOf(member)).toBe(0);
    expect((await create(member, itemFields(), [small], key)).status).toBe(201);
    expect(await listingsOf(member)).toBe(1);
  });
});
