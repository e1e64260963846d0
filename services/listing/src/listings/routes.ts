import { LISTING_MESSAGES } from '@ruilplein/contracts';
import type { Response } from 'express';
import { now as platformNow, forbidden, formReceivedAt, notFound, unauthorized, type HandlerPart } from '@ruilplein/service-kit';
import { placeOf, type MemberDoc } from '../members/model.ts';
import { checkPhotoTime, processPhotos } from '../photos/image.ts';
import { ImageBusy } from '@ruilplein/service-kit/upload';
import type { ListingContext } from './context.ts';
import { claimKey, fingerprintOf, finishKey, idempotencyKeyOf, KeyBusy, releaseKey, type IdempotencyDoc } from './idempotency.ts';
import { createListing, deleteListing, updateListing } from './lifecycle.ts';
import { listingsByIds, LIVE, type ListingDoc } from './model.ts';
import { categoryIndex, toListing } from './present.ts';
import { checkFields, photosOf } from './rules.ts';
import { canSee, hiddenFrom, viewerOf, type Viewer } from './visibility.ts';

/** A refusal that says when to come back (busy photo work, a create still in progress) sets Retry-After. */
const withRetryAfter =
  (res: Response) =>
  (err: unknown): never => {
    if (err instanceof ImageBusy || err instanceof KeyBusy) res.setHeader('retry-after', err.retryAfter);
    throw err;
  };

/** Ids are lowercase hex; a client may send them in either case. */
const idParam = (id: string) => id.toLowerCase();

export function answerWith(ctx: ListingContext, viewer: Viewer) {
  const categories = categoryIndex(ctx.categories.current());
  const owners = new Map<string, Promise<MemberDoc | null>>();
  const ownerOf = (id: string) => {
    if (viewer.member && viewer.id === id) return Promise.resolve(viewer.member);
    let owner = owners.get(id);
    if (!owner) owners.set(id, (owner = ctx.members.byId(id)));
    return owner;
  };
  return async (doc: ListingDoc) => toListing(doc, { owner: await ownerOf(doc.ownerId), categories, viewer });
}

/**
 * Placing, editing, deleting and reading listings. The fixed paths (`my`, `user/…`) are
 * registered here; `GET /api/listing/:id` by `listingByIdHttp`, after every other
 * `/api/listing/<word>` route (search's recommendations too), which it would otherwise take.
 */
