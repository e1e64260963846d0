// What must hold after the kills, checked once the outbox relays have drained. Chaos is an
// operator's tool in infra/, not a service: it reads every service's database directly (one per
// service, named after it), as an operator's query would, and the search index through the API as a
// member sees it. The shapes it reads are declared here, only the fields it needs.
import { SEARCH_MAX_DISTANCE_KM, SEARCH_MAX_TAKE } from '@ruilplein/contracts';
import type { AcceptedChat, RunMember } from '@ruilplein/load';
import type { Db, Document, MongoClient } from 'mongodb';

export interface InvariantResult {
  name: string;
  held: boolean;
  /** What was compared, or what is wrong (a few examples). */
  detail: string;
}

/** What a check reads: the store, the platform's origin, and what the load run did. */
export interface CheckInput {
  mongo: MongoClient;
  /** The databases of the platform's services (their names). */
  databases: readonly string[];
  url: string;
  members: readonly RunMember[];
  acceptedChats: readonly AcceptedChat[];
  /** Signs in as a run member; its bearer token. */
  signIn(member: RunMember): Promise<string>;
}

const EXAMPLES = 3;
const examples = (problems: readonly string[]) => `${problems.slice(0, EXAMPLES).join('; ')}${problems.length > EXAMPLES ? `; … ${problems.length - EXAMPLES} more` : ''}`;
const id = (value: unknown) => String(value).toLowerCase();

async function hasCollection(db: Db, name: string): Promise<boolean> {
  return (await db.listCollections({ name }, { nameOnly: true }).toArray()).length > 0;
}

// ─── Chat: no message the sender saw accepted is lost.

export function missingChats(accepted: readonly AcceptedChat[], stored: readonly { offerId: number; senderId: string; content: string }[]): AcceptedChat[] {
  const key = (m: { offerId: number; senderId: string; content: string }) => `${m.offerId}\n${id(m.senderId)}\n${m.content}`;
  const have = new Set(stored.map(key));
  return accepted.filter((m) => !have.has(key(m)));
}

async function chatKept(input: CheckInput): Promise<InvariantResult> {
  const offers = [...new Set(input.acceptedChats.map((m) => m.offerId))];
  const stored = await input.mongo
    .db('chat')
    .collection('messages')
    .find({ offerId: { $in: offers } }, { projection: { offerId: 1, senderId: 1, content: 1 } })
    .toArray();
  const missing = missingChats(input.acceptedChats, stored as unknown as { offerId: number; senderId: string; content: string }[]);
  return {
    name: 'chat: every accepted message is in the history',
    held: missing.length === 0,
    detail: missing.length
      ? `${missing.length} of ${input.acceptedChats.length} lost: ${examples(missing.map((m) => `offer ${m.offerId} "${m.content}"`))}`
      : `${input.acceptedChats.length} accepted messages in ${offers.length} chats, all stored`,
  };
}

// ─── Outbox: every entry published or parked with a reason.

export interface OutboxState {
  /** `db.collection` → documents with entries still to publish (events or mails). */
  pending: Map<string, number>;
  parked: number;
  /** Parked entries without a reason. */
  unexplained: string[];
}

const PENDING_FILTER = { $or: [{ outboxPending: true }, { mailOutboxPending: true }, { outbox: { $exists: true, $ne: {} } }, { mailOutbox: { $exists: true, $ne: {} } }] };
const PARKED_FILTER = { $or: [{ outboxParkedAt: { $exists: true } }, { mailOutboxParkedAt: { $exists: true } }] };

/** Parked entries of a document without a reason (an empty or missing `reason`). */
export function unexplainedParked(doc: Document): string[] {
  const out: string[] = [];
  for (const field of ['outboxParked', 'mailOutboxParked']) {
    for (const [entry, parked] of Object.entries((doc[field] ?? {}) as Record<string, { reason?: unknown }>)) {
      if (typeof parked?.reason !== 'string' || !parked.reason.trim()) out.push(`${String(doc._id)} ${field}.${entry}`);
    }
  }
  return out;
}

