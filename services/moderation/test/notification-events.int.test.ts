// What moderation announces for the members' notifications, on real stores: a warning's text with
// `moderation.user.warned`, and `moderation.report.resolved` once per closing of a report, through
// the report's outbox (also when the writer stopped right after the write).
import type { ReportResolvedEvent } from '@ruilplein/contracts';
import { now } from '@ruilplein/service-kit';
import { silentLogger } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moderationCollections, type ModerationContext } from '../src/context.ts';
import { changeStatus } from '../src/reports/model.ts';
import { send, startModeration, waitFor, type ModerationHarness, type TestMember } from './helpers.ts';

let h: ModerationHarness;
let admin: TestMember;

beforeAll(async () => {
  h = await startModeration();
  admin = await h.admin();
});
afterAll(async () => {
  await h?.close();
});

const report = async (who: TestMember, about: TestMember) => {
  const res = await send(h.url, '/api/report/create', { method: 'POST', token: who.token, json: { reportedID: about.id, reason: 'Kwam niet opdagen' } });
  expect(res.status).toBe(201);
  return res.body.id as string;
};
const setStatus = async (id: string, status: string) => expect((await send(h.url, `/api/report/${id}/status`, { method: 'PUT', token: admin.token, json: status })).status).toBe(200);
const resolved = (reportId: string) => h.events.filter((e) => e.type === 'moderation.report.resolved' && (e.payload as ReportResolvedEvent).reportId === reportId);

/** Closes a fresh report and waits for its event: anything published before is on the stream by then. */
async function settled() {
  const [x, y] = [await h.member(), await h.member()];
  const id = await report(x, y);
  await setStatus(id, 'Afgehandeld');
  await waitFor(() => resolved(id).length === 1, 'the marker report resolved');
}

describe('moderation.user.warned', () => {
  it('carries the warning’s text', async () => {
    const bert = await h.member();
    const warned = await send(h.url, '/api/warning/create', { method: 'POST', token: admin.token, json: { userID: bert.id, message: 'Let op je taal in de chat.' } });
    expect(warned.status).toBe(201);
    await waitFor(() => h.events.some((e) => e.type === 'moderation.user.warned' && (e.payload as { userId: string }).userId === bert.id), 'warned event');
    const event = h.events.find((e) => e.type === 'moderation.user.warned' && (e.payload as { userId: string }).userId === bert.id)!;
    expect(event.payload).toEqual({ userId: bert.id, version: 1, warningId: warned.body.id, recentWarnings: 1, reason: 'Let op je taal in de chat.', at: warned.body.createdAt });
  });
});

describe('moderation.report.resolved', () => {
  it('is announced once when an admin closes a report, to its reporter; not while it is open, not between final statuses', async () => {
    const [anna, bert] = [await h.member(), await h.member()];
    const id = await report(anna, bert);
    await setStatus(id, 'In behandeling');
    await setStatus(id, 'Afgehandeld');
    await waitFor(() => resolved(id).length === 1, 'resolved event');
    expect(resolved(id)[0]!.payload).toEqual({ reportId: id, reporterId: anna.id, status: 'Afgehandeld', version: 1, at: expect.any(String) });
    // Another final status, or the same one again: the reporter was told already.
    await setStatus(id, 'Gewaarschuwd');
    await setStatus(id, 'Gewaarschuwd');
    // Reopened and closed again: a new closing, one version higher.
    await setStatus(id, 'Nieuw');
    await setStatus(id, 'Geband');
    await waitFor(() => resolved(id).length === 2, 'second resolved event');
    await settled();
    expect(resolved(id).map((e) => [(e.payload as ReportResolvedEvent).status, (e.payload as ReportResolvedEvent).version])).toEqual([
      ['Afgehandeld', 1],
      ['Geband', 2],
    ]);
    // Published, so nothing is left pending in the report.
    await waitFor(async () => !(await h.db.collection('reports').findOne({ _id: id as never }))?.outboxPending, 'the outbox cleared');
  });

  it('is announced when a warning or a ban is given from the report', async () => {
    const [anna, bert, carl] = [await h.member(), await h.member(), await h.member()];
    const warnedFrom = await report(anna, bert);
    const bannedFrom = await report(carl, bert);
    expect((await send(h.url, '/api/warning/create', { method: 'POST', token: admin.token, json: { userID: bert.id, message: 'Niet doen.', reportID: warnedFrom } })).status).toBe(201);
    expect((await send(h.url, '/api/ban/create', { method: 'POST', token: admin.token, json: { userID: bert.id, reason: 'Oplichting', reportID: bannedFrom } })).status).toBe(201);
    await waitFor(() => resolved(warnedFrom).length === 1 && resolved(bannedFrom).length === 1, 'both resolved');
    expect(resolved(warnedFrom)[0]!.payload).toMatchObject({ reporterId: anna.id, status: 'Gewaarschuwd', version: 1 });
    expect(resolved(bannedFrom)[0]!.payload).toMatchObject({ reporterId: carl.id, status: 'Geband', version: 1 });
  });

  it('is published once when the writer stopped right after the write, before publishing', async () => {
    const [anna, bert] = [await h.member(), await h.member()];
    const id = await report(anna, bert);
    // As a replica that died after its write: the status and the event are stored, nobody kicked a relay.
    const dead: ModerationContext = { ...moderationCollections(h.db), relay: { kick: () => {} }, logger: silentLogger(), autoSuspension: { warnings: 3, windowMs: 1, lengthMs: 1 } };
    expect(await changeStatus(dead, id, 'Afgehandeld', now())).toMatchObject({ status: 'Afgehandeld', resolutions: 1 });
    expect(Object.keys((await h.db.collection('reports').findOne({ _id: id as never }))?.outbox ?? {})).toHaveLength(1);
    // The next process's relay finds it at its start.
    await h.restart();
    await waitFor(() => resolved(id).length === 1, 'resolved event after the restart');
    await settled();
    expect(resolved(id)).toHaveLength(1);
    expect(resolved(id)[0]!.payload).toMatchObject({ reporterId: anna.id, status: 'Afgehandeld', version: 1 });
  });
});
