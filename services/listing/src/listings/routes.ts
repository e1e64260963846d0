import { LISTING_MESSAGES, listingRoutes } from '@ruilplein/contracts';
import { forbidden, notFound, unauthorized, type Api } from '@ruilplein/service-kit';
import { placeOf, type MemberDoc } from '../members/model.ts';
import { processPhotos } from '../photos/image.ts';
import type { ListingContext } from './context.ts';
import { createListing, deleteListing, updateListing } from './lifecycle.ts';
import { listingsByIds, LIVE, type ListingDoc } from './model.ts';
import { categoryIndex, toListing } from './present.ts';
import { checkFields, photosOf } from './rules.ts';
import { canSee, viewerOf, type Viewer } from './visibility.ts';

/** Ids are lowercase hex; a client may send them in either case. */
const idParam = (id: string) => id.toLowerCase();

export function answerWith(ctx: ListingContext, viewer: Viewer) {
  const categories = categoryIndex(ctx.categories.current());
  const owners = new Map<string, Promise<MemberDoc | null>>();
  const ownerOf = (id: string) => {
    if (viewer.member && viewer.id === id) return Promise.resolve(viewer.member);
    let owner = owners.get(id);
    if (!owner) owners.set(id, (owner = ctx.members.findById(id).lean().exec()));
    return owner;
  };
  return async (doc: ListingDoc) => toListing(doc, { owner: await ownerOf(doc.ownerId), categories, viewer });
}

/**
 * Placing, editing, deleting and reading listings. The fixed paths (`my`, `user/…`) are
 * registered here; `GET /api/listing/:id` by `listingByIdHttp`, after every other
 * `/api/listing/<word>` route (search's recommendations too), which it would otherwise take.
 */
export function listingHttp(api: Api, ctx: ListingContext) {
  api.handle(listingRoutes.my, async ({ principal }) => {
    const viewer = await viewerOf(ctx.members, principal);
    const docs = await listingsByIds(ctx.listings, (await ctx.counter.ids(principal.userId)).all, { ownerId: principal.userId, ...LIVE });
    return Promise.all(docs.map(answerWith(ctx, viewer)));
  });

  api.handle(listingRoutes.byUser, async ({ principal, params }) => {
    const now = new Date();
    const viewer = await viewerOf(ctx.members, principal, now);
    const userId = idParam(params.userId);
    const docs = await listingsByIds(ctx.listings, (await ctx.counter.ids(userId)).active, { ownerId: userId, active: true });
    return Promise.all(docs.filter((d) => canSee(d, viewer, now)).map(answerWith(ctx, viewer)));
  });

  api.handle(listingRoutes.create, async ({ principal, body, files }) => {
    const now = new Date();
    const viewer = await viewerOf(ctx.members, principal, now);
    if (viewer.gone) throw unauthorized();
    // Everything is checked before anything is stored: fields, photos, rights, the limit.
    const uploads = photosOf(files, true);
    checkFields(body, categoryIndex(ctx.categories.current()), viewer.premium);
    await ctx.counter.check(principal.userId, viewer.premium, now);
    const photos = await processPhotos(uploads);
    const doc = await createListing(ctx, { ownerId: principal.userId, fields: body, photos, unlimited: viewer.premium, place: placeOf(viewer.member) }, now);
    return { message: LISTING_MESSAGES.created, listing: await answerWith(ctx, viewer)(doc) };
  });

  api.handle(listingRoutes.update, async ({ principal, params, body, files }) => {
    const now = new Date();
    const viewer = await viewerOf(ctx.members, principal, now);
    const id = idParam(params.id);
    const doc = await ctx.listings.findOne({ _id: id, ...LIVE }).lean();
    if (!doc || !canSee(doc, viewer, now)) throw notFound(LISTING_MESSAGES.notFound);
    if (doc.ownerId !== principal.userId) throw forbidden(LISTING_MESSAGES.notOwner);
    const uploads = photosOf(files, false);
    const categories = categoryIndex(ctx.categories.current());
    checkFields(body, categories, viewer.premium, doc);
    const photos = uploads.length ? await processPhotos(uploads) : undefined;
    const updated = await updateListing(ctx, id, body, photos, (current) => {
      if (current.ownerId !== principal.userId) throw forbidden(LISTING_MESSAGES.notOwner);
      checkFields(body, categories, viewer.premium, current);
    }, now);
    if (!updated) throw notFound(LISTING_MESSAGES.notFound);
    return { message: LISTING_MESSAGES.updated, listing: await answerWith(ctx, viewer)(updated) };
  });

  api.handle(listingRoutes.delete, async ({ principal, params }) => {
    const now = new Date();
    const viewer = await viewerOf(ctx.members, principal, now);
    const id = idParam(params.id);
    const doc = await ctx.listings.findOne({ _id: id, ...LIVE }).lean();
    // An admin may delete any listing; anyone else learns only of listings they may see.
    if (!doc || (!viewer.admin && !canSee(doc, viewer, now))) throw notFound(LISTING_MESSAGES.notFound);
    if (doc.ownerId !== principal.userId && !viewer.admin) throw forbidden(LISTING_MESSAGES.notOwner);
    if (!(await deleteListing(ctx, id, { now }))) throw notFound(LISTING_MESSAGES.notFound);
    return { message: LISTING_MESSAGES.deleted };
  });
}

/** `GET /api/listing/:id`: registered last among the `/api/listing/…` routes (see listingHttp). */
export function listingByIdHttp(api: Api, ctx: ListingContext) {
  api.handle(listingRoutes.get, async ({ principal, params }) => {
    const now = new Date();
    const viewer = await viewerOf(ctx.members, principal, now);
    const doc = await ctx.listings.findOne({ _id: idParam(params.id), ...LIVE }).lean();
    if (!doc || !canSee(doc, viewer, now)) throw notFound(LISTING_MESSAGES.notFound);
    return answerWith(ctx, viewer)(doc);
  });
}
