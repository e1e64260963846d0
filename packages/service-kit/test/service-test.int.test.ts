// The services' test harness on the real stores: a service made from the test's connections, members
// announced as auth announces them and projected by the service's own consumer, the service's events
// collected, a restart on the same stores, and a clean close.
import express from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { memberProjection, type Worker } from '../src/index.ts';
import { send, startServiceForTest, waitFor, type ServiceTest } from '../src/testing.ts';
import type { ServiceParts } from '../src/run.ts';

// Not a registered service: the privileged NATS user, a stream of its own.
const SERVICE = 'kitharness';
let h: ServiceTest<ServiceParts & { starts: number }>;
let starts = 0;

beforeAll(async () => {
  h = await startServiceForTest({
    service: SERVICE,
    streams: ['auth'],
    memberDefaults: () => ({ lastName: 'Harnas' }),
    async create({ db, bus, verifyToken, logger }) {
      const members = memberProjection(db, { fields: ['firstName', 'lastName'] });
      const consumer: Worker = await members.consume(bus, { durable: `${SERVICE}-members`, logger });
      const app = express();
      app.get('/wie', async (req, res) => {
        const { userId } = await verifyToken(String(req.headers.authorization).slice('Bearer '.length));
        res.json(await members.byId(userId));
      });
      app.post('/klaar', async (_req, res) => {
        await bus.js.publish(`${SERVICE}.thing.done`, JSON.stringify({ type: `${SERVICE}.thing.done`, payload: { n: 1 } }));
        res.type('text').send('klaar');
      });
      return { app, workers: [consumer], starts: ++starts };
    },
  });
});
afterAll(async () => {
  await h?.close();
});

it('announces members as auth does and waits until the service projected them; their tokens are the issuer\'s', async () => {
  const sanne = await h.member({ firstName: 'Sanne' });
  expect(sanne.state).toMatchObject({ firstName: 'Sanne', lastName: 'Harnas', version: 1, roles: ['Gebruiker'] });
  expect((await send(h.url, '/wie', { token: sanne.token })).body).toMatchObject({ _id: sanne.id, firstName: 'Sanne', lastName: 'Harnas' });
  await sanne.update({ firstName: 'Sanna' });
  expect((await send(h.url, '/wie', { token: sanne.token })).body).toMatchObject({ firstName: 'Sanna', version: 2 });
  await sanne.remove();
  expect((await send(h.url, '/wie', { token: sanne.token })).body).toMatchObject({ deleted: true, version: 3 });
});

it('collects what the service publishes on its own stream, and answers text bodies as text', async () => {
  const res = await send(h.url, '/klaar', { method: 'POST' });
  expect(res).toMatchObject({ status: 200, body: 'klaar' });
  await waitFor(() => h.events.some((e) => e.type === `${SERVICE}.thing.done`), 'the event collected');
});

it('restarts the service on the same stores', async () => {
  const [before, member] = [h.url, await h.member()];
  await h.restart();
  expect(h.service.starts).toBe(2);
  expect(h.url).not.toBe(before);
  expect((await send(h.url, '/wie', { token: member.token })).body).toMatchObject({ _id: member.id });
});

it('waitFor fails in time, naming what did not happen', async () => {
  await expect(waitFor(() => false, 'nooit', 60)).rejects.toThrow('not in time: nooit');
});
