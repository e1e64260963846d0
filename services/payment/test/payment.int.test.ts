// The payment service with its local checkout: the upgrade's state machine, the webhook (replayed,
// racing the return screen, forged), renewals (paid and failed), cancelling and the end of Premium
// on the platform's clock.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatEuros, PAYMENT_MESSAGES, PAYMENT_RETURN_PATH } from '@ruilplein/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireEnded } from '../src/memberships/lifecycle.ts';
import type { LocalProvider } from '../src/providers/local/provider.ts';
import { send, startPayment, waitFor, type PaymentHarness } from './helpers.ts';

const DAY = 86_400_000;
let h: PaymentHarness;
let provider: LocalProvider;
let clockDir: string;

beforeAll(async () => {
  clockDir = await mkdtemp(join(tmpdir(), 'ruilplein-clock-'));
  process.env.RUILPLEIN_CLOCK_FILE = join(clockDir, 'offset');
  h = await startPayment();
  provider = h.ctx.provider as LocalProvider;
});
afterAll(async () => {
  delete process.env.RUILPLEIN_CLOCK_FILE;
  await h.close();
  await rm(clockDir, { recursive: true, force: true });
});

const moveClock = async (ms: number) => {
  await writeFile(process.env.RUILPLEIN_CLOCK_FILE!, String(ms));
  await new Promise((r) => setTimeout(r, 250)); // the kit re-reads the file at most every 200 ms
};
const eventsOf = (userId: string, type?: string) => h.events.filter((e) => (e.payload as { userId: string }).userId === userId && (!type || e.type === type));
const start = (token: string) => send(h.url, '/api/payment/start-upgrade-first', { method: 'POST', token });
const status = (id: string) => send(h.url, `/api/payment/status?id=${id}`);
const subscribe = (token: string, json: unknown = '1 month') => send(h.url, '/api/payment/create-subscription', { method: 'POST', token, json });
const choose = (id: string, outcome: string) => send(h.url, `/api/payment/checkout/${id}`, { method: 'POST', form: { outcome } });

/** A member who paid the first payment through the checkout page; the webhook has made them Premium. */
async function premiumMember() {
  const member = await h.member();
  const started = await start(member.token);
  await choose(started.body.paymentId, 'paid');
  await waitFor(() => eventsOf(member.id, 'payment.subscription.activated').length === 1, 'activated');
  return { ...member, paymentId: started.body.paymentId as string };
}

describe('upgrading through the local checkout', () => {
  it('starts a first payment for the caller only, with the checkout; its status in the provider’s words', async () => {
    expect((await send(h.url, '/api/payment/start-upgrade-first', { method: 'POST' })).status).toBe(401);
    const member = await h.member();
    const started = await start(member.token);
    expect(started.status).toBe(201);
    expect(started.body).toEqual({ paymentId: expect.stringMatching(/^tr_\w{16}$/), checkoutUrl: `http://ruilplein.test/api/payment/checkout/${started.body.paymentId}` });
    expect((await status(started.body.paymentId)).body).toEqual({ status: 'open' });
    expect((await status('tr_onbekend12345')).status).toBe(404);
    expect((await status('kapot')).status).toBe(400);

    const page = await send(h.url, `/api/payment/checkout/${started.body.paymentId}`);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    for (const label of ['Betaald', 'Mislukt', 'Geannuleerd', 'Verlopen']) expect(page.body).toContain(`>${label}</button>`);
    expect(page.body).toContain(formatEuros(249));
    expect(page.body).not.toMatch(/<script/i);
  });

  it('paid: back to the return screen, the webhook makes the subscription; create-subscription answers the same one', async () => {
    const member = await h.member();
    const { body } = await start(member.token);
    expect((await subscribe(member.token)).status).toBe(409); // not paid yet
    const back = await choose(body.paymentId, 'paid');
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(`http://ruilplein.test${PAYMENT_RETURN_PATH}`);
    expect((await status(body.paymentId)).body.status).toBe('paid');
    await waitFor(() => eventsOf(member.id, 'payment.subscription.activated').length === 1, 'activated');
    const first = await subscribe(member.token);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ subscriptionId: expect.stringMatching(/^sub_/), status: 'active' });
    const endsIn = new Date(first.body.subscriptionEndsAt).getTime() - Date.now();
    expect(endsIn).toBeGreaterThan(27 * DAY);
    expect(endsIn).toBeLessThan(32 * DAY);
    expect((await subscribe(member.token)).body).toEqual(first.body);
    expect((await subscribe(member.token, '2 months')).status).toBe(400);
    expect((await start(member.token)).body.message).toBe(PAYMENT_MESSAGES.alreadyPremium);
    const activated = eventsOf(member.id, 'payment.subscription.activated')[0]!.payload as { paidUntil: string };
    expect(activated.paidUntil).toBe(first.body.subscriptionEndsAt);
  });

  it.each(['failed', 'canceled', 'expired'] as const)('%s: changes nothing, and no subscription can be made', async (outcome) => {
    const member = await h.member();
    const { body } = await start(member.token);
    await choose(body.paymentId, outcome);
    expect((await status(body.paymentId)).body.status).toBe(outcome);
    expect(await subscribe(member.token)).toMatchObject({ status: 409, body: { message: PAYMENT_MESSAGES.noPaidFirstPayment } });
    // A second choice on the same page changes nothing either.
    await choose(body.paymentId, 'paid');
    expect((await status(body.paymentId)).body.status).toBe(outcome);
    expect(eventsOf(member.id)).toEqual([]);
  });

  it('an open payment left alone expires on the clock', async () => {
    const member = await h.member();
    const { body } = await start(member.token);
    try {
      await moveClock(16 * 60_000);
      expect((await status(body.paymentId)).body.status).toBe('expired');
    } finally {
      await moveClock(0);
    }
  });
});

