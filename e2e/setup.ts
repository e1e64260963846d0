// vitest globalSetup of the e2e project: the whole platform, started by the runner's own code
// (`npm start` uses the same function) on free ports with its own stores and a temp data dir, so
// it never touches a running `npm start`. Builds the frontends first if their builds are stale.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { clockFileOf, startPlatform, type Platform } from '@ruilplein/local/platform';
import type {} from './context.ts';

const say = (line: string) => console.log(`[e2e] ${line}`);

export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(join(tmpdir(), 'ruilplein-e2e-'));
  const started = performance.now();
  let platform: Platform;
  try {
    // Every browser test signs its members up from 127.0.0.1: more than a real address would in an hour.
    process.env.AUTH_REGISTRATIONS_PER_IP_HOUR ??= '500';
    // …and every member's page calls from there: the gateway's per-address limit (600 a minute) is
    // shared by all of them at once, where a city's members each have their own. Per member it stays.
    process.env.RATE_LIMIT_PER_IP ??= '6000';
    // Journeys move the clock past a Premium period's end and wait for it to end, not for a minute.
    process.env.PAYMENT_SWEEP_SECONDS ??= '1';
    process.env.MODERATION_SWEEP_SECONDS ??= '1';
    // TEST_MONGODB_URL etc. as for the integration tests; never the platform's MONGODB_URL.
    platform = await startPlatform({ dataDir, ports: 'free', build: true, envPrefix: 'TEST_', log: say });
  } catch (err) {
    say(`the platform did not start; its logs are in ${join(dataDir, 'logs')}`);
    throw err;
  }
  say(`platform up at ${platform.url} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const control = await listenControl(platform);
  project.provide('e2e', {
    url: platform.url,
    controlUrl: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
    tmpDir: dataDir,
    clockFile: clockFileOf(dataDir),
    mongoUrl: platform.stores.mongoUrl,
    remotes: Object.fromEntries(platform.frontends.flatMap((f) => (f.remote ? [[f.remote, f.dist]] : []))),
  });
  return async () => {
    control.closeAllConnections();
    await new Promise((resolve) => control.close(resolve));
    await platform.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}

/**
 * The test files run in other processes than this one, which owns the edge: they switch a remote
 * off or onto another build with `POST /remotes/<name>` `{ "blocked": true }` / `{ "dir": "…" | null }`.
 */
async function listenControl(platform: Platform): Promise<Server> {
  const server = createServer(async (req, res) => {
    const name = /^\/remotes\/([\w-]+)$/.exec(req.url ?? '')?.[1];
    if (req.method !== 'POST' || !name) return void res.writeHead(404).end();
    let body = '';
    for await (const chunk of req) body += chunk;
    try {
      const change = JSON.parse(body || '{}') as { blocked?: boolean; dir?: string | null };
      if (change.blocked !== undefined) platform.edge.blockRemote(name, change.blocked);
      if (change.dir !== undefined) platform.edge.serveRemoteFrom(name, change.dir ?? undefined);
      res.writeHead(204).end();
    } catch (err) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(err instanceof Error ? err.message : String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
