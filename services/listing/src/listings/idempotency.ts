import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_HOURS, IDEMPOTENCY_KEY_PATTERN, LISTING_MESSAGES } from '@ruilplein/contracts';
import { badRequest, exists, HttpError, type UploadedFile } from '@ruilplein/service-kit';
import type { Request } from 'express';
import type { ListingContext } from './context.ts';
import { newListingId } from './model.ts';

/**
 * One create's key (`_id`: `<member>:<key>`): what the request was (`fingerprint`), the listing id
 * it writes (chosen when the key is first seen, so even a retry that takes over a dead attempt
 * writes the same listing, never a second one), and once done the answer it gave.
 */
export interface IdempotencyDoc {
  _id: string;
  fingerprint: string;
  listingId: string;
  state: 'pending' | 'done';
  answer?: unknown;
  at: Date;
}

/** A pending key older than this belongs to a request that died: a retry takes it over. */
const PENDING_STALE_MS = 60_000;
const ATTEMPTS = 5;

type Claim = { kind: 'new'; doc: IdempotencyDoc } | { kind: 'done'; answer: unknown } | { kind: 'written'; listingId: string };

const collectionOf = (ctx: Pick<ListingContext, 'listings'>) =>
  // The listings' own database; a collection of its own (read and written by `_id` only).
  ctx.listings.db.collection<IdempotencyDoc>('listing_idempotency');

/** The request's key, undefined without one; a malformed key is a 400. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const raw = req.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(raw)) throw badRequest(LISTING_MESSAGES.invalidIdempotencyKey);
  return raw;
}

/** What makes two requests the same: the validated fields and each photo's bytes. */
export function fingerprintOf(fields: unknown, photos: readonly Pick<UploadedFile, 'data'>[]): string {
  const hash = createHash('sha256').update(JSON.stringify(fields));
  for (const photo of photos) hash.update(createHash('sha256').update(photo.data).digest());
  return hash.digest('base64url');
}

/**
 * Claims a key for this request: `new` (go on; write the listing under `doc.listingId`), `done`
 * (answer the first result again), `written` (the first attempt wrote its listing but not its
 * answer: answer that listing). The same key with another request is a 422; one still in progress
 * a 409 with Retry-After.
 */
export async function claimKey(ctx: Pick<ListingContext, 'listings'>, memberId: string, key: string, fingerprint: string, now: Date): Promise<Claim> {
  const keys = collectionOf(ctx);
  const _id = `${memberId}:${key}`;
  for (let i = 0; i < ATTEMPTS; i++) {
    const fresh: IdempotencyDoc = { _id, fingerprint, listingId: newListingId(), state: 'pending', at: now };
    try {
      await keys.insertOne(fresh);
      return { kind: 'new', doc: fresh };
    } catch (err) {
      if ((err as { code?: number }).code !== 11000) throw err;
    }
    const found = await keys.findOne({ _id });
    if (!found) continue;
    const age = now.getTime() - new Date(found.at).getTime();
    if (age > IDEMPOTENCY_KEY_HOURS * 3600_000) {
      // An old key used again: a new request (the conditional write decides between two at once).
      const taken = await keys.replaceOne({ _id, at: found.at }, fresh);
      if (taken.modifiedCount === 1) return { kind: 'new', doc: fresh };
      continue;
    }
    if (found.fingerprint !== fingerprint) throw new HttpError(422, LISTING_MESSAGES.idempotencyKeyReused);
    if (found.state === 'done') return { kind: 'done', answer: found.answer };
    if (await exists(ctx.listings, { _id: found.listingId })) return { kind: 'written', listingId: found.listingId };
    if (age > PENDING_STALE_MS) {
      const taken = await keys.updateOne({ _id, at: found.at, state: 'pending' }, { $set: { at: now } });
      if (taken.modifiedCount === 1) return { kind: 'new', doc: { ...found, at: now } };
      continue;
    }
    throw new KeyBusy();
  }
  throw new KeyBusy();
}

/** The first request with this key is still at work: 409, try again in a few seconds. */
export class KeyBusy extends HttpError {
  readonly retryAfter = 5;
  constructor() {
    super(409, LISTING_MESSAGES.idempotencyKeyBusy);
  }
}

/** Keeps the answer: a repeat gets it again. */
export async function finishKey(ctx: Pick<ListingContext, 'listings'>, doc: IdempotencyDoc, answer: unknown): Promise<void> {
  await collectionOf(ctx).updateOne({ _id: doc._id, at: doc.at }, { $set: { state: 'done', answer } });
}

/** The request failed before its listing was written: the key is free for a retry. */
export async function releaseKey(ctx: Pick<ListingContext, 'listings'>, doc: IdempotencyDoc): Promise<void> {
  if (await exists(ctx.listings, { _id: doc.listingId })) return;
  await collectionOf(ctx).deleteOne({ _id: doc._id, at: doc.at, state: 'pending' });
}