export async function outboxState(mongo: MongoClient, databases: readonly string[]): Promise<OutboxState> {
  const state: OutboxState = { pending: new Map(), parked: 0, unexplained: [] };
  for (const name of databases) {
    const db = mongo.db(name);
    for (const { name: coll } of await db.listCollections({}, { nameOnly: true }).toArray()) {
      if (coll.startsWith('system.') || coll.includes('.files') || coll.includes('.chunks')) continue;
      const c = db.collection(coll);
      const pending = await c.countDocuments(PENDING_FILTER);
      if (pending) state.pending.set(`${name}.${coll}`, pending);
      for (const doc of await c.find(PARKED_FILTER, { projection: { outboxParked: 1, mailOutboxParked: 1 } }).toArray()) {
        state.parked += Object.keys(doc.outboxParked ?? {}).length + Object.keys(doc.mailOutboxParked ?? {}).length;
        state.unexplained.push(...unexplainedParked(doc).map((e) => `${name}.${coll} ${e}`));
      }
    }
  }
  return state;
}

export function outboxResult(state: OutboxState, drainedSeconds: number | undefined): InvariantResult {
  const pending = [...state.pending].map(([where, n]) => `${where}: ${n}`);
  return {
    name: 'outbox: every entry published or parked with a reason',
    held: pending.length === 0 && state.unexplained.length === 0,
    detail: pending.length
      ? `still pending after the relays were given time: ${examples(pending)}`
      : state.unexplained.length
        ? `parked without a reason: ${examples(state.unexplained)}`
        : `nothing pending${drainedSeconds === undefined ? '' : ` (drained ${drainedSeconds.toFixed(0)} s after the load)`}, ${state.parked} parked, each with its reason`,
  };
}

// ─── Member projections: each service's copy of auth's members at auth's version.

/** Members whose projection is missing or at another version than the source's. */
export function projectionGaps(source: ReadonlyMap<string, number>, projection: ReadonlyMap<string, number>): string[] {
  const gaps: string[] = [];
  for (const [member, version] of source) {
    const projected = projection.get(member);
    if (projected !== version) gaps.push(`${member} ${projected === undefined ? 'missing' : `v${projected}`} (auth v${version})`);
  }
  return gaps;
}

async function memberProjections(input: CheckInput): Promise<InvariantResult> {
  const users = await input.mongo.db('auth').collection('users').find({ version: { $exists: true } }, { projection: { version: 1 } }).toArray();
  const source = new Map(users.map((u) => [id(u._id), Number(u.version)]));
  const problems: string[] = [];
  const checked: string[] = [];
  for (const name of input.databases.filter((d) => d !== 'auth')) {
    const db = input.mongo.db(name);
    if (!(await hasCollection(db, 'members'))) continue;
    checked.push(name);
    const docs = await db.collection('members').find({}, { projection: { version: 1 } }).toArray();
    const gaps = projectionGaps(source, new Map(docs.map((d) => [id(d._id), Number(d.version)])));
    if (gaps.length) problems.push(`${name}: ${gaps.length} (${examples(gaps)})`);
  }
  return {
    name: 'members: every service\'s projection at auth\'s version',
    held: problems.length === 0,
    detail: problems.length ? problems.join(' | ') : `${source.size} members in ${checked.join(', ')}`,
  };
}

// ─── Trades: statistics, listing counts, possible states, chat's copy.

interface OfferRow {
  _id: number;
  version: number;
  senderId: string;
  receiverId: string;
  listingId: string;
  items?: Array<{ listingID: string; isDefault?: boolean }>;
  status: string;
  senderConfirmed: boolean;
  receiverConfirmed: boolean;
  /** A swap chain's members (issue 24). */
  participants?: Array<{ userId: string; gives?: string[]; confirmed?: boolean }>;
}

const membersOf = (o: OfferRow) => (o.participants?.length ? o.participants.map((p) => id(p.userId)) : [id(o.senderId), id(o.receiverId)]);
const listingsOf = (o: OfferRow) => new Set([o.listingId, ...(o.items ?? []).filter((i) => !i.isDefault).map((i) => i.listingID), ...(o.participants ?? []).flatMap((p) => p.gives ?? [])]);

