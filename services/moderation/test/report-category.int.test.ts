// Reporting a member with a category (issue 22: the public profile's dialog): stored, answered, and
// shown in the admins' list; a report without one stays as the seed's; an unknown one is a 400.
import { MODERATION_MESSAGES, REPORT_CATEGORIES } from '@ruilplein/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moderationCollections } from '../src/context.ts';
import { send, startModeration, type ModerationHarness, type TestMember } from './helpers.ts';

let h: ModerationHarness;
let admin: TestMember;

beforeAll(async () => {
  h = await startModeration();
  admin = await h.admin();
});
afterAll(async () => {
  await h?.close();
});

const report = (who: TestMember, json: object) => send(h.url, '/api/report/create', { method: 'POST', token: who.token, json });

describe('a report with a category', () => {
  it('stores each category, answers it, and lists it for the admins', async () => {
    const anna = await h.member({ firstName: 'Anna' });
    const made: string[] = [];
    for (const category of REPORT_CATEGORIES) {
      const reported = await h.member();
      const res = await report(anna, { reportedID: reported.id, reason: 'Vraagt geld vooraf.', category });
      expect(res.status).toBe(201);
      expect(res.body.category).toBe(category);
      made.push(res.body.id);
    }
    const listed = (await send(h.url, '/api/report/all?take=50', { token: admin.token })).body as Array<{ id: string; category?: string }>;
    expect(made.map((id) => listed.find((r) => r.id === id)?.category)).toEqual([...REPORT_CATEGORIES]);
    expect((await moderationCollections(h.db).reports.findOne({ _id: made[0]! }))?.category).toBe(REPORT_CATEGORIES[0]);
  });

  it('leaves the category out when none is given (absent, null or empty), and refuses an unknown one', async () => {
    const anna = await h.member();
    for (const category of [undefined, null, '']) {
      const reported = await h.member();
      const res = await report(anna, { reportedID: reported.id, reason: 'Kwam niet opdagen.', ...(category !== undefined && { category }) });
      expect(res.status).toBe(201);
      expect('category' in res.body).toBe(false);
    }
    const reported = await h.member();
    for (const category of ['Fraude', 'spam', 3]) {
      const res = await report(anna, { reportedID: reported.id, reason: 'x', category });
      expect([res.status, res.body.message]).toEqual([400, MODERATION_MESSAGES.invalidCategory]);
    }
  });
});
