// vitest globalSetup of the integration project: one set of servers for the whole run.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { NATS_SERVICES, startStores } from './stores.ts';

export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(join(tmpdir(), 'ruilplein-test-'));
  // Never the platform's MONGODB_URL etc.: tests must not touch a running platform's data.
  const stores = await startStores({ dataDir, envPrefix: 'TEST_' });
  const natsServiceUrls = stores.kind.nats === 'env' ? undefined : Object.fromEntries(NATS_SERVICES.map((s) => [s, stores.natsUrlFor(s)]));
  project.provide('stores', { mongoUrl: stores.mongoUrl, redisUrl: stores.redisUrl, natsUrl: stores.natsUrl, natsServiceUrls });
  return async () => {
    await stores.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
