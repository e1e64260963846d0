import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventRegistry, MODERATION_MESSAGES } from '@ruilplein/contracts';
import { createEvent, publishEvent } from '@ruilplein/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@ruilplein/service-kit/testing';
import { moderationCollections, type ModerationContext } from '../src/context.ts';
import { startOfDutchDay } from '../src/sanctions/routes.ts';
import { endExpiredSuspensions } from '../src/sanctions/sweep.ts';
import { send, startModeration, waitFor, type ModerationHarness, type TestMember } from './helpers.ts';

let h: ModerationHarness;
let admin: TestMember;
let clockDir: string;

beforeAll(async () => {
  clockDir = await mkdtemp(join(tmpdir(), 'ruilplein-clock-'));
  process.env.RUILPLEIN_CLOCK_FILE = join(clockDir, 'offset');
  h = await startModeration();
  admin = await h.admin();
});
afterAll(async () => {
  delete process.env.RUILPLEIN_CLOCK_FILE;
  await h.close();
  await rm(clockDir, { recursive: true, force: true });
});

const report = (who: TestMember, json: object) => send(h.url, '/api/report/create', { method: 'POST', token: who.token, json });
const warnRoute = (json: object, token = admin.token) => send(h.url, '/api/warning/create', { method: 'POST', token, json });
const banRoute = (json: object, token = admin.token) => send(h.url, '/api/ban/create', { method: 'POST', token, json });
const eventsFor = (userId: string, type?: string) => h.events.filter((e) => (e.payload as { userId?: string }).userId === userId && (!type || e.type === type));