/** Offers in a state no sequence of answers can reach, and listings traded more than once. */
export function impossibleOffers(offers: readonly OfferRow[]): string[] {
  const problems: string[] = [];
  const tradedIn = new Map<string, number[]>();
  for (const o of offers) {
    const allConfirmed = o.participants?.length ? o.participants.every((p) => p.confirmed) : o.senderConfirmed && o.receiverConfirmed;
    const anyConfirmed = o.participants?.length ? o.participants.some((p) => p.confirmed) : o.senderConfirmed || o.receiverConfirmed;
    if (o.status === 'Completed' && !allConfirmed) problems.push(`offer ${o._id} Completed without every confirmation`);
    if (o.status === 'Pending' && anyConfirmed) problems.push(`offer ${o._id} Pending with a confirmation`);
    if (!['Pending', 'Accepted', 'Rejected', 'Cancelled', 'Completed'].includes(o.status)) problems.push(`offer ${o._id} in status ${o.status}`);
    if (o.status === 'Completed') for (const l of listingsOf(o)) tradedIn.set(l, [...(tradedIn.get(l) ?? []), o._id]);
  }
  for (const [listing, ids] of tradedIn) if (ids.length > 1) problems.push(`listing ${listing} traded ${ids.length} times (offers ${ids.join(', ')})`);
  return problems;
}

export interface Totals {
  totalTrades: number;
  ratingSum: number;
  totalReviewers: number;
}

/** Each member's trades and reviews as recounted from the offers and the reviews. */
export function recountTotals(members: readonly string[], completed: readonly OfferRow[], reviews: readonly { revieweeId: string; rating: number }[]): Map<string, Totals> {
  const totals = new Map(members.map((m) => [m, { totalTrades: 0, ratingSum: 0, totalReviewers: 0 }]));
  for (const o of completed) for (const m of membersOf(o)) if (totals.has(m)) totals.get(m)!.totalTrades++;
  for (const r of reviews) {
    const t = totals.get(id(r.revieweeId));
    if (!t) continue;
    t.ratingSum += r.rating;
    t.totalReviewers++;
  }
  return totals;
}

export function totalsGaps(expected: ReadonlyMap<string, Totals>, actual: ReadonlyMap<string, Partial<Totals>>, where: string): string[] {
  const gaps: string[] = [];
  for (const [member, want] of expected) {
    const have = actual.get(member) ?? {};
    const got = { totalTrades: have.totalTrades ?? 0, ratingSum: have.ratingSum ?? 0, totalReviewers: have.totalReviewers ?? 0 };
    if (got.totalTrades !== want.totalTrades || Math.abs(got.ratingSum - want.ratingSum) > 1e-9 || got.totalReviewers !== want.totalReviewers) {
      gaps.push(`${where} ${member}: ${got.totalTrades} trades, ${got.totalReviewers} reviews (${got.ratingSum}) against ${want.totalTrades}, ${want.totalReviewers} (${want.ratingSum})`);
    }
  }
  return gaps;
}

async function runOffers(input: CheckInput): Promise<OfferRow[]> {
  const ids = input.members.map((m) => m.id);
  const variants = [...new Set([...ids, ...ids.map(id)])];
  return (await input.mongo
    .db('trade')
    .collection('offers')
    .find({ $or: [{ senderId: { $in: variants } }, { receiverId: { $in: variants } }] })
    .toArray()) as unknown as OfferRow[];
}

async function tradeStats(input: CheckInput, offers: readonly OfferRow[]): Promise<InvariantResult> {
  const members = input.members.map((m) => id(m.id));
  const reviews = (await input.mongo.db('trade').collection('reviews').find({}, { projection: { revieweeId: 1, rating: 1 } }).toArray()) as unknown as { revieweeId: string; rating: number }[];
  const expected = recountTotals(members, offers.filter((o) => o.status === 'Completed'), reviews);
  const byId = async (db: string, coll: string) =>
    new Map((await input.mongo.db(db).collection(coll).find({ _id: { $in: members } } as Document).toArray()).map((d) => [id(d._id), d as Partial<Totals>]));
  const gaps = [...totalsGaps(expected, await byId('trade', 'trade_parties'), 'trade'), ...totalsGaps(expected, await byId('auth', 'user_stats'), 'auth')];
  const trades = [...expected.values()].reduce((n, t) => n + t.totalTrades, 0) / 2;
  return {
    name: 'trade stats: trade\'s and auth\'s totals equal a recount of offers and reviews',
    held: gaps.length === 0,
    detail: gaps.length ? examples(gaps) : `${members.length} members, ${trades} completed trades, ${[...expected.values()].reduce((n, t) => n + t.totalReviewers, 0)} reviews`,
  };
}

