import { eventRegistry, isPremiumAt, SAVED_SEARCH_MESSAGES, SAVED_SEARCHES_MAX, SAVED_SEARCHES_MAX_PREMIUM, type SavedSearchFilters } from '@ruilplein/contracts';
import { badRequest, createEvent, notFound, now as platformNow, outboxFields, type HandlerPart, type MemberProjection, type OutboxRelay } from '@ruilplein/service-kit';
import { Types } from 'mongoose';
import type { MemberField } from '../members/model.ts';
import type { SavedAlerts } from './alerts.ts';
import { inOrder, present, savedSearchCollection, type SavedSearchCollection, type SavedSearchesDoc, type StoredSearch } from './model.ts';

/** Concurrent changes of one member's searches: each write is conditional on the version it read; this many tries. */
const ATTEMPTS = 5;

export interface SavedContext {
  searches: SavedSearchCollection;
  members: MemberProjection<MemberField>;
  relay: Pick<OutboxRelay, 'kick'>;
  alerts: Pick<SavedAlerts, 'applyChanged'>;
}

export const savedContext = (db: Parameters<typeof savedSearchCollection>[0], rest: Omit<SavedContext, 'searches'>): SavedContext => ({ searches: savedSearchCollection(db), ...rest });

/** Our ids only: the id becomes part of a field path, so nothing else may reach the store. */
function knownId(id: string): string {
  if (!/^[0-9a-f]{24}$/.test(id)) throw notFound(SAVED_SEARCH_MESSAGES.notFound);
  return id;
}

/** Only the filters given (the store would keep an undefined as null), an empty text as none, categories once. */
function cleanFilters(f: SavedSearchFilters): SavedSearchFilters {
  const clean: SavedSearchFilters = {};
  if (f.q) clean.q = f.q;
  if (f.distanceKm !== undefined) clean.distanceKm = f.distanceKm;
  if (f.minValue !== undefined) clean.minValue = f.minValue;
  if (f.maxValue !== undefined) clean.maxValue = f.maxValue;
  if (f.listingType !== undefined) clean.listingType = f.listingType;
  if (f.premium !== undefined) clean.premium = f.premium;
  if (f.categoryIds?.length) clean.categoryIds = [...new Set(f.categoryIds)];
  return clean;
}

/** `listing.saved-search.changed` for the member's searches after a change. */
const changedEvent = (userId: string, version: number, searches: Record<string, StoredSearch>) =>
  createEvent(eventRegistry, 'listing.saved-search.changed', {
    userId,
    version,
    searches: inOrder(searches).map(([id, s]) => ({ id, name: s.name, alert: s.alert, createdAt: new Date(s.createdAt).toISOString(), filters: s.filters })),
  });

/**
 * Changes one member's searches: reads their document, lets `change` decide (or refuse), and writes
 * it back only if nobody changed it meanwhile, with the announcement in the same update.
 */
async function change(ctx: SavedContext, userId: string, decide: (doc: SavedSearchesDoc | null) => { searches: Record<string, StoredSearch>; update: Record<string, unknown>; unset?: Record<string, ''>; n: number }) {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const doc = await ctx.searches.findOne({ _id: userId }, { projection: { outbox: 0, outboxParked: 0 } });
    const next = decide(doc);
    const version = (doc?.version ?? 0) + 1;
    const event = changedEvent(userId, version, next.searches);
    let done: boolean;
    if (!doc) {
      const r = await ctx.searches.updateOne({ _id: userId }, { $setOnInsert: { searches: next.searches, n: next.n, version, ...outboxFields(event) } as never }, { upsert: true });
      done = r.upsertedCount === 1;
    } else {
      const r = await ctx.searches.updateOne(
        { _id: userId, version: doc.version },
        { $set: { ...next.update, n: next.n, version, ...outboxFields(event) } as never, ...(next.unset && { $unset: next.unset as never }) },
      );
      done = r.modifiedCount === 1;
    }
    if (done) {
      ctx.relay.kick(ctx.searches.collectionName, userId);
      ctx.alerts.applyChanged(event.payload);
      return;
    }
  }
  throw new Error('saved searches: too many concurrent changes');
}

/** Saved searches (issue 23): at most 10 per member, 50 with Premium; the acting member is the token's. */
export function savedSearchHandlers(ctx: SavedContext) {
  return {
    savedSearch: {
      create: async ({ principal, body }) => {
        const now = platformNow();
        const member = await ctx.members.byId(principal.userId);
        const premium = isPremiumAt(member, now);
        const limit = premium ? SAVED_SEARCHES_MAX_PREMIUM : SAVED_SEARCHES_MAX;
        const id = new Types.ObjectId().toHexString();
        const stored: StoredSearch = { name: body.name, filters: cleanFilters(body.filters), alert: body.alert, createdAt: now, lastVisitAt: now, newSinceVisit: 0 };
        await change(ctx, principal.userId, (doc) => {
          if ((doc?.n ?? 0) >= limit) throw badRequest(premium ? SAVED_SEARCH_MESSAGES.tooManyPremium : SAVED_SEARCH_MESSAGES.tooMany);
          return { searches: { ...doc?.searches, [id]: stored }, update: { [`searches.${id}`]: stored }, n: (doc?.n ?? 0) + 1 };
        });
        return present(id, stored);
      },
      list: async ({ principal }) => {
        const doc = await ctx.searches.findOne({ _id: principal.userId }, { projection: { searches: 1 } });
        return inOrder(doc?.searches).map(([id, s]) => present(id, s));
      },
      update: async ({ principal, params: { id: raw }, body }) => {
        const params = { id: knownId(raw) };
        let updated: StoredSearch | undefined;
        await change(ctx, principal.userId, (doc) => {
          const held = doc?.searches?.[params.id];
          if (!doc || !held) throw notFound(SAVED_SEARCH_MESSAGES.notFound);
          updated = { ...held, name: body.name, filters: cleanFilters(body.filters), alert: body.alert };
          return { searches: { ...doc.searches, [params.id]: updated }, update: { [`searches.${params.id}`]: updated }, n: doc.n };
        });
        return present(params.id, updated!);
      },
      delete: async ({ principal, params: { id: raw } }) => {
        const params = { id: knownId(raw) };
        await change(ctx, principal.userId, (doc) => {
          if (!doc?.searches?.[params.id]) throw notFound(SAVED_SEARCH_MESSAGES.notFound);
          const rest = { ...doc.searches };
          delete rest[params.id];
          return { searches: rest, update: {}, unset: { [`searches.${params.id}`]: '' }, n: Object.keys(rest).length };
        });
        return { message: SAVED_SEARCH_MESSAGES.deleted };
      },
      // Seen: the count starts again (no new version: the definition did not change).
      visit: async ({ principal, params: { id: raw } }) => {
        const params = { id: knownId(raw) };
        const now = platformNow();
        const seen = await ctx.searches.updateOne(
          { _id: principal.userId, [`searches.${params.id}`]: { $exists: true } },
          { $set: { [`searches.${params.id}.lastVisitAt`]: now, [`searches.${params.id}.newSinceVisit`]: 0 } },
        );
        if (seen.matchedCount === 0) throw notFound(SAVED_SEARCH_MESSAGES.notFound);
        const doc = await ctx.searches.findOne({ _id: principal.userId }, { projection: { searches: 1 } });
        const s = doc?.searches?.[params.id];
        if (!s) throw notFound(SAVED_SEARCH_MESSAGES.notFound);
        return present(params.id, s);
      },
    },
  } satisfies HandlerPart<'listing'>;
}
