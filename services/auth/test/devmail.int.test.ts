// The local mail outbox holds every member's activation and reset links: only a client on the same
// machine may read it, told by the connection's own address, never by a header.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { testStores } from '@ruilplein/local/testing';
import { connectMongo, devMailRoutes, localMailTransport, MESSAGES, type Connection } from '@ruilplein/service-kit';
import { silentLogger } from '@ruilplein/service-kit/testing';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const outside = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

let db: Connection;
// The local outbox is one database for the whole platform; this file's own, so parallel tests keep apart.
const database = `devmail-${randomUUID().slice(0, 8)}`;
const server = createServer();
let port = 0;

beforeAll(async () => {
  db = await connectMongo(testStores().mongoUrl, `auth-devmail-${randomUUID().slice(0, 8)}`);
  await localMailTransport(db, 'auth', { database }).send(randomUUID(), { to: 'lid@voorbeeld.nl', subject: 'Activeer je account', text: 'link', html: '<p>link</p>', transactional: true });
  const app = express();
  const router = express.Router();
  devMailRoutes(router, db, silentLogger(), { database });
  app.use(router);
  server.on('request', app);
  // Every interface, so the same server is reached over loopback and over the network.
  server.listen(0);
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await Promise.all([db.dropDatabase(), db.useDb(database).dropDatabase()]);
  await db.close();
});

describe('/dev/mail', () => {
  it('is served to a client on this machine', async () => {
    const list = await fetch(`http://127.0.0.1:${port}/dev/mail/messages.json`);
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual([expect.objectContaining({ to: 'lid@voorbeeld.nl' })]);
    expect((await fetch(`http://127.0.0.1:${port}/dev/mail`)).status).toBe(200);
  });

  it.skipIf(!outside)('is a 404 to a client elsewhere, whatever its headers claim', async () => {
    for (const path of ['/dev/mail', '/dev/mail/messages.json', '/Dev/Mail/messages.json']) {
      const res = await fetch(`http://${outside}:${port}${path}`, { headers: { 'x-forwarded-for': '127.0.0.1', 'x-real-ip': '127.0.0.1' } });
      expect(res.status, path).toBe(404);
      expect(await res.json()).toEqual({ message: MESSAGES.notFound });
    }
  });
});