async function listingCounts(input: CheckInput): Promise<InvariantResult> {
  const members = input.members.map((m) => id(m.id));
  const listing = input.mongo.db('listing');
  const active = new Map<string, Set<string>>(members.map((m) => [m, new Set()]));
  for (const l of await listing.collection('listings').find({ ownerId: { $in: members }, active: true, deletedAt: { $exists: false } }, { projection: { ownerId: 1 } }).toArray()) {
    active.get(id(l.ownerId))?.add(String(l._id));
  }
  const owners = new Map((await listing.collection('listing_owners').find({ _id: { $in: members } } as Document).toArray()).map((d) => [id(d._id), Object.keys((d.active ?? {}) as object)]));
  const stats = new Map((await input.mongo.db('auth').collection('user_stats').find({ _id: { $in: members } } as Document).toArray()).map((d) => [id(d._id), Number(d.activeListings ?? 0)]));
  const problems: string[] = [];
  for (const m of members) {
    const counted = owners.get(m) ?? [];
    const missing = [...active.get(m)!].filter((l) => !counted.includes(l));
    if (missing.length) problems.push(`listing's counter of ${m} lacks active listing ${missing[0]}`);
    if ((stats.get(m) ?? 0) !== counted.length) problems.push(`auth counts ${stats.get(m) ?? 0} active listings of ${m}, listing's counter ${counted.length}`);
  }
  const total = [...active.values()].reduce((n, s) => n + s.size, 0);
  return {
    name: 'listing counts: auth\'s active listings equal listing\'s counter, which holds every active listing',
    held: problems.length === 0,
    detail: problems.length ? examples(problems) : `${total} active listings of ${members.length} members`,
  };
}

async function offerStates(input: CheckInput, offers: readonly OfferRow[]): Promise<InvariantResult> {
  const problems = impossibleOffers(offers);
  // A traded listing is no longer listed (listing learns of the trade from trade's events).
  const traded = [...new Set(offers.filter((o) => o.status === 'Completed').flatMap((o) => [...listingsOf(o)]))];
  const stillActive = await input.mongo.db('listing').collection('listings').find({ _id: { $in: traded }, active: true } as Document, { projection: { _id: 1 } }).toArray();
  for (const l of stillActive) problems.push(`listing ${String(l._id)} traded but still active`);
  const counts = new Map<string, number>();
  for (const o of offers) counts.set(o.status, (counts.get(o.status) ?? 0) + 1);
  return {
    name: 'offers: none in an impossible state, no listing traded twice or still listed',
    held: problems.length === 0,
    detail: problems.length ? examples(problems) : `${offers.length} offers (${[...counts].map(([s, n]) => `${n} ${s}`).join(', ')})`,
  };
}

async function chatOffers(input: CheckInput, offers: readonly OfferRow[]): Promise<InvariantResult> {
  const conversations = await input.mongo
    .db('chat')
    .collection('conversations')
    .find({ _id: { $in: offers.map((o) => String(o._id)) } } as Document, { projection: { status: 1, version: 1 } })
    .toArray();
  const byOffer = new Map(conversations.map((c) => [String(c._id), c]));
  const problems: string[] = [];
  for (const o of offers) {
    const c = byOffer.get(String(o._id));
    if (!c) problems.push(`offer ${o._id}: no conversation`);
    else if (c.status !== o.status || Number(c.version) !== o.version) problems.push(`offer ${o._id}: chat has ${String(c.status)} v${String(c.version)}, trade ${o.status} v${o.version}`);
  }
  return {
    name: 'chat\'s offers: each conversation at its offer\'s status and version',
    held: problems.length === 0,
    detail: problems.length ? examples(problems) : `${offers.length} conversations`,
  };
}

// ─── Search: the index against the store.

