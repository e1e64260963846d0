// Inputs for the routes where the generated ones are not enough: a resource with an owner, a call
// that needs real credentials, a call that ends the session. Keyed by `METHOD path`; a route not
// listed gets inputs made from its schemas (infra/checks/src/routes.ts dummyInput).
import { randomUUID } from 'node:crypto';
import { DEMO_LISTINGS, DEMO_PASSWORD, demoListingIdByTitle } from '@ruilplein/contracts/demo';
import { ACCOUNT_EMAILS, type Role, type SignedInRole } from '../src/platform.ts';
import type { Expectation } from '../src/matrix.ts';
import type { RequestInput } from '../src/routes.ts';

export interface Sample extends RequestInput {
  /** Tells the samples of one route apart in a failure. */
  name: string;
  /** Sends the cookies the caller's login set (the refresh token). */
  cookies?: boolean;
  /** Per role, where this sample's answer differs (always with `why`) from the route's access (e.g. another member's resource: 403). */
  expect?: Partial<Record<Role, Expectation>>;
  why?: string;
}

export interface FixtureContext {
  /** The caller of this round. */
  role: Role;
  /** Every signed-in role's account id. */
  ids: Record<SignedInRole, string>;
}

export interface Fixture {
  samples?: (ctx: FixtureContext) => Sample[];
  /** The call ends the caller's session (or rotates its cookie): called after every other route, then signed in again. */
  endsSession?: boolean;
  /** The fuzzing leaves it out of its admin pass: with ids it finds in answers it would delete real accounts. */
  destructive?: boolean;
}

/** An id no account has (a valid ObjectId). */
export const NOBODY = 'ffffffffffffffffffffffff';
/** An offer number no offer has (a valid one: at most 15 digits). */
const NO_OFFER = 999_999_999_999_999;

/** The member's own resource and another member's: a route with an owner lists both. */
const ownAndOthers = ({ ids }: FixtureContext): Sample[] => [
  { name: "member's id", params: { id: ids.member } },
  { name: "other member's id", params: { id: ids.other } },
];

/** A member's id and another member's as the `userId` of a route about a member. */
const ownAndOtherMembers = ({ ids }: FixtureContext): Sample[] => [
  { name: "member's id", params: { userId: ids.member } },
  { name: "other member's id", params: { userId: ids.other } },
];

/**
 * Listings local mode seeds for the demo members (packages/contracts/src/demo.ts; their ids
 * follow from the owner's id): the member's bike (public, days old), the admin's turntable
 * (premium-only) and tent (public).
 */
const memberBike = ({ ids }: FixtureContext) => demoListingIdByTitle(ids.member, 'Stadsfiets met drie versnellingen');
const adminTurntable = ({ ids }: FixtureContext) => demoListingIdByTitle(ids.admin, 'Platenspeler Technics SL-1200');
const adminTent = ({ ids }: FixtureContext) => demoListingIdByTitle(ids.admin, 'Tent voor vier personen');
const bike = DEMO_LISTINGS.find((l) => l.title === 'Stadsfiets met drie versnellingen')!;
/** The edit form (its field names) with the bike's own content. */
const bikeForm = { Title: bike.title, Description: bike.description, ListingType: bike.listingType, initialValue: String(bike.initialValue), CategoryIDs: bike.categoryIds };