export function listingHandlers(ctx: ListingContext) {
  return {
    listing: {
      my: async ({ principal }) => {
        const viewer = await viewerOf(ctx.members, principal);
        const docs = await listingsByIds(ctx.listings, (await ctx.counter.ids(principal.userId)).all, { ownerId: principal.userId, ...LIVE });
        return Promise.all(docs.map(answerWith(ctx, viewer)));
      },
      byUser: async ({ principal, params }) => {
        const now = platformNow();
        const viewer = await viewerOf(ctx.members, principal, now);
        const userId = idParam(params.userId);
        if (await hiddenFrom(ctx, viewer, userId)) return [];
        const docs = await listingsByIds(ctx.listings, (await ctx.counter.ids(userId)).active, { ownerId: userId, active: true });
        return Promise.all(docs.filter((d) => canSee(d, viewer, now)).map(answerWith(ctx, viewer)));
      },
      create: async ({ principal, body, files, req, res }) => {
        // The budget counts from the body's arrival: the gateway's wait starts about then.
        const job = { memberId: principal.userId, startedAt: formReceivedAt(req) ?? performance.now() };
        const now = platformNow();
        const viewer = await viewerOf(ctx.members, principal, now);
        if (viewer.gone) throw unauthorized();
        // Everything is checked before anything is stored: fields, photos, rights, the limit.
        const uploads = photosOf(files, true);
        // A retry with the same Idempotency-Key answers the first result and creates nothing (probe finding 3).
        const key = idempotencyKeyOf(req);
        let claimed: IdempotencyDoc | undefined;
        if (key) {
          const claim = await claimKey(ctx, principal.userId, key, fingerprintOf(body, uploads), now).catch(withRetryAfter(res));
          if (claim.kind === 'done') return claim.answer as never;
          if (claim.kind === 'written') {
            const written = await ctx.listings.findOne({ _id: claim.listingId, ...LIVE });
            if (!written) throw notFound(LISTING_MESSAGES.notFound);
            return { message: LISTING_MESSAGES.created, listing: await answerWith(ctx, viewer)(written) };
          }
          claimed = claim.doc;
        }
        try {
          checkFields(body, categoryIndex(ctx.categories.current()), viewer.premium);
          await ctx.counter.check(principal.userId, viewer.premium, now);
          const photos = await processPhotos(uploads, job);
          // Past the budget the gateway may have answered 504 already: write nothing the member never hears of.
          checkPhotoTime(job);
          const doc = await createListing(ctx, { ownerId: principal.userId, fields: body, photos, unlimited: viewer.premium, place: placeOf(viewer.member), ...(claimed && { id: claimed.listingId }) }, now);
          const answer = { message: LISTING_MESSAGES.created, listing: await answerWith(ctx, viewer)(doc) };
          if (claimed) await finishKey(ctx, claimed, answer).catch((err: unknown) => ctx.logger.warn({ err, listingId: doc._id }, 'idempotency answer not kept; a retry answers the listing'));
          return answer;
        } catch (err) {
          if (claimed) await releaseKey(ctx, claimed).catch((e: unknown) => ctx.logger.warn({ err: e }, 'idempotency key not released'));
          return withRetryAfter(res)(err);
        }
      },
      update: async ({ principal, params, body, files, req, res }) => {
        const startedAt = formReceivedAt(req) ?? performance.now();
        const now = platformNow();
        const viewer = await viewerOf(ctx.members, principal, now);
        const id = idParam(params.id);
        const doc = await ctx.listings.findOne({ _id: id, ...LIVE });
        if (!doc || !canSee(doc, viewer, now)) throw notFound(LISTING_MESSAGES.notFound);
        if (doc.ownerId !== principal.userId) throw forbidden(LISTING_MESSAGES.notOwner);
        const uploads = photosOf(files, false);
        const categories = categoryIndex(ctx.categories.current());
        checkFields(body, categories, viewer.premium, doc);
        const job = { memberId: principal.userId, startedAt };
        const photos = uploads.length ? await processPhotos(uploads, job).catch(withRetryAfter(res)) : undefined;
        if (photos) checkPhotoTime(job);
        const updated = await updateListing(ctx, id, body, photos, (current) => {
          if (current.ownerId !== principal.userId) throw forbidden(LISTING_MESSAGES.notOwner);
          checkFields(body, categories, viewer.premium, current);
        }, now);
        if (!updated) throw notFound(LISTING_MESSAGES.notFound);
        return { message: LISTING_MESSAGES.updated, listing: await answerWith(ctx, viewer)(updated) };
      },
      delete: async ({ principal, params }) => {
        const now = platformNow();
        const viewer = await viewerOf(ctx.members, principal, now);
        const id = idParam(params.id);
        const doc = await ctx.listings.findOne({ _id: id, ...LIVE });
        // An admin may delete any listing; anyone else learns only of listings they may see.
        if (!doc || (!viewer.admin && !canSee(doc, viewer, now))) throw notFound(LISTING_MESSAGES.notFound);
        if (doc.ownerId !== principal.userId && !viewer.admin) throw forbidden(LISTING_MESSAGES.notOwner);
        if (!(await deleteListing(ctx, id, { now }))) throw notFound(LISTING_MESSAGES.notFound);
        return { message: LISTING_MESSAGES.deleted };
      },
    },
  } satisfies HandlerPart<'listing'>;
}

/** `GET /api/listing/:id`: registered last among the `/api/listing/…` routes (see listingHttp). */
export function listingByIdHandlers(ctx: ListingContext) {
  return {
    listing: {
      get: async ({ principal, params }) => {
        const now = platformNow();
        const viewer = await viewerOf(ctx.members, principal, now);
        const doc = await ctx.listings.findOne({ _id: idParam(params.id), ...LIVE });
        if (!doc || !canSee(doc, viewer, now) || (await hiddenFrom(ctx, viewer, doc.ownerId))) throw notFound(LISTING_MESSAGES.notFound);
        return answerWith(ctx, viewer)(doc);
      },
    },
  } satisfies HandlerPart<'listing'>;
}