export function indexGaps(store: ReadonlySet<string>, indexed: ReadonlySet<string>): string[] {
  return [...[...store].filter((l) => !indexed.has(l)).map((l) => `${l} listed but not found`), ...[...indexed].filter((l) => !store.has(l)).map((l) => `${l} found but not listed`)];
}

async function searchIndex(input: CheckInput): Promise<InvariantResult> {
  const name = 'search: the index finds exactly the active listings of the store';
  // A Premium member sees every listing of the run (each is in its Premium head start).
  const viewer = input.members.find((m) => m.premium);
  if (!viewer) return { name, held: false, detail: 'no Premium member to search as' };
  const token = await input.signIn(viewer);
  const members = new Set(input.members.map((m) => id(m.id)));
  members.delete(id(viewer.id));
  const indexed = new Set<string>();
  // Every page as far as search reaches: the run's members live in three towns within it.
  for (let page = 1; page <= 1000; page++) {
    const query = new URLSearchParams({ distanceKm: String(SEARCH_MAX_DISTANCE_KM), take: String(SEARCH_MAX_TAKE), page: String(page) });
    const res = await fetch(new URL(`/api/listing?${query}`, input.url), { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    if (res.status !== 200) return { name, held: false, detail: `search answered ${res.status} on page ${page}` };
    const cards = (await res.json()) as Array<{ id: string; user: { id: string } }>;
    for (const c of cards) if (members.has(id(c.user.id))) indexed.add(c.id);
    if (cards.length < SEARCH_MAX_TAKE) break;
  }
  const listed = await input.mongo
    .db('listing')
    .collection('listings')
    .find({ ownerId: { $in: [...members] }, active: true, deletedAt: { $exists: false } }, { projection: { _id: 1 } })
    .toArray();
  const store = new Set(listed.map((l) => String(l._id)));
  const gaps = indexGaps(store, indexed);
  return { name, held: gaps.length === 0, detail: gaps.length ? examples(gaps) : `${store.size} active listings of the run's members, each found, nothing else` };
}

// ─── Notifications: none twice.

/** Notification ids are `<member>:<time>:<source>`: one event makes one source per member. */
export function duplicateNotifications(ids: readonly string[]): string[] {
  const seen = new Map<string, number>();
  for (const n of ids) {
    const [member, , ...source] = n.split(':');
    const key = `${member}:${source.join(':')}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1).map(([key, n]) => `${key} ${n} times`);
}

async function notificationsOnce(input: CheckInput): Promise<InvariantResult> {
  const members = input.members.map((m) => id(m.id));
  const db = input.mongo.db('notification');
  const docs = await db.collection('notifications').find({ userId: { $in: members } }, { projection: { _id: 1 } }).toArray();
  const problems = duplicateNotifications(docs.map((d) => String(d._id)));
  for (const inbox of await db.collection('inboxes').find({ _id: { $in: members } } as Document, { projection: { ids: 1, unread: 1 } }).toArray()) {
    for (const field of ['ids', 'unread'] as const) {
      const list = (inbox[field] ?? []) as string[];
      if (new Set(list).size !== list.length) problems.push(`inbox ${String(inbox._id)}: an id twice in ${field}`);
    }
  }
  return {
    name: 'notifications: no event twice for one member',
    held: problems.length === 0,
    detail: problems.length ? examples(problems) : `${docs.length} notifications of ${members.length} members`,
  };
}

/** Every invariant but the outbox's, once. */
export async function checkInvariants(input: CheckInput): Promise<InvariantResult[]> {
  const offers = await runOffers(input);
  const checks: Array<[string, () => Promise<InvariantResult>]> = [
    ['chat', () => chatKept(input)],
    ['members', () => memberProjections(input)],
    ['trade stats', () => tradeStats(input, offers)],
    ['listing counts', () => listingCounts(input)],
    ['search', () => searchIndex(input)],
    ['offers', () => offerStates(input, offers)],
    ['chat offers', () => chatOffers(input, offers)],
    ['notifications', () => notificationsOnce(input)],
  ];
  const results: InvariantResult[] = [];
  for (const [label, check] of checks) {
    results.push(await check().catch((err: unknown) => ({ name: label, held: false, detail: `the check failed: ${(err as Error).message}` })));
  }
  return results;
}
