// Reviews over HTTP on real stores: only between the two parties of a completed trade, once per
// party per trade, 1 to 5 stars in half steps; has-reviewed; the received reviews with the
// reviewer's name and picture; the totals announced for the public statistics, counted once.
import { DEFAULT_AVATAR, FORMER_MEMBER, REVIEW_MESSAGES } from '@ruilplein/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completedOffer, makeOffer, publish, respond, send, startTrade, waitFor, type TestMember, type TradeHarness } from './helpers.ts';

let h: TradeHarness;
beforeAll(async () => {
  h = await startTrade();
});
afterAll(async () => {
  await h?.close();
});

const add = (who: TestMember | undefined, json: unknown) => send(h.url, '/api/review/add', { method: 'POST', token: who?.token, json });
const hasReviewed = async (who: TestMember, userId: string, query = '') => (await send(h.url, `/api/review/has-reviewed/${userId}${query}`, { token: who.token })).body.hasReviewed;
const reviewsOf = (id: string, token?: string) => send(h.url, `/api/review/user/${id}`, { token });
const party = (id: string) => h.db.collection<{ _id: string; ratingSum?: number; totalReviewers?: number; totalTrades?: number }>('trade_parties').findOne({ _id: id });

describe('POST /api/review/add', () => {
  it('lets each party review the other once after a completed trade, as the seed sends it', async () => {
    const s = await h.member({ firstName: 'Sanne', lastName: 'Jansen' });
    const r = await h.member({ firstName: 'Daan', lastName: 'de Vries' });
    const trade = await completedOffer(h, s, r);
    expect(await hasReviewed(s, r.id)).toBe(false);
    const res = await add(s, { revieweeID: r.id, rating: 4.5, comment: '  Fijne ruil!  ' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      id: `${trade.id}:${s.id}`,
      tradeOfferId: trade.id,
      rating: 4.5,
      comment: 'Fijne ruil!',
      reviewer: { id: s.id, firstName: 'Sanne', lastName: 'Jansen', profilePicture: `/uploads/avatars/${s.id}.webp` },
      revieweeID: r.id,
    });
    expect(await hasReviewed(s, r.id)).toBe(true);
    expect(await hasReviewed(s, r.id, `?tradeOfferId=${trade.id}`)).toBe(true);
    expect(await hasReviewed(r, s.id)).toBe(false);

    const again = await add(s, { revieweeID: r.id, rating: 5 });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(REVIEW_MESSAGES.alreadyReviewed);
    expect((await add(s, { revieweeID: r.id, rating: 5, tradeOfferId: trade.id })).status).toBe(409);

    // The other way round, without a comment: an empty one.
    const back = await add(r, { revieweeID: s.id, rating: 1 });
    expect(back.status).toBe(201);
    expect(back.body.comment).toBe('');

    // Public, newest first, with the reviewer's name; the totals announced for the statistics.
    const list = await reviewsOf(r.id);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([res.body]);
    expect((await reviewsOf(s.id)).body.map((x: { rating: number }) => x.rating)).toEqual([1]);
    await waitFor(async () => (await party(r.id))?.totalReviewers === 1, 'counted');
    expect(await party(r.id)).toMatchObject({ ratingSum: 4.5, totalReviewers: 1, totalTrades: 1 });
    await waitFor(() => h.events.some((e) => e.type === 'trade.review.added' && (e.payload as { id: string }).id === res.body.id), 'review announced');
    await waitFor(
      () => h.events.some((e) => e.type === 'trade.member.counted' && (e.payload as { userId: string; totalReviewers: number }).userId === r.id && (e.payload as { totalReviewers: number }).totalReviewers === 1),
      'totals announced',
    );
  });

  it('takes one review per completed trade: two trades, two reviews, then no more', async () => {
    const s = await h.member();
    const r = await h.member();
    const first = await completedOffer(h, s, r);
    const second = await completedOffer(h, r, s);
    expect((await add(s, { revieweeID: r.id, rating: 3 })).body.tradeOfferId).toBe(first.id);
    expect(await hasReviewed(s, r.id)).toBe(false);
    expect(await hasReviewed(s, r.id, `?tradeOfferId=${first.id}`)).toBe(true);
    expect(await hasReviewed(s, r.id, `?tradeOfferId=${second.id}`)).toBe(false);
    expect((await add(s, { revieweeID: r.id, rating: 5, tradeOfferId: second.id })).body.tradeOfferId).toBe(second.id);
    expect(await hasReviewed(s, r.id)).toBe(true);
    expect((await add(s, { revieweeID: r.id, rating: 2 })).status).toBe(409);
    await waitFor(async () => (await party(r.id))?.totalReviewers === 2, 'two reviews counted');
    expect((await party(r.id))?.ratingSum).toBe(8);
    expect((await reviewsOf(r.id)).body.map((x: { tradeOfferId: number }) => x.tradeOfferId)).toEqual([second.id, first.id]);
  });

  it('refuses a review without a completed trade between the two, or of oneself', async () => {
    const s = await h.member();
    const r = await h.member();
    const x = await h.member();
    const pending = await makeOffer(h, s, r);
    const accepted = await makeOffer(h, r, s);
    await respond(h, s, accepted.id, 'Accepted');
    const done = await completedOffer(h, x, r);
    const cases: Array<[string, TestMember, unknown, number, string]> = [
      ['pending and accepted only', s, { revieweeID: r.id, rating: 4 }, 403, REVIEW_MESSAGES.notTraded],
      ['a pending trade named', s, { revieweeID: r.id, rating: 4, tradeOfferId: pending.id }, 403, REVIEW_MESSAGES.notTraded],
      ['an accepted trade named', s, { revieweeID: r.id, rating: 4, tradeOfferId: accepted.id }, 403, REVIEW_MESSAGES.notTraded],
      ['someone else’s completed trade', s, { revieweeID: r.id, rating: 4, tradeOfferId: done.id }, 403, REVIEW_MESSAGES.notTraded],
      ['the wrong reviewee for the trade', x, { revieweeID: s.id, rating: 4, tradeOfferId: done.id }, 403, REVIEW_MESSAGES.notTraded],
      ['oneself', s, { revieweeID: s.id, rating: 4 }, 400, REVIEW_MESSAGES.self],
      ['an unknown trade', x, { revieweeID: r.id, rating: 4, tradeOfferId: 999_999 }, 403, REVIEW_MESSAGES.notTraded],
    ];
    for (const [name, who, json, status, message] of cases) {
      const res = await add(who, json);
      expect(res.status, name).toBe(status);
      expect(res.body.message, name).toBe(message);
    }
    expect(await hasReviewed(s, r.id)).toBe(false);
    expect(await hasReviewed(x, r.id, `?tradeOfferId=${pending.id}`)).toBe(false);
  });

  it('checks the rating (1 to 5 in half steps), the comment and the ids, changing nothing', async () => {
    const s = await h.member();
    const r = await h.member();
    await completedOffer(h, s, r);
    const cases: Array<[unknown, string?]> = [
      [{ revieweeID: r.id }, REVIEW_MESSAGES.ratingRequired],
      [{ revieweeID: r.id, rating: 0 }, REVIEW_MESSAGES.ratingRequired],
      [{ revieweeID: r.id, rating: 0.5 }, REVIEW_MESSAGES.invalidRating],
      [{ revieweeID: r.id, rating: 5.5 }, REVIEW_MESSAGES.invalidRating],
      [{ revieweeID: r.id, rating: 3.25 }, REVIEW_MESSAGES.invalidRating],
      [{ revieweeID: r.id, rating: -2 }, REVIEW_MESSAGES.invalidRating],
      [{ revieweeID: r.id, rating: '4' }, REVIEW_MESSAGES.ratingRequired],
      [{ revieweeID: r.id, rating: 4, comment: 'x'.repeat(2001) }, REVIEW_MESSAGES.commentTooLong],
      [{ revieweeID: r.id, rating: 4, comment: 12 }],
      [{ revieweeID: r.id, rating: 4, tradeOfferId: 'een' }],
      [{ revieweeID: r.id, rating: 4, tradeOfferId: 0 }],
      [{ rating: 4 }, REVIEW_MESSAGES.revieweeRequired],
      [{ revieweeID: 'daan', rating: 4 }],
      ['vijf sterren'],
    ];
    for (const [json, message] of cases) {
      const res = await add(s, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      if (message) expect(res.body.message, JSON.stringify(json)).toBe(message);
    }
    expect((await add(undefined, { revieweeID: r.id, rating: 4 })).status).toBe(401);
    expect(await hasReviewed(s, r.id)).toBe(false);
    // Every half step from 1 to 5 is a rating; a null comment is none.
    const ok = await add(s, { revieweeID: r.id, rating: 1.5, comment: null });
    expect(ok.status).toBe(201);
    expect(ok.body.comment).toBe('');
  });

  it('takes one of several reviews of one trade sent at once, counted once', async () => {
    for (let round = 0; round < 5; round++) {
      const s = await h.member();
      const r = await h.member();
      await completedOffer(h, s, r);
      const results = await Promise.all([4, 4.5, 5].map((rating) => add(s, { revieweeID: r.id, rating })));
      expect(results.map((x) => x.status).sort()).toEqual([201, 409, 409]);
      const rating = results.find((x) => x.status === 201)!.body.rating;
      await waitFor(async () => (await party(r.id))?.totalReviewers === 1, 'counted');
      expect((await party(r.id))?.ratingSum).toBe(rating);
      expect((await reviewsOf(r.id)).body).toHaveLength(1);
    }
  });

  it('refuses a review of a member whose account is gone', async () => {
    const s = await h.member();
    const r = await h.member();
    await completedOffer(h, s, r);
    await r.remove();
    const res = await add(s, { revieweeID: r.id, rating: 4 });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(REVIEW_MESSAGES.revieweeGone);
  });
});

describe('reading reviews', () => {
  it('answers a member’s received reviews to anyone, a reviewer whose account is gone as a former member', async () => {
    const s = await h.member();
    const r = await h.member();
    await completedOffer(h, s, r);
    await add(s, { revieweeID: r.id, rating: 5, comment: 'Top' });
    await s.remove();
    const list = (await reviewsOf(r.id)).body;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ rating: 5, comment: 'Top', reviewer: { id: s.id, ...FORMER_MEMBER, profilePicture: DEFAULT_AVATAR } });
    const other = await h.member();
    expect((await reviewsOf(r.id, other.token)).body).toEqual(list);
    expect((await reviewsOf(other.id)).body).toEqual([]);
    expect((await reviewsOf('niemand')).status).toBe(400);
    expect((await send(h.url, `/api/review/has-reviewed/niemand`, { token: other.token })).status).toBe(400);
    expect((await send(h.url, `/api/review/has-reviewed/${r.id}?tradeOfferId=x`, { token: other.token })).status).toBe(400);
    expect((await send(h.url, `/api/review/has-reviewed/${r.id}`)).status).toBe(401);
  });

  it('counts a review once however often its event comes', async () => {
    const s = await h.member();
    const r = await h.member();
    await completedOffer(h, s, r);
    const review = (await add(s, { revieweeID: r.id, rating: 3.5 })).body;
    await waitFor(async () => (await party(r.id))?.totalReviewers === 1, 'counted');
    const copy = await publish(h, 'trade.review.added', { id: review.id, offerId: review.tradeOfferId, reviewerId: s.id, revieweeId: r.id, rating: 3.5, at: review.createdAt });
    const consumed = h.db.collection<{ _id: string; state: string }>('consumed_events');
    await waitFor(async () => (await consumed.findOne({ _id: `trade-outcomes:${copy.id}` }))?.state === 'done', 'the copy handled');
    expect(await party(r.id)).toMatchObject({ ratingSum: 3.5, totalReviewers: 1 });
    expect((await reviewsOf(r.id)).body).toHaveLength(1);
  });
});
