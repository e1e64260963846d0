// Runs the built images the way the charts run them: read-only root filesystem, the image's
// non-root user, no capabilities. Services against the local stores (as `npm start` starts them),
// frontends alone.
import { generateKeyPairSync } from 'node:crypto';
import { SERVICE_NAMES, upstreamVariable } from '@ruilplein/contracts';
import { freePort, startStores } from '../../local/src/stores.ts';
import type { Deployable } from '../../k8s/src/checks.ts';
import { imageRef } from './build.ts';
import { ImageError, podman, ulimits } from './podman.ts';

/** What a container gets besides its environment: the restrictions of the charts' securityContext. */
const locked = ['--read-only', '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges', ...ulimits];

/** A USER that is neither empty nor root (name or uid 0). */
export const isNonRootUser = (user: string) => !!user && !/^(0|root)(:|$)/.test(user);

/** The environment of one service container, as `npm start` gives it (infra/local/src/platform.ts). */
export function serviceEnv(
  name: string,
  ports: Record<string, number>,
  stores: { mongoUrl: string; redisUrl: string; natsUrlFor(service: string): string },
  jwtKey: string,
): Record<string, string> {
  const domain = SERVICE_NAMES as readonly string[];
  return {
    PORT: `${ports[name]}`,
    HOST: '127.0.0.1',
    TRUSTED_PROXY_HOPS: name === 'gateway' ? '1' : '2',
    MONGODB_URL: stores.mongoUrl,
    REDIS_URL: stores.redisUrl,
    ...(domain.includes(name) && { NATS_URL: stores.natsUrlFor(name) }),
    AUTH_JWKS_URL: `http://127.0.0.1:${ports.auth}/.well-known/jwks.json`,
    ...Object.fromEntries(domain.filter((d) => d in ports).map((d) => [upstreamVariable(d as (typeof SERVICE_NAMES)[number]), `http://127.0.0.1:${ports[d]}`])),
    RUILPLEIN_MODE: 'local',
    PUBLIC_URL: 'http://localhost:8080',
    ...(name === 'auth' && { AUTH_JWT_PRIVATE_KEY: jwtKey }),
    LOG_LEVEL: 'warn',
  };
}

export interface SmokeResult {
  name: string;
  detail: string;
}

const containers = new Set<string>();

/** Removes every container this run started (also from a signal handler). */
export async function removeContainers(): Promise<void> {
  const names = [...containers];
  containers.clear();
  if (names.length) await podman(['rm', '--force', '--time', '2', ...names]);
}

async function imageUser(ref: string): Promise<string> {
  const r = await podman(['image', 'inspect', '--format', '{{.Config.User}}', ref]);
  if (!r.ok || !isNonRootUser(r.stdout.trim())) throw new ImageError(`${ref}: USER is ${JSON.stringify(r.stdout.trim())}, not a non-root user`);
  return r.stdout.trim();
}

async function runContainer(name: string, args: string[]): Promise<string> {
  const container = `ruilplein-images-${process.pid}-${name}`;
  containers.add(container);
  const r = await podman(['run', '--detach', '--name', container, ...args]);
  if (!r.ok) throw new ImageError(`podman run ${name}: ${r.stderr.trim()}`);
  return container;
}

async function logsOf(container: string): Promise<string> {
  const r = await podman(['logs', '--tail', '30', container]);
  return (r.stdout + r.stderr).trim();
}

/** Every service image at once against fresh local stores: /healthz and /readyz must answer 200. */
export async function smokeServices(services: Deployable[], dataDir: string, log: (line: string) => void): Promise<SmokeResult[]> {
  const stores = await startStores({ dataDir, envPrefix: false, natsUsers: SERVICE_NAMES });
  try {
    const ports: Record<string, number> = {};
    for (const s of services) ports[s.name] = await freePort();
    const jwtKey = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    // One after the other, each up (/healthz) before the next starts: eight Node processes starting
    // at once on two cores miss their store connection timeouts. /readyz once all run (the gateway's
    // readiness includes its upstreams).
    const started = new Map<string, { container: string; user: string }>();
    for (const s of services) {
      const user = await imageUser(imageRef(s.name));
      const env = Object.entries(serviceEnv(s.name, ports, stores, jwtKey)).flatMap(([k, v]) => ['--env', `${k}=${v}`]);
      // Host network: the stores listen on the host's loopback.
      const container = await runContainer(s.name, ['--network', 'host', ...locked, '--user', user, ...env, imageRef(s.name)]);
      started.set(s.name, { container, user });
      await answers200(s.name, container, `http://127.0.0.1:${ports[s.name]}/healthz`, 60_000);
    }
    const results: SmokeResult[] = [];
    for (const s of services) {
      const { container, user } = started.get(s.name)!;
      await answers200(s.name, container, `http://127.0.0.1:${ports[s.name]}/readyz`, 60_000);
      results.push({ name: s.name, detail: `/healthz 200, /readyz 200 (read-only, user ${user}, no capabilities)` });
      log(`${s.name}: /healthz and /readyz 200, read-only root, user ${user}`);
    }
    return results;
  } finally {
    await removeContainers();
    await stores.stop();
  }
}

/** Polls `url` until it answers 200; fails when the container exits or time runs out. */
async function answers200(name: string, container: string, url: string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const status = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    const running = (await podman(['inspect', '--format', '{{.State.Running}}', container])).stdout.trim() === 'true';
    if (!running || performance.now() > deadline)
      throw new ImageError(`${name}: ${new URL(url).pathname} answered ${status || 'nothing'} (${running ? 'timed out' : 'container exited'}):\n${await logsOf(container)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** What each frontend must serve: the shell its page, a remote its Module Federation manifest. */
export function frontendPaths(name: string): Array<{ path: string; expect: RegExp }> {
  const own = name === 'shell' ? { path: '/', expect: /<html/i } : { path: `/mfe/${name.replace(/^mfe-/, '')}/mf-manifest.json`, expect: /"remoteEntry"|"exposes"/ };
  return [{ path: '/healthz', expect: /^ok/ }, own];
}

/**
 * Each frontend image alone, without a network (nginx listens on 8080 inside, where a running
 * `npm start` may hold the host's 8080): fetched from inside with the image's own wget.
 */
export async function smokeFrontends(frontends: Deployable[], log: (line: string) => void): Promise<SmokeResult[]> {
  const results: SmokeResult[] = [];
  try {
    for (const f of frontends) {
      const user = await imageUser(imageRef(f.name));
      const container = await runContainer(f.name, ['--network', 'none', ...locked, '--user', user, imageRef(f.name)]);
      for (const { path, expect } of frontendPaths(f.name)) {
        const deadline = performance.now() + 20_000;
        for (;;) {
          const r = await podman(['exec', container, 'wget', '-q', '-O', '-', `http://127.0.0.1:8080${path}`]);
          if (r.ok && expect.test(r.stdout)) break;
          if (performance.now() > deadline) throw new ImageError(`${f.name}: ${path} did not serve ${expect}:\n${r.stdout.slice(0, 300)}${r.stderr}\n${await logsOf(container)}`);
          await new Promise((res) => setTimeout(res, 300));
        }
      }
      await removeContainers();
      const paths = frontendPaths(f.name).map((p) => p.path);
      results.push({ name: f.name, detail: `serves ${paths.join(' and ')} (read-only, user ${user})` });
      log(`${f.name}: serves ${paths.join(' and ')}, read-only root, user ${user}`);
    }
    return results;
  } finally {
    await removeContainers();
  }
}
