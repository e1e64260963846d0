// A stand-in of Mollie's HTTP API (v2) for the tests: the endpoints the official client calls for
// customers, payments and subscriptions, with Mollie's JSON shapes (HAL links, amounts as strings),
// idempotency keys answered with the first result, and a way to settle a payment as Mollie's
// hosted checkout would.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';

/**
 * A self-signed certificate for 127.0.0.1. The official client speaks HTTPS only and trusts only the
 * CA list it bundles, so the test process that uses the stand-in accepts unknown certificates
 * (NODE_TLS_REJECT_UNAUTHORIZED=0, set by the test file; never in a service).
 */
function selfSigned(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'mollie-standin-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex').slice(0, 16)}`;

interface StoredPayment {
  resource: 'payment';
  id: string;
  mode: 'test';
  createdAt: string;
  status: string;
  amount: { currency: string; value: string };
  description: string;
  method: null;
  metadata: unknown;
  sequenceType: string;
  customerId: string;
  subscriptionId?: string;
  redirectUrl?: string;
  webhookUrl?: string;
  paidAt?: string;
  profileId: string;
  _links: Record<string, { href: string; type: string }>;
}

export async function startMollieStandin() {
  const payments = new Map<string, StoredPayment>();
  const customers = new Map<string, { resource: 'customer'; id: string; name: string; metadata: unknown }>();
  const subscriptions = new Map<string, Record<string, unknown>>();
  const keys = new Map<string, unknown>();
  const calls: { method: string; path: string; key?: string }[] = [];
  const app = express();
  app.use(express.json());
  app.use((req, res, next) => {
    calls.push({ method: req.method, path: req.path, ...(req.get('idempotency-key') && { key: req.get('idempotency-key') }) });
    if (!/^Bearer (test|live)_\w+$/.test(req.get('authorization') ?? '')) return res.status(401).json({ status: 401, title: 'Unauthorized Request', detail: 'Missing authentication, or failed to authenticate' });
    next();
  });
  /** The same key answers the first result again, as Mollie does. */
  const once = (req: express.Request, res: express.Response, make: () => unknown) => {
    const key = req.get('idempotency-key');
    const known = key && keys.get(`${req.path}:${key}`);
    const body = known ?? make();
    if (key && !known) keys.set(`${req.path}:${key}`, body);
    res.status(201).json(body);
  };
  const link = (path: string) => ({ href: `https://api.mollie.com/v2/${path}`, type: 'application/hal+json' });

  app.post('/v2/customers', (req, res) =>
    once(req, res, () => {
      const customer = { resource: 'customer' as const, id: id('cst'), name: req.body.name, metadata: req.body.metadata ?? null, mode: 'test', createdAt: new Date().toISOString(), _links: { self: link('customers') } };
      customers.set(customer.id, customer);
      return customer;
    }),
  );
  app.post('/v2/payments', (req, res) =>
    once(req, res, () => {
      const payment: StoredPayment = {
        resource: 'payment',
        id: id('tr'),
        mode: 'test',
        createdAt: new Date().toISOString(),
        status: 'open',
        amount: req.body.amount,
        description: req.body.description,
        method: null,
        metadata: req.body.metadata ?? null,
        sequenceType: req.body.sequenceType ?? 'oneoff',
        customerId: req.body.customerId,
        redirectUrl: req.body.redirectUrl,
        webhookUrl: req.body.webhookUrl,
        profileId: 'pfl_standin',
        _links: { self: link('payments'), checkout: { href: `https://www.mollie.com/checkout/select-method/standin`, type: 'text/html' } },
      };
      payment._links.checkout!.href = `https://www.mollie.com/checkout/select-method/${payment.id}`;
      payments.set(payment.id, payment);
      return payment;
    }),
  );
  app.get('/v2/payments/:id', (req, res) => {
    const payment = payments.get(req.params.id);
    if (!payment) return res.status(404).json({ status: 404, title: 'Not Found', detail: 'No payment exists with token ' + req.params.id });
    res.json(payment);
  });
  app.post('/v2/customers/:customerId/subscriptions', (req, res) =>
    once(req, res, () => {
      const subscription = {
        resource: 'subscription',
        id: id('sub'),
        mode: 'test',
        createdAt: new Date().toISOString(),
        status: 'active',
        amount: req.body.amount,
        times: null,
        interval: req.body.interval,
        startDate: req.body.startDate,
        description: req.body.description,
        method: null,
        webhookUrl: req.body.webhookUrl,
        metadata: req.body.metadata ?? null,
        customerId: req.params.customerId,
        _links: { self: link('subscriptions') },
      };
      subscriptions.set(subscription.id, subscription);
      return subscription;
    }),
  );
  app.delete('/v2/customers/:customerId/subscriptions/:id', (req, res) => {
    const subscription = subscriptions.get(req.params.id);
    if (!subscription || subscription.customerId !== req.params.customerId) return res.status(404).json({ status: 404, title: 'Not Found', detail: 'No subscription' });
    subscription.status = 'canceled';
    res.json(subscription);
  });
  const server = createServer(selfSigned(), app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v2/`;
  return {
    url,
    calls,
    subscriptions,
    /** What Mollie's checkout does when the payer chooses an outcome. */
    settle(paymentId: string, status: 'paid' | 'failed' | 'canceled' | 'expired') {
      const payment = payments.get(paymentId);
      if (!payment || payment.status !== 'open') return false;
      payment.status = status;
      if (status === 'paid') payment.paidAt = new Date().toISOString();
      return true;
    },
    /** A renewal as Mollie charges it on a subscription. */
    renew(subscriptionId: string, status: 'paid' | 'failed') {
      const sub = subscriptions.get(subscriptionId)!;
      const payment: StoredPayment = {
        resource: 'payment', id: id('tr'), mode: 'test', createdAt: new Date().toISOString(), status, amount: sub.amount as StoredPayment['amount'], description: String(sub.description), method: null,
        metadata: sub.metadata, sequenceType: 'recurring', customerId: String(sub.customerId), subscriptionId, profileId: 'pfl_standin', ...(status === 'paid' && { paidAt: new Date().toISOString() }),
        _links: { self: link('payments') },
      };
      payments.set(payment.id, payment);
      return payment.id;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())).finally(() => server.closeAllConnections()),
  };
}
export type MollieStandin = Awaited<ReturnType<typeof startMollieStandin>>;