describe('the webhook', () => {
  it('is applied once whether replayed, racing the return screen or arriving in any order', async () => {
    const member = await h.member();
    const { body } = await start(member.token);
    await provider.settle(body.paymentId, 'paid'); // the payer paid; its own webhook call races the ones below
    const all = await Promise.all([
      ...Array.from({ length: 5 }, () => send(h.url, '/api/payment/webhook', { method: 'POST', form: { id: body.paymentId } })),
      subscribe(member.token),
      subscribe(member.token),
      status(body.paymentId),
    ]);
    expect(all.slice(0, 5).every((r) => r.status === 200)).toBe(true);
    await waitFor(() => eventsOf(member.id, 'payment.subscription.activated').length >= 1, 'activated');
    await new Promise((r) => setTimeout(r, 300)); // late duplicates would have landed by now
    expect(eventsOf(member.id, 'payment.subscription.activated')).toHaveLength(1);
    expect(await provider.store.subscriptions.countDocuments({ userId: member.id })).toBe(1);
  });

  it('answers 200 at once for unknown ids and never believes the body', async () => {
    expect((await send(h.url, '/api/payment/webhook', { method: 'POST', form: { id: 'tr_onbekend12345' } })).status).toBe(200);
    expect((await send(h.url, '/api/payment/webhook', { method: 'POST', form: { id: 'iets anders' } })).status).toBe(200);
    const member = await h.member();
    const { body } = await start(member.token);
    // A forged call that claims the payment was paid: the provider says open.
    expect((await send(h.url, '/api/payment/webhook', { method: 'POST', form: { id: body.paymentId, status: 'paid', amount: '2.49' } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect((await status(body.paymentId)).body.status).toBe('open');
    expect(eventsOf(member.id)).toEqual([]);
  });
});

describe('renewals, cancelling and the end of Premium', () => {
  it('a paid renewal extends the paid period by a month', async () => {
    const member = await premiumMember();
    const before = (await subscribe(member.token)).body.subscriptionEndsAt as string;
    try {
      await moveClock(31 * DAY);
      expect(await provider.renewDue()).toBeGreaterThanOrEqual(1);
      await waitFor(() => eventsOf(member.id, 'payment.subscription.renewed').length === 1, 'renewed');
      const after = (await subscribe(member.token)).body.subscriptionEndsAt as string;
      expect(new Date(after).getTime() - new Date(before).getTime()).toBeGreaterThan(27 * DAY);
      expect(await expireEnded(h.ctx)).toBe(0);
    } finally {
      await moveClock(0);
    }
  });

  it('a failed renewal ends Premium at the end of the paid period, not before', async () => {
    const member = await premiumMember();
    expect(await provider.failNextRenewal(member.id)).toBe(true);
    const ends = new Date((await subscribe(member.token)).body.subscriptionEndsAt).getTime();
    try {
      await moveClock(ends - Date.now() - 60_000); // the renewal day, a minute before the end
      await provider.renewDue();
      await waitFor(async () => (await h.ctx.memberships.findOne({ _id: member.id }))?.renewalFailed === true, 'the failure is recorded');
      expect(eventsOf(member.id, 'payment.subscription.renewed')).toEqual([]);
      expect(await expireEnded(h.ctx)).toBe(0);
      await moveClock(ends - Date.now() + 60_000);
      expect(await expireEnded(h.ctx)).toBe(1);
      await waitFor(() => eventsOf(member.id, 'payment.subscription.expired').length === 1, 'expired');
      expect(eventsOf(member.id, 'payment.subscription.expired')[0]!.payload).toMatchObject({ paidUntil: null });
    } finally {
      await moveClock(0);
    }
  });

  it('cancelling keeps Premium to the end of the period, then it ends; cancelling twice says so', async () => {
    const member = await premiumMember();
    const ends = (await subscribe(member.token)).body.subscriptionEndsAt as string;
    expect((await send(h.url, '/api/payment/subscription', { token: member.token })).body).toEqual({ status: 'active', subscriptionEndsAt: ends });
    const cancelled = await send(h.url, '/api/payment/cancel-subscription', { method: 'POST', token: member.token });
    expect(cancelled).toMatchObject({ status: 200, body: { message: PAYMENT_MESSAGES.cancelled, subscriptionEndsAt: ends } });
    expect((await send(h.url, '/api/payment/cancel-subscription', { method: 'POST', token: member.token })).body.subscriptionEndsAt).toBe(ends);
    await waitFor(() => eventsOf(member.id, 'payment.subscription.cancelled').length === 1, 'cancelled');
    expect(eventsOf(member.id, 'payment.subscription.cancelled')[0]!.payload).toMatchObject({ paidUntil: ends });
    expect(await provider.store.subscriptions.findOne({ userId: member.id })).toMatchObject({ status: 'canceled' });
    expect((await send(h.url, '/api/payment/subscription', { token: member.token })).body).toEqual({ status: 'cancelled', subscriptionEndsAt: ends });
    expect(await expireEnded(h.ctx)).toBe(0);
    try {
      await moveClock(new Date(ends).getTime() - Date.now() + 1000);
      expect(await expireEnded(h.ctx)).toBe(1);
      await waitFor(() => eventsOf(member.id, 'payment.subscription.expired').length === 1, 'expired');
    } finally {
      await moveClock(0);
    }
    const nobody = await h.member();
    expect(await send(h.url, '/api/payment/cancel-subscription', { method: 'POST', token: nobody.token })).toMatchObject({ status: 409, body: { message: PAYMENT_MESSAGES.noSubscription } });
  });
});

// Probe finding 5: paying again while a cancelled Premium still ran took the money and moved the
// end date by minutes. A new first payment is refused while Premium runs; one that still arrives
// paid (a checkout opened before) buys the month after the current end, on one subscription.
describe('paying again while Premium still runs', () => {
  const paymentsOf = (userId: string) => provider.store.payments.countDocuments({ userId });
  const liveSubscriptions = (userId: string) => provider.store.subscriptions.countDocuments({ userId, status: 'active' });

  it('refuses a new first payment while a cancelled Premium runs (409), charging nothing; after its end it may start', async () => {
    const member = await premiumMember();
    const ends = (await subscribe(member.token)).body.subscriptionEndsAt as string;
    expect((await send(h.url, '/api/payment/cancel-subscription', { method: 'POST', token: member.token })).status).toBe(200);
    const paymentsBefore = await paymentsOf(member.id);
    const again = await start(member.token);
    expect(again).toMatchObject({ status: 409, body: { message: PAYMENT_MESSAGES.premiumStillRuns } });
    expect(await paymentsOf(member.id)).toBe(paymentsBefore);
    expect((await send(h.url, '/api/payment/subscription', { token: member.token })).body).toEqual({ status: 'cancelled', subscriptionEndsAt: ends });
    try {
      await moveClock(new Date(ends).getTime() - Date.now() + 1000);
      expect(await expireEnded(h.ctx)).toBe(1);
      expect((await start(member.token)).status).toBe(201);
    } finally {
      await moveClock(0);
    }
  });

  it('a first payment paid while Premium runs extends from the current end, on one live subscription', async () => {
    const member = await h.member();
    // Two checkouts opened at once (two tabs), both paid.
    const [a, b] = [(await start(member.token)).body.paymentId as string, (await start(member.token)).body.paymentId as string];
    await choose(a, 'paid');
    await waitFor(() => eventsOf(member.id, 'payment.subscription.activated').length === 1, 'activated');
    const firstEnd = new Date((await subscribe(member.token)).body.subscriptionEndsAt as string);
    await choose(b, 'paid');
    expect((await status(b)).body.status).toBe('paid');
    await waitFor(() => eventsOf(member.id, 'payment.subscription.activated').length === 2, 'the second payment applied');
    const mine = (await send(h.url, '/api/payment/subscription', { token: member.token })).body;
    expect(mine.status).toBe('active');
    const secondEnd = new Date(mine.subscriptionEndsAt as string);
    // A whole month after the first period, not a few minutes.
    expect(secondEnd.getTime() - firstEnd.getTime()).toBeGreaterThan(27 * DAY);
    expect(await liveSubscriptions(member.id)).toBe(1);
    // Replayed: nothing moves again.
    await status(b);
    await status(a);
    expect((await send(h.url, '/api/payment/subscription', { token: member.token })).body.subscriptionEndsAt).toBe(mine.subscriptionEndsAt);
  });
});
