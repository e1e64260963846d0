// The member's mails about Premium (issue 27) on real stores: a receipt after the first payment and
// after each renewal, a mail after cancelling that says until when Premium lasts and what then; each
// once, also when the sweep composes again, and none for a member auth has no address for.
import { testClock, type TestClock } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatEuros, PAYMENT_MESSAGES, PREMIUM_PRICE_CENTS } from '@ruilplein/contracts';
import { composeDueMails } from '../src/memberships/mails.ts';
import type { LocalProvider } from '../src/providers/local/provider.ts';
import { addressOf, send, startPayment, waitFor, type PaymentHarness } from './helpers.ts';

const DAY = 86_400_000;
let h: PaymentHarness;
let provider: LocalProvider;
let clock: TestClock;

beforeAll(async () => {
  clock = await testClock();
  h = await startPayment();
  provider = h.ctx.provider as LocalProvider;
});
afterAll(async () => {
  await h?.close();
  await clock?.close();
});

// The service runs in this process: the move applies at once.
const moveClock = (ms: number) => clock.move(ms);
const mailsTo = (id: string) => h.mails.filter((mail) => mail.to === addressOf(id));
const dutch = (iso: string) => new Intl.DateTimeFormat('nl-NL', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Amsterdam' }).format(new Date(iso));

async function premiumMember() {
  const member = await h.member();
  const started = await send(h.url, '/api/payment/start-upgrade-first', { method: 'POST', token: member.token });
  await send(h.url, `/api/payment/checkout/${started.body.paymentId}`, { method: 'POST', form: { outcome: 'paid' } });
  await waitFor(() => mailsTo(member.id).length === 1, 'the first receipt');
  return member;
}

describe('Premium mails', () => {
  it('a receipt after the first payment, with the amount and the end of the period', async () => {
    const member = await premiumMember();
    const ends = (await send(h.url, '/api/payment/subscription', { token: member.token })).body.subscriptionEndsAt as string;
    const [receipt] = mailsTo(member.id);
    expect(receipt).toMatchObject({ subject: 'Betaalbewijs: Ruilplein Premium', transactional: true });
    expect(receipt!.text).toContain(`Bedrag: ${formatEuros(PREMIUM_PRICE_CENTS)} (incl. btw)`);
    expect(receipt!.text).toContain(`Premium tot: ${dutch(ends)}`);
    expect(receipt!.text).toContain('http://ruilplein.test/dashboard/membership');
    expect(receipt!.html).toContain(formatEuros(PREMIUM_PRICE_CENTS));
    // The sweep finds nothing left to compose: one receipt.
    expect(await composeDueMails(h.ctx)).toBe(0);
    expect(mailsTo(member.id)).toHaveLength(1);
  });

  it('a receipt after each renewal', async () => {
    const member = await premiumMember();
    try {
      await moveClock(31 * DAY);
      expect(await provider.renewDue()).toBeGreaterThanOrEqual(1);
      await waitFor(() => mailsTo(member.id).length === 2, 'the renewal receipt');
      expect(mailsTo(member.id)[1]).toMatchObject({ subject: 'Betaalbewijs: verlenging Ruilplein Premium' });
      expect(mailsTo(member.id)[1]!.text).toContain('Ruilplein Premium, verlenging (1 maand)');
    } finally {
      await moveClock(0);
    }
  });

  it('a mail after cancelling: the seed’s words, until when Premium lasts and what happens then', async () => {
    const member = await premiumMember();
    const cancelled = await send(h.url, '/api/payment/cancel-subscription', { method: 'POST', token: member.token });
    expect(cancelled.status).toBe(200);
    await waitFor(() => mailsTo(member.id).length === 2, 'the cancellation mail');
    const mail = mailsTo(member.id)[1]!;
    expect(mail.subject).toBe('Je Premium-abonnement is opgezegd');
    expect(mail.text).toContain(PAYMENT_MESSAGES.cancelled);
    expect(mail.text).toContain(`Je houdt Premium tot ${dutch(cancelled.body.subscriptionEndsAt as string)}. Daarna word je weer Standaard-lid`);
    // Cancelling again changes nothing and mails nothing.
    await send(h.url, '/api/payment/cancel-subscription', { method: 'POST', token: member.token });
    expect(await composeDueMails(h.ctx)).toBe(0);
    expect(mailsTo(member.id)).toHaveLength(2);
  });

  it('a member auth has no address for gets no mail, and the note does not stay behind', async () => {
    const member = await h.member();
    const contacts = h.ctx.contacts;
    h.ctx.contacts = async () => new Map();
    try {
      const started = await send(h.url, '/api/payment/start-upgrade-first', { method: 'POST', token: member.token });
      await send(h.url, `/api/payment/checkout/${started.body.paymentId}`, { method: 'POST', form: { outcome: 'paid' } });
      await waitFor(async () => (await h.ctx.memberships.findOne({ _id: member.id }))?.status === 'active', 'active');
      await waitFor(async () => !(await h.ctx.memberships.findOne({ _id: member.id }))?.mailsDuePending, 'the note handled');
    } finally {
      h.ctx.contacts = contacts;
    }
    expect(await composeDueMails(h.ctx)).toBe(0);
    expect(mailsTo(member.id)).toEqual([]);
  });
});
