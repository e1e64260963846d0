// `payment.subscription.renewal-failed` (for the member's notification) on real stores: announced
// once per failed renewal, through the membership's outbox, also when the process stopped right
// after the write and when the webhook comes again.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncPayment } from '../src/memberships/lifecycle.ts';
import type { LocalProvider } from '../src/providers/local/provider.ts';
import { send, startPayment, waitFor, type PaymentHarness } from './helpers.ts';

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
  await h?.close();
  await rm(clockDir, { recursive: true, force: true });
});

const moveClock = async (ms: number) => {
  await writeFile(process.env.RUILPLEIN_CLOCK_FILE!, String(ms));
  await new Promise((r) => setTimeout(r, 250)); // the kit re-reads the file at most every 200 ms
};
const eventsOf = (userId: string, type: string) => h.events.filter((e) => (e.payload as { userId: string }).userId === userId && e.type === type);

/** A Premium member (paid through the checkout page) whose next renewal will fail; answers when Premium ends. */
async function failingMember() {
  const member = await h.member();
  const started = await send(h.url, '/api/payment/start-upgrade-first', { method: 'POST', token: member.token });
  await send(h.url, `/api/payment/checkout/${started.body.paymentId}`, { method: 'POST', form: { outcome: 'paid' } });
  await waitFor(() => eventsOf(member.id, 'payment.subscription.activated').length === 1, 'activated');
  expect(await provider.failNextRenewal(member.id)).toBe(true);
  const ends = (await send(h.url, '/api/payment/subscription', { token: member.token })).body.subscriptionEndsAt as string;
  return { ...member, ends };
}

/**
 * Everything the relay had published is read back: a flush, then one more event (a member made
 * Premium) that comes after it on the stream.
 */
async function settled() {
  await (h.service.workers!.at(-1) as unknown as { flush(): Promise<void> }).flush();
  const marker = await h.member();
  const started = await send(h.url, '/api/payment/start-upgrade-first', { method: 'POST', token: marker.token });
  await send(h.url, `/api/payment/checkout/${started.body.paymentId}`, { method: 'POST', form: { outcome: 'paid' } });
  await waitFor(() => eventsOf(marker.id, 'payment.subscription.activated').length === 1, 'the marker activated');
}

describe('payment.subscription.renewal-failed', () => {
  it('is announced once when a renewal fails, with the end of the paid period; not again when the webhook comes again', async () => {
    const member = await failingMember();
    try {
      await moveClock(new Date(member.ends).getTime() - Date.now() - 60_000); // the renewal day, a minute before the end
      expect(await provider.renewDue()).toBeGreaterThanOrEqual(1);
      await waitFor(() => eventsOf(member.id, 'payment.subscription.renewal-failed').length === 1, 'renewal-failed');
      const [event] = eventsOf(member.id, 'payment.subscription.renewal-failed');
      expect(event!.payload).toEqual({ userId: member.id, version: expect.any(Number), paidUntil: member.ends, at: expect.any(String) });
      // The webhook again (Mollie retries): the payment was applied, nothing more is announced.
      const failed = await h.ctx.payments.findOne({ userId: member.id, kind: 'renewal' });
      expect(failed?.status).toBe('failed');
      await send(h.url, '/api/payment/webhook', { method: 'POST', form: { id: failed!._id } });
      await syncPayment(h.ctx, failed!._id);
      await settled();
      expect(eventsOf(member.id, 'payment.subscription.renewal-failed')).toHaveLength(1);
      expect(eventsOf(member.id, 'payment.subscription.renewed')).toEqual([]);
    } finally {
      await moveClock(0);
    }
  });

  it('is published once when the process stopped right after recording the failure', async () => {
    const member = await failingMember();
    // The provider cannot reach the webhook: the failure is only recorded by the sync below.
    await provider.store.subscriptions.updateOne({ userId: member.id, status: 'active' }, { $set: { webhookUrl: 'http://127.0.0.1:9/api/payment/webhook' } });
    try {
      await moveClock(new Date(member.ends).getTime() - Date.now() - 60_000); // the renewal day, a minute before the end
      expect(await provider.renewDue()).toBeGreaterThanOrEqual(1);
      const failed = await provider.store.payments.findOne({ userId: member.id, sequenceType: 'recurring' });
      expect(failed?.status).toBe('failed');
      // As a replica that died after its write: the change and its event are stored, nobody kicked a relay.
      await syncPayment({ ...h.ctx, relay: { kick: () => {} } }, failed!._id);
      const stored = await h.ctx.memberships.findOne({ _id: member.id });
      expect(stored?.renewalFailed).toBe(true);
      expect(Object.values(stored?.outbox ?? {}).map((e) => e.event?.type)).toContain('payment.subscription.renewal-failed');
      // The next process's relay publishes it at its start.
      await h.restart();
      h.service.ctx.webhookUrl = `${h.url}/api/payment/webhook`;
      await waitFor(() => eventsOf(member.id, 'payment.subscription.renewal-failed').length === 1, 'renewal-failed after the restart');
      await settled();
      expect(eventsOf(member.id, 'payment.subscription.renewal-failed')).toHaveLength(1);
      expect(eventsOf(member.id, 'payment.subscription.renewal-failed')[0]!.payload).toMatchObject({ paidUntil: member.ends });
    } finally {
      await moveClock(0);
    }
  });
});