describe('POST /api/report/create', () => {
  it('makes a report by the caller about another member, with names and the listing', async () => {
    const [anna, bert] = [await h.member({ firstName: 'Anna' }), await h.member({ firstName: 'Bert', lastName: 'Bos' })];
    const listing = await bert.listing();
    const res = await report(anna, { reporterID: anna.id, reportedID: bert.id, reportedListingID: listing, reason: '  Nep-advertentie  ' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ reason: 'Nep-advertentie', status: 'Nieuw', reporter: { id: anna.id, firstName: 'Anna' }, reported: { id: bert.id, firstName: 'Bert', lastName: 'Bos' }, reportedListingID: listing });
  });

  it('refuses a guest, another reporter, a bad reason, an unknown member or listing, and oneself', async () => {
    const [anna, bert, carl] = [await h.member(), await h.member(), await h.member()];
    expect((await send(h.url, '/api/report/create', { method: 'POST', json: { reportedID: bert.id, reason: 'x' } })).status).toBe(401);
    expect((await report(anna, { reporterID: carl.id, reportedID: bert.id, reason: 'x' })).status).toBe(403);
    for (const reason of [undefined, '', '   ']) {
      expect(await report(anna, { reportedID: bert.id, reason })).toMatchObject({ status: 400, body: { message: expect.any(String) } });
    }
    expect((await report(anna, { reportedID: bert.id, reason: 'x'.repeat(1001) })).body.message).toBe(MODERATION_MESSAGES.reasonTooLong);
    expect(await report(anna, { reportedID: 'abc', reason: 'x' })).toMatchObject({ status: 400 });
    expect(await report(anna, { reportedID: '0123456789abcdef01234567', reason: 'x' })).toMatchObject({ status: 404, body: { message: MODERATION_MESSAGES.memberNotFound } });
    expect(await report(anna, { reportedID: anna.id, reason: 'x' })).toMatchObject({ status: 400, body: { message: MODERATION_MESSAGES.notYourself } });
    expect(await report(anna, { reportedID: bert.id, reportedListingID: '0123456789abcdef01234567', reason: 'x' })).toMatchObject({ status: 404, body: { message: MODERATION_MESSAGES.listingNotFound } });
    // Nothing was stored by any of these.
    expect(await moderationCollections(h.db).reports.countDocuments({ reporterId: anna.id })).toBe(0);
  });

  // Probe finding 4: a report named a listing of someone other than the member reported.
  it('refuses a listing that is not the reported member’s (400), storing nothing', async () => {
    const [anna, bert, carl] = [await h.member(), await h.member(), await h.member()];
    for (const listing of [await carl.listing(), await anna.listing()]) {
      expect(await report(anna, { reportedID: bert.id, reportedListingID: listing, reason: 'Nep-advertentie' })).toMatchObject({
        status: 400,
        body: { message: MODERATION_MESSAGES.listingNotOfReported },
      });
    }
    expect(await moderationCollections(h.db).reports.countDocuments({ reporterId: anna.id })).toBe(0);
    expect((await report(anna, { reportedID: bert.id, reportedListingID: await bert.listing(), reason: 'Nep-advertentie' })).status).toBe(201);
  });

  it('keeps one open report per reporter and reported member, also when two arrive at once', async () => {
    const [anna, bert] = [await h.member(), await h.member()];
    const both = await Promise.all([report(anna, { reportedID: bert.id, reason: 'Eén' }), report(anna, { reportedID: bert.id, reason: 'Twee' })]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(both.find((r) => r.status === 409)!.body.message).toBe(MODERATION_MESSAGES.alreadyReported);
    expect(await moderationCollections(h.db).reports.countDocuments({ reporterId: anna.id })).toBe(1);
    // Once handled, the same member may be reported again.
    const open = both.find((r) => r.status === 201)!.body;
    expect((await send(h.url, `/api/report/${open.id}/status`, { method: 'PUT', token: admin.token, json: 'Afgehandeld' })).status).toBe(200);
    expect((await report(anna, { reportedID: bert.id, reason: 'Weer' })).status).toBe(201);
  });
});

describe('GET /api/report/all and PUT /api/report/{id}/status', () => {
  it('lists for admins only, newest first, filtered, paged; sets only the spec statuses', async () => {
    const [anna, bert] = [await h.member({ firstName: 'Anna' }), await h.member({ firstName: 'Bert' })];
    const made = await report(anna, { reportedID: bert.id, reason: 'Oplichting' });
    expect((await send(h.url, '/api/report/all', { token: anna.token })).status).toBe(403);
    expect((await send(h.url, '/api/report/all')).status).toBe(401);
    const all = await send(h.url, '/api/report/all?skip=0&take=50', { token: admin.token });
    expect(all.status).toBe(200);
    expect(all.body[0]).toMatchObject({ id: made.body.id, reporter: { firstName: 'Anna' }, reported: { firstName: 'Bert' } });
    expect((await send(h.url, '/api/report/all?take=1', { token: admin.token })).body).toHaveLength(1);
    expect((await send(h.url, '/api/report/all?take=51', { token: admin.token })).status).toBe(400);

    const path = `/api/report/${made.body.id}/status`;
    for (const json of ['Open', 'nieuw', 42, { status: 'Nieuw' }]) {
      expect(await send(h.url, path, { method: 'PUT', token: admin.token, json })).toMatchObject({ status: 400 });
    }
    expect((await send(h.url, path, { method: 'PUT', token: anna.token, json: 'Afgehandeld' })).status).toBe(403);
    expect((await send(h.url, '/api/report/0123456789abcdef01234567/status', { method: 'PUT', token: admin.token, json: 'Afgehandeld' })).status).toBe(404);
    expect((await send(h.url, path, { method: 'PUT', token: admin.token, json: 'In behandeling' })).body.status).toBe('In behandeling');
    const open = await send(h.url, '/api/report/all?status=open', { token: admin.token });
    expect(open.body.map((r: { id: string }) => r.id)).toContain(made.body.id);
    await send(h.url, path, { method: 'PUT', token: admin.token, json: 'Afgehandeld' });
    const closed = await send(h.url, '/api/report/all?status=closed', { token: admin.token });
    expect(closed.body.map((r: { id: string }) => r.id)).toContain(made.body.id);
    expect((await send(h.url, '/api/report/all?status=open', { token: admin.token })).body.map((r: { id: string }) => r.id)).not.toContain(made.body.id);
  });
});

describe('warnings, bans and the automatic suspension', () => {
  it('warns from a report (its status follows) and announces it; refuses bad input and non-admins', async () => {
    const [anna, bert] = [await h.member(), await h.member()];
    const made = await report(anna, { reportedID: bert.id, reason: 'Scheldwoorden' });
    expect((await warnRoute({ userID: bert.id, message: 'x' }, anna.token)).status).toBe(403);
    expect(await warnRoute({ userID: bert.id, message: '  ' })).toMatchObject({ status: 400, body: { message: MODERATION_MESSAGES.messageRequired } });
    expect((await warnRoute({ userID: bert.id, adminID: anna.id, message: 'x' })).status).toBe(403);
    expect(await warnRoute({ userID: admin.id, message: 'x' })).toMatchObject({ status: 400, body: { message: MODERATION_MESSAGES.notAdmins } });
    expect(await warnRoute({ userID: '0123456789abcdef01234567', message: 'x' })).toMatchObject({ status: 404 });
    const warned = await warnRoute({ userID: bert.id, adminID: admin.id, message: 'Let op je taal.', reportID: made.body.id });
    expect(warned).toMatchObject({ status: 201, body: { userID: bert.id, adminID: admin.id, message: 'Let op je taal.' } });
    expect((await send(h.url, '/api/report/all', { token: admin.token })).body.find((r: { id: string }) => r.id === made.body.id).status).toBe('Gewaarschuwd');
    await waitFor(() => eventsFor(bert.id, 'moderation.user.warned').length === 1, 'warned event');
    expect(eventsFor(bert.id, 'moderation.user.suspended')).toEqual([]);
  });

  it('suspends automatically at the third warning in the window, once, even when they come at once', async () => {
    const bert = await h.member();
    const results = await Promise.all([1, 2, 3, 4].map((i) => warnRoute({ userID: bert.id, message: `Waarschuwing ${i}` })));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    await waitFor(() => eventsFor(bert.id, 'moderation.user.warned').length === 4, 'four warned events');
    const suspended = eventsFor(bert.id, 'moderation.user.suspended');
    expect(suspended).toHaveLength(1);
    const { reason, endsAt, version } = suspended[0]!.payload as { reason: string; endsAt: string; version: number };
    expect(reason).toBe('warnings');
    expect(new Date(endsAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect(new Set(eventsFor(bert.id).map((e) => (e.payload as { version: number }).version)).size).toBe(4); // one version per change
    expect(version).toBeGreaterThanOrEqual(3);
  });

  it('bans until a day or for good, from a report; refuses a missing reason, a past date and non-admins', async () => {
    const [anna, bert, carl] = [await h.member(), await h.member(), await h.member()];
    const made = await report(anna, { reportedID: bert.id, reason: 'Oplichting' });
    expect(await banRoute({ userID: bert.id, reason: ' ' })).toMatchObject({ status: 400, body: { message: MODERATION_MESSAGES.banReasonRequired } });
    expect(await banRoute({ userID: bert.id, reason: 'x', expiresAt: '2020-01-01' })).toMatchObject({ status: 400, body: { message: MODERATION_MESSAGES.dateInPast } });
    expect(await banRoute({ userID: bert.id, reason: 'x', expiresAt: 'morgen' })).toMatchObject({ status: 400 });
    expect((await banRoute({ userID: bert.id, reason: 'x' }, anna.token)).status).toBe(403);
    expect((await banRoute({ userID: bert.id, issuedBy: anna.id, reason: 'x' })).status).toBe(403);
    expect(await banRoute({ userID: bert.id, reason: 'x', reportID: (await report(carl, { reportedID: anna.id, reason: 'y' })).body.id })).toMatchObject({ status: 400, body: { message: MODERATION_MESSAGES.reportNotAbout } });

    const day = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const banned = await banRoute({ userID: bert.id, issuedBy: admin.id, reason: 'Oplichting', expiresAt: day, reportID: made.body.id });
    expect(banned).toMatchObject({ status: 201, body: { userID: bert.id, issuedBy: admin.id, reason: 'Oplichting', expiresAt: startOfDutchDay(day).toISOString() } });
    expect((await send(h.url, '/api/report/all', { token: admin.token })).body.find((r: { id: string }) => r.id === made.body.id).status).toBe('Geband');
    await waitFor(() => eventsFor(bert.id, 'moderation.user.suspended').length === 1, 'suspended event');
    expect(eventsFor(bert.id, 'moderation.user.suspended')[0]!.payload).toMatchObject({ reason: 'ban', endsAt: startOfDutchDay(day).toISOString() });

    expect((await banRoute({ userID: carl.id, reason: 'Spam', expiresAt: null })).body.expiresAt).toBeNull();
    await waitFor(() => eventsFor(carl.id, 'moderation.user.suspended').length === 1, 'permanent ban event');
    expect(eventsFor(carl.id, 'moderation.user.suspended')[0]!.payload).toMatchObject({ reason: 'ban', endsAt: null });
  });

  it('ends a suspension at its date on the platform clock, announced once', async () => {
    const bert = await h.member();
    await banRoute({ userID: bert.id, reason: 'Even afkoelen', expiresAt: new Date(Date.now() + 3 * 86_400_000).toISOString() });
    expect(await endExpiredSuspensions(await contextOf())).toBe(0);
    try {
      await writeFile(process.env.RUILPLEIN_CLOCK_FILE!, String(4 * 86_400_000));
      await waitFor(async () => (await endExpiredSuspensions(await contextOf())) >= 1 || eventsFor(bert.id, 'moderation.user.suspension-ended').length > 0, 'the suspension ends');
    } finally {
      await writeFile(process.env.RUILPLEIN_CLOCK_FILE!, '0');
    }
    await waitFor(() => eventsFor(bert.id, 'moderation.user.suspension-ended').length === 1, 'suspension-ended event', 25_000);
    expect(await moderationCollections(h.db).states.findOne({ _id: bert.id })).not.toHaveProperty('suspension');
  });

  it('reads a suspension stored before the rename (`block`): it holds off the automatic one, ends by its date, and is rewritten', async () => {
    const [bert, carl] = [await h.member(), await h.member()];
    const { states } = moderationCollections(h.db);
    const since = new Date();
    const legacy = { reason: 'ban' as const, until: new Date(Date.now() + 86_400_000), since };
    await states.insertOne({ _id: bert.id, version: 1, warnings: [], block: legacy });
    await states.insertOne({ _id: carl.id, version: 1, warnings: [], block: { ...legacy, until: null } });
    // In force: three warnings suspend nobody a second time, and the state is rewritten under the new name.
    for (const i of [1, 2, 3]) expect((await warnRoute({ userID: carl.id, message: `Waarschuwing ${i}` })).status).toBe(201);
    await waitFor(() => eventsFor(carl.id, 'moderation.user.warned').length === 3, 'three warned events');
    expect(eventsFor(carl.id, 'moderation.user.suspended')).toEqual([]);
    expect(await states.findOne({ _id: carl.id })).toMatchObject({ version: 4, suspension: { reason: 'ban', until: null } });
    expect(await states.findOne({ _id: carl.id })).not.toHaveProperty('block');
    // Ended by its date like any other.
    try {
      await writeFile(process.env.RUILPLEIN_CLOCK_FILE!, String(2 * 86_400_000));
      await waitFor(async () => (await endExpiredSuspensions(await contextOf())) >= 1 || eventsFor(bert.id, 'moderation.user.suspension-ended').length > 0, 'the old suspension ends');
    } finally {
      await writeFile(process.env.RUILPLEIN_CLOCK_FILE!, '0');
    }
    // Published by the relay's next pass (this context's kick does nothing): up to its 10 s interval.
    await waitFor(() => eventsFor(bert.id, 'moderation.user.suspension-ended').length === 1, 'suspension-ended event', 25_000);
    expect(eventsFor(bert.id, 'moderation.user.suspension-ended')[0]!.payload).toMatchObject({ version: 2 });
    const after = await states.findOne({ _id: bert.id });
    expect(after).not.toHaveProperty('block');
    expect(after).not.toHaveProperty('suspension');
  });
});

describe('suspensions in the admin list and their lift (issue 27)', () => {
  const lifted = (userId: string, token = admin.token) => send(h.url, `/api/ban/${userId}/lift`, { method: 'POST', token });
  const listed = (ids: string[], token = admin.token) => send(h.url, `/api/ban/suspensions?ids=${ids.join(',')}`, { token });

  it('lists the suspensions in force of the members asked for, with reason and end', async () => {
    const [bert, carl, dirk] = [await h.member(), await h.member(), await h.member()];
    const day = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    expect((await banRoute({ userID: bert.id, reason: 'Oplichting', expiresAt: day })).status).toBe(201);
    expect((await banRoute({ userID: carl.id, reason: 'Spam' })).status).toBe(201);
    const res = await listed([bert.id, carl.id, dirk.id]);
    expect(res.status).toBe(200);
    expect([...res.body].sort((a: { userID: string }, b: { userID: string }) => (a.userID === bert.id ? -1 : b.userID === bert.id ? 1 : 0))).toEqual([
      { userID: bert.id, reason: 'ban', since: expect.any(String), endsAt: startOfDutchDay(day).toISOString() },
      { userID: carl.id, reason: 'ban', since: expect.any(String), endsAt: null },
    ]);
    expect((await listed([])).body).toEqual([]);
    expect(await listed(['abc'])).toMatchObject({ status: 400, body: { message: MODERATION_MESSAGES.invalidMembers } });
    expect((await listed([bert.id], bert.token)).status).toBe(403);
  });

  it('lifts a ban once: announced as suspension-ended (cause lifted, next version), recorded on the ban; a second lift is 409', async () => {
    const [bert, carl] = [await h.member(), await h.member()];
    expect((await banRoute({ userID: bert.id, reason: 'Per ongeluk' })).status).toBe(201);
    await waitFor(() => eventsFor(bert.id, 'moderation.user.suspended').length === 1, 'suspended event');
    const { version } = eventsFor(bert.id, 'moderation.user.suspended')[0]!.payload as { version: number };

    expect((await lifted(bert.id, carl.token)).status).toBe(403);
    const res = await lifted(bert.id);
    expect(res).toMatchObject({ status: 200, body: { userID: bert.id, liftedAt: expect.any(String), message: MODERATION_MESSAGES.lifted } });
    await waitFor(() => eventsFor(bert.id, 'moderation.user.suspension-ended').length === 1, 'suspension-ended event');
    expect(eventsFor(bert.id, 'moderation.user.suspension-ended')[0]!.payload).toMatchObject({ userId: bert.id, version: version + 1, cause: 'lifted' });
    expect((await listed([bert.id])).body).toEqual([]);
    const { states, bans } = moderationCollections(h.db);
    expect(await states.findOne({ _id: bert.id })).not.toHaveProperty('suspension');
    expect(await bans.findOne({ userId: bert.id })).toMatchObject({ liftedBy: admin.id, liftedAt: expect.any(Date) });

    // Nothing left to lift: 409, nothing announced; a member nobody has: 404.
    expect(await lifted(bert.id)).toMatchObject({ status: 409, body: { message: MODERATION_MESSAGES.notSuspended } });
    expect(await lifted(carl.id)).toMatchObject({ status: 409, body: { message: MODERATION_MESSAGES.notSuspended } });
    expect(await lifted('ffffffffffffffffffffffff')).toMatchObject({ status: 404, body: { message: MODERATION_MESSAGES.memberNotFound } });
    expect((await lifted('abc')).status).toBe(400);

    // A new ban after the lift is a newer version still, so followers apply it.
    expect((await banRoute({ userID: bert.id, reason: 'Nu echt' })).status).toBe(201);
    await waitFor(() => eventsFor(bert.id, 'moderation.user.suspended').length === 2, 'second suspended event');
    expect(eventsFor(bert.id, 'moderation.user.suspended')[1]!.payload).toMatchObject({ version: version + 2 });
    // The refused lifts announced nothing (the member's events leave in order, this ban's last).
    expect(eventsFor(bert.id, 'moderation.user.suspension-ended')).toHaveLength(1);
  });

  it('lifts the automatic suspension too', async () => {
    const bert = await h.member();
    for (const i of [1, 2, 3]) expect((await warnRoute({ userID: bert.id, message: `Waarschuwing ${i}` })).status).toBe(201);
    await waitFor(() => eventsFor(bert.id, 'moderation.user.suspended').length === 1, 'automatic suspension');
    expect((await listed([bert.id])).body).toMatchObject([{ reason: 'warnings' }]);
    expect((await lifted(bert.id)).status).toBe(200);
    await waitFor(() => eventsFor(bert.id, 'moderation.user.suspension-ended').length === 1, 'suspension-ended event');
  });
});

/** A context for calling the sweep directly (the running service sweeps every minute); its kicks are left to the relay's passes. */
async function contextOf(): Promise<ModerationContext> {
  return { ...moderationCollections(h.db), relay: { kick: () => {} }, logger: silentLogger(), autoSuspension: { warnings: 3, windowMs: 7 * 86_400_000, lengthMs: 7 * 86_400_000 } };
}

describe('GET /api/admin/stats', () => {
  it('counts members and active listings from the projections, once per entity, and open reports', async () => {
    const before = (await send(h.url, '/api/admin/stats', { token: admin.token })).body;
    const [anna, bert] = [await h.member({ firstName: 'Anna', lastName: 'Aa' }), await h.member({ firstName: 'Bert', lastName: 'Bee' })];
    const listing = await bert.listing();
    await bert.listing({ active: false });
    await report(anna, { reportedID: bert.id, reason: 'Nep' });
    const after = await send(h.url, '/api/admin/stats', { token: admin.token });
    expect(after.status).toBe(200);
    expect(after.body.totalUsers - before.totalUsers).toBe(2);
    expect(after.body.activeListings - before.activeListings).toBe(1);
    expect(after.body.openReports - before.openReports).toBe(1);
    expect(after.body.latestReports[0]).toMatchObject({ reporterName: 'Anna Aa', reportedName: 'Bert Bee', reason: 'Nep' });

    // The same event again (a redelivery, a replay) and an older one change nothing; a deletion counts down.
    const created = createEvent(eventRegistry, 'listing.listing.created', {
      id: listing, version: 1, ownerId: bert.id, active: true, title: 't', excerpt: '', listingType: 'item', acceptsItems: false, isPremium: false,
      initialValue: null, categoryIds: [], imageUrl: '', thumbnailUrl: '', placeholder: '', createdAt: new Date().toISOString(),
    });
    await publishEvent(h.adminBus, created);
    await publishEvent(h.adminBus, createEvent(eventRegistry, 'listing.listing.deleted', { id: listing, version: 2, ownerId: bert.id }));
    await publishEvent(h.adminBus, createEvent(eventRegistry, 'auth.user.deleted', { id: anna.id, version: 2 }));
    await waitFor(async () => {
      const now = (await send(h.url, '/api/admin/stats', { token: admin.token })).body;
      return now.activeListings === before.activeListings && now.totalUsers === before.totalUsers + 1;
    }, 'the counts follow the deletions');
    expect((await send(h.url, '/api/admin/stats', { token: anna.token })).status).toBe(403);
  });
});