export const FIXTURES: Record<string, Fixture> = {
  // A new address per call: the generated one is taken after the first call (409).
  'POST /api/auth/register': {
    samples: ({ role }) => [{ name: 'new member', body: { firstName: 'Nieuw', lastName: 'Lid', email: `${role}.${randomUUID().slice(0, 8)}@voorbeeld.nl`, password: DEMO_PASSWORD } }],
  },
  // Valid fields (a made-up city is a 400 from the handler), so the save itself runs.
  'PUT /api/user/update': { samples: ({ role }) => [{ name: 'names only', body: { firstName: 'Lid', lastName: role } }] },
  // Real credentials: a wrong password is a 401 by design, which would hide an access mistake.
  'POST /api/auth/login': { samples: () => [{ name: 'seeded member', body: { email: ACCOUNT_EMAILS.member, password: DEMO_PASSWORD } }] },
  // An address per call: three mails per address and hour, and the round has five callers.
  'POST /api/auth/resend-activation': { samples: ({ role }) => [{ name: 'new address', body: `${role}.${randomUUID().slice(0, 8)}@voorbeeld.nl` }] },
  'POST /api/auth/request-password-reset': { samples: ({ role }) => [{ name: 'new address', body: `${role}.${randomUUID().slice(0, 8)}@voorbeeld.nl` }] },
  'POST /api/auth/refresh': {
    endsSession: true,
    samples: () => [
      { name: 'with the login cookie', cookies: true, expect: { guest: 401 }, why: 'without a refresh cookie there is no session to renew: 401 by design' },
    ],
  },
  'POST /api/auth/logout': { endsSession: true },
  'GET /api/user/public/:id': { samples: ownAndOthers },
  'GET /api/user/public/stats/:id': { samples: ownAndOthers },
  'GET /api/user/:id/reliability': { samples: ownAndOthers },
  'GET /api/user/reliability': { samples: ({ ids }) => [{ name: "a page's owners", query: { ids: `${ids.member},${ids.other}` } }] },
  // Never a block between the matrix's members: their offers and chats later in the round would be
  // refused. The admin (a 400 by rule: admins cannot be blocked; oneself for the admin) and an
  // account nobody has (404) let every member through the access check.
  'POST /api/user/block/:userId': {
    samples: ({ ids }) => [
      { name: 'the admin', params: { userId: ids.admin } },
      { name: 'unknown id', params: { userId: NOBODY } },
    ],
  },
  // Unblocking a member one never blocked: a 204 that changes nothing.
  'DELETE /api/user/block/:userId': { samples: ({ role, ids }) => [{ name: 'another member, not blocked', params: { userId: role === 'other' ? ids.member : ids.other } }] },
  // Admin actions on an account nobody has: the matrix must not delete or change a real one.
  'DELETE /api/admin/delete/:id': { destructive: true, samples: () => [{ name: 'unknown id', params: { id: NOBODY } }] },
  'POST /api/user/activate/:id': { samples: () => [{ name: 'unknown id', params: { id: NOBODY } }] },
  'GET /api/listing/:id': {
    samples: (ctx) => [
      { name: "member's public listing", params: { id: memberBike(ctx) } },
      { name: 'premium-only listing', params: { id: adminTurntable(ctx) } },
    ],
  },
  // userId names the caller (a declared caller field): the base call names the caller, the matrix adds another member's.
  'GET /api/listing/recommendations': { samples: ({ role, ids }) => [{ name: 'own id', query: { userId: ids[role === 'guest' ? 'member' : role] } }] },
  // The landing page's newest public listings (issue 27): no input, the same answer for every role.
  'GET /api/listing/recent': { samples: () => [{ name: "the landing page's list" }] },
  // The search box's completions (issue 23): a word being typed.
  'GET /api/listing/suggest': { samples: () => [{ name: 'a word being typed', query: { q: 'fie' } }] },
  'GET /api/listing/user/:userId': { samples: ownAndOtherMembers },
  'GET /api/listing/inventory/:userId': { samples: ownAndOtherMembers },
  // Valid fields without photos (the photos stay), the listing's own content: only its owner may save.
  'POST /api/listing/update/:id': {
    samples: (ctx) => [
      {
        name: "member's listing",
        params: { id: memberBike(ctx) },
        body: bikeForm,
        expect: { other: 403, premium: 403, admin: 403 },
        why: "someone else's listing: only its owner edits it (an admin may delete it, not edit it)",
      },
    ],
  },
  // The admin's own listing, deleted by the admin last (ROLES order): everyone before is refused.
  'DELETE /api/listing/delete/:id': {
    samples: (ctx) => [
      { name: "admin's listing", params: { id: adminTent(ctx) }, expect: { member: 403, other: 403, premium: 403 }, why: "someone else's listing: only its owner or an admin deletes it" },
    ],
  },
  // The member's own listing is a 400 for the member (not one's own), an add for the others.
  'POST /api/wishlist/add/:id': { samples: (ctx) => [{ name: "member's listing", params: { id: memberBike(ctx) } }] },
  // Saved searches: a valid one per caller (at most 10 each; later ones are a 400 that still lets the caller through),
  // and a well-formed id nobody's search has: 404 for every member, as another member's search is.
  'POST /api/search/saved': { samples: () => [{ name: 'bikes, no mail', body: { name: 'Controle', filters: { categoryIds: ['fietsen'], distanceKm: 10 }, alert: 'off' } }] },
  'PUT /api/search/saved/:id': { samples: () => [{ name: 'unknown search', params: { id: NOBODY }, body: { name: 'Controle', alert: 'off' } }] },
  'DELETE /api/search/saved/:id': { samples: () => [{ name: 'unknown search', params: { id: NOBODY } }] },
  'POST /api/search/saved/:id/visit': { samples: () => [{ name: 'unknown search', params: { id: NOBODY } }] },
  'GET /api/listing/demand': { samples: () => [{ name: 'bikes nearby', query: { categoryIds: 'fietsen', q: 'fiets' } }] },
  // userId names the caller (a declared caller field): the base call names the caller, the matrix adds another member's.
  'GET /api/tradeoffer/count': { samples: ({ role, ids }) => [{ name: 'own id', query: { userId: ids[role === 'guest' ? 'member' : role] } }] },
  // An offer on the member's bike with the caller's crate: only the bike's owner is refused
  // (not on one's own listing, 400), the others make a real offer, two at most each (the daily limit).
  'POST /api/tradeoffer/create': {
    samples: (ctx) => [
      {
        name: "on the member's bike",
        body: { receiverID: ctx.ids.member, listingOfferedOnID: memberBike(ctx), items: [{ listingID: memberBike(ctx), userID: ctx.ids.member }, { listingID: 'krat-bier', userID: ctx.ids[ctx.role === 'guest' ? 'other' : ctx.role] }] },
      },
    ],
  },
  // The offers the create samples made just before (routes run in declared order, roles in ROLES
  // order): #1 and #2 by the other member on the member's bike. Only their two parties answer
  // them; admins may read them (moderation), not answer them.
  'PUT /api/tradeoffer/respond/:id': {
    samples: () => [
      {
        name: "the other member's offer #2 to the member, rejected",
        params: { id: '2' },
        query: { status: 'Rejected' },
        expect: { premium: 403, admin: 403 },
        why: 'an offer is answered by its two parties only (the receiver rejects, the sender gets 409)',
      },
    ],
  },
  // A counter on an offer nobody made: 404 for every member (the route let them through); real counters are the trade tests'.
  'POST /api/tradeoffer/:id/counter': { samples: () => [{ name: 'an offer nobody made', params: { id: '999999' }, body: { items: [] } }] },
  'POST /api/tradeoffer/confirm/:id': {
    samples: () => [
      { name: "the other member's pending offer #1", params: { id: '1' }, expect: { premium: 403, admin: 403 }, why: 'only the two parties confirm (a pending offer: 409 for them)' },
    ],
  },
  'GET /api/tradeoffer/:id': {
    samples: () => [{ name: "the other member's offer #1 to the member", params: { id: '1' }, expect: { premium: 403 }, why: 'an offer is for its two parties and admins' }],
  },
  // Reviewing oneself is a 400 (the route let the caller through); reviewing a member one never
  // traded with is refused by the rule of reviews.
  // Someone else, with a reason: a repeat is a 409 (one open report per pair), which still lets the caller through.
  'POST /api/report/create': { samples: ({ role, ids }) => [{ name: 'another member', body: { reportedID: role === 'other' ? ids.member : ids.other, reason: 'Controle van de toegang' } }] },
  // On an account nobody has: warnings add up to a suspension, and a suspended member would fail every later check.
  'POST /api/warning/create': { destructive: true, samples: () => [{ name: 'unknown member', body: { userID: NOBODY, message: 'Controle van de toegang' } }] },
  'POST /api/ban/create': { destructive: true, samples: () => [{ name: 'unknown member', body: { userID: NOBODY, reason: 'Controle van de toegang' } }] },
  // Issue 27: the admin list's suspensions of the matrix's members (none suspended: an empty list), and a
  // lift for an account nobody has (404): the matrix lifts nobody's real suspension.
  'GET /api/ban/suspensions': { samples: ({ ids }) => [{ name: 'two members', query: { ids: `${ids.member},${ids.other}` } }] },
  'POST /api/ban/:userId/lift': { samples: () => [{ name: 'unknown member', params: { userId: NOBODY } }] },
  // A well-formed id nobody paid with: 404 for everyone, as the route is public.
  'GET /api/payment/status': { samples: () => [{ name: 'unknown payment', query: { id: 'tr_onbekend12345' } }] },
  'GET /api/payment/checkout/:id': { samples: () => [{ name: 'unknown payment', params: { id: 'tr_onbekend12345' } }] },
  'POST /api/payment/checkout/:id': { samples: () => [{ name: 'unknown payment', params: { id: 'tr_onbekend12345' }, body: { outcome: 'paid' } }] },
  // Another member's notification id (well-formed): as unknown as one that never was, 404 for everyone.
  'POST /api/notification/:id/read': { samples: ({ ids }) => [{ name: "another member's notification", params: { id: `${ids.other}:000000000:o1v1` } }] },
  // Every kind to digest, the same for each caller (a second round changes nothing).
  'PUT /api/notification/preferences': { samples: () => [{ name: 'one kind', body: { 'offer-rejected': 'digest' } }] },
  // A token not signed by the service: 400 for everyone, as the routes are public (no login: the token says who).
  'GET /api/notification/unsubscribe': { samples: () => [{ name: 'unsigned token', query: { token: 'bm90LW91cnM.bm90LXNpZ25lZA' } }] },
  'POST /api/notification/unsubscribe': { samples: () => [{ name: 'unsigned token', query: { token: 'bm90LW91cnM.bm90LXNpZ25lZA' } }] },
  'POST /api/review/add': {
    samples: ({ role, ids }) => [
      { name: 'oneself', body: { revieweeID: ids[role === 'guest' ? 'member' : role], rating: 4 } },
      {
        name: 'a member without a completed trade',
        body: { revieweeID: role === 'other' ? ids.member : ids.other, rating: 4 },
        expect: { member: 403, other: 403, premium: 403, admin: 403 },
        why: 'only the two parties of a completed trade review each other: 403 by design',
      },
    ],
  },
  'GET /api/review/has-reviewed/:userId': { samples: ownAndOtherMembers },
  'GET /api/review/user/:id': { samples: ownAndOthers },
  // Offer numbers are allocated as the matrix makes offers, so the generated `1` may be anyone's
  // (403 for everyone else, by design). An offer nobody has instead: every member is let through
  // the route's access (404); the two-parties rule is tested in services/chat/test.
  'GET /api/chat/:offerId': { samples: () => [{ name: 'unknown offer', params: { offerId: String(NO_OFFER) } }] },
  'POST /api/chat/send': { samples: () => [{ name: 'unknown offer', body: { tradeOfferId: NO_OFFER, content: 'Hallo' } }] },
  // Issue 24: the caller's own chains (none among the demo's wishes: an empty list for every member).
  'GET /api/chain/suggestions': { samples: () => [{ name: "the caller's chains" }] },
  // A well-formed chain id nobody's wishes make: 404 for every member (the route let them through),
  // and no proposal reaches trade; real proposals are services/chain's tests.
  'POST /api/chain/:id/propose': { samples: () => [{ name: 'a chain nobody has', params: { id: 'ab'.repeat(12) } }] },
};
