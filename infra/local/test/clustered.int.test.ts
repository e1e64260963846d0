// `npm start -- --replicas 2` (issue 25, clustered local mode): two instances of every service
// behind two gateways behind the edge, a three-node NATS cluster, every stream at three replicas. The same
// startPlatform as `npm start`, on free ports and fresh stores.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NAMES } from '@ruilplein/contracts';
import { connectBus } from '@ruilplein/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_NATS_NODES, startPlatform, type Platform } from '../src/platform.ts';

let dataDir: string;
let platform: Platform;
/** Request ids each instance logged (its pino-http line), by instance label (`listing`, `listing-2`). */
const logged = new Map<string, string[]>();

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'ruilplein-clustered-'));
  platform = await startPlatform({
    dataDir,
    ports: 'free',
    build: false,
    envPrefix: false,
    replicas: 2,
    onServiceLine: (label, line) => {
      const id = /"req":\{"id":"(clustered-[^"]+)"/.exec(line)?.[1];
      if (id) logged.set(label, [...(logged.get(label) ?? []), id]);
    },
  });
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the clustered local mode', () => {
  it('runs two instances of every service, each answering', async () => {
    for (const name of SERVICE_NAMES) {
      const instances = platform.services.filter((s) => s.name === name);
      expect(instances.map((s) => s.replica)).toEqual([1, 2]);
      for (const s of instances) expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    }
    expect(platform.services.filter((s) => s.name === 'gateway').map((s) => s.replica)).toEqual([1, 2]);
  });

  it('spreads requests through the edge over both gateways, and through them over both instances of a service', async () => {
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${platform.url}/api/category`, { headers: { 'x-request-id': `clustered-${i}` } });
      expect(res.status).toBe(200);
    }
    // pino-http writes its line as the answer ends, and the gateways' come after the services':
    // wait for all six of each.
    const count = (a: string, b: string) => (logged.get(a)?.length ?? 0) + (logged.get(b)?.length ?? 0);
    await expect.poll(() => count('listing', 'listing-2'), { timeout: 5000 }).toBe(6);
    await expect.poll(() => count('gateway', 'gateway-2'), { timeout: 5000 }).toBe(6);
    // The edge takes turns over the gateways, each gateway over the instances.
    expect(logged.get('gateway')).toHaveLength(3);
    expect(logged.get('gateway-2')).toHaveLength(3);
    expect(logged.get('listing')?.length).toBeGreaterThan(0);
    expect(logged.get('listing-2')?.length).toBeGreaterThan(0);
  });

  it('keeps every stream on all three NATS nodes', async () => {
    const cluster = platform.stores.natsCluster!;
    expect(cluster.nodes).toHaveLength(CLUSTER_NATS_NODES);
    const bus = await connectBus(platform.stores.natsUrl, 'clustered-test');
    try {
      const streams = await bus.jsm.streams.list().next();
      // The services made their streams at start: at least the publishing services' and the dead letters'.
      expect(streams.length).toBeGreaterThan(3);
      for (const stream of streams) {
        expect({ stream: stream.config.name, replicas: stream.config.num_replicas }).toEqual({ stream: stream.config.name, replicas: CLUSTER_NATS_NODES });
        expect(stream.cluster?.replicas ?? []).toHaveLength(CLUSTER_NATS_NODES - 1);
      }
    } finally {
      await bus.nc.close();
    }
  });

  it('keeps answering through the other instance while one is down, and takes the killed one back', async () => {
    const [first, second] = platform.services.filter((s) => s.name === 'listing');
    const ask = (i: number) => fetch(`${platform.url}/api/category`, { headers: { 'x-request-id': `clustered-down-${i}` } }).then((res) => res.status);
    await first!.kill();
    try {
      // The gateway passes over the refused instance: every member's request answers.
      const statuses = await Promise.all(Array.from({ length: 6 }, (_, i) => ask(i)));
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
      await expect.poll(() => logged.get('listing-2')?.filter((id) => id.startsWith('clustered-down-')).length ?? 0, { timeout: 5000 }).toBe(6);
    } finally {
      first!.restart();
    }
    await expect.poll(async () => (await fetch(`${first!.url}/readyz`).catch(() => undefined))?.status, { timeout: 30_000, interval: 200 }).toBe(200);
    expect((await fetch(`${second!.url}/readyz`)).status).toBe(200);
  });

  it('keeps answering through the other gateway while one is down, and sends to it again once it is back', async () => {
    const [first] = platform.services.filter((s) => s.name === 'gateway');
    const ask = (id: string) => fetch(`${platform.url}/api/category`, { headers: { 'x-request-id': id } }).then((res) => res.status);
    const seenBy = (label: string, prefix: string) => logged.get(label)?.filter((id) => id.startsWith(prefix)).length ?? 0;
    const login = (i: number) =>
      fetch(`${platform.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': `clustered-gw-login-${i}` },
        body: JSON.stringify({ email: 'niemand@example.org', password: 'fout-wachtwoord' }),
      }).then((res) => res.status);
    await first!.kill();
    try {
      // The first requests after the kill, before the edge knows: the edge takes turns, so one of
      // two meets the refusal, and its body goes to the other gateway.
      expect([await login(0), await login(1)]).toEqual([401, 401]);
      await expect.poll(() => seenBy('gateway-2', 'clustered-gw-login-'), { timeout: 5000 }).toBe(2);
      expect(await Promise.all(Array.from({ length: 6 }, (_, i) => ask(`clustered-gw-down-${i}`)))).toEqual([200, 200, 200, 200, 200, 200]);
    } finally {
      first!.restart();
    }
    await expect.poll(async () => (await fetch(`${first!.url}/readyz`).catch(() => undefined))?.status, { timeout: 30_000, interval: 200 }).toBe(200);
    // The edge's probe finds it back: requests reach it again.
    let n = 0;
    await expect.poll(async () => (await ask(`clustered-gw-back-${n++}`)) === 200 && seenBy('gateway', 'clustered-gw-back-') > 0, { timeout: 10_000, interval: 100 }).toBe(true);
  });
});

