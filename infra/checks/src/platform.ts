// The platform for the generated checks: every service as a real process behind the gateway and
// the edge, on the integration run's stores, with signed-in members of every kind.
import { randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPlatform, type Platform } from '@ruilplein/local/platform';
import { testStores } from '@ruilplein/local/testing';
import { createClient } from 'redis';
import { DEMO_ADMIN_EMAIL, DEMO_MEMBERS, DEMO_PASSWORD } from '@ruilplein/contracts/demo';

/** Who calls: nobody, two ordinary members, a Premium member and a Beheerder. */
export const ROLES = ['guest', 'member', 'other', 'premium', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export type SignedInRole = Exclude<Role, 'guest'>;

/** The accounts local mode seeds (packages/contracts/src/demo.ts), one per signed-in role; `fuzzer` is schemathesis'. */
export const ACCOUNT_EMAILS: Record<SignedInRole | 'fuzzer', string> = {
  member: 'sanne@ruilplein.local',
  other: 'daan@ruilplein.local',
  premium: 'lotte@ruilplein.local',
  admin: DEMO_ADMIN_EMAIL,
  fuzzer: 'fatima@ruilplein.local',
};

export interface Session {
  id: string;
  token: string;
  /** The cookies the login set (the refresh token), as a Cookie header. */
  cookie: string;
}

export interface ChecksPlatform {
  /** The edge: every call takes the path a browser's does (edge, gateway, service). */
  url: string;
  /** Each running service's own address (the gateway's too), by name. */
  services: ReadonlyMap<string, string>;
  logDir: string;
  /** A fresh login of the role's account (a call that ends a session needs one afterwards). */
  signIn(role: SignedInRole | 'fuzzer'): Promise<Session>;
  stop(): Promise<void>;
}

/**
 * Limits the checks must not run into: the gateway's per-client and per-member limits. The
 * routes' own declared limits stay as they are: a 429 from one is reported, never taken as a pass.
 */
const SERVICE_ENV = { RATE_LIMIT_PER_IP: '1000000', RATE_LIMIT_PER_USER: '1000000', LOG_LEVEL: 'warn' };

const REDIS_DATABASE = 9;

export async function startChecksPlatform(): Promise<ChecksPlatform> {
  const dataDir = await mkdtemp(join(tmpdir(), 'ruilplein-checks-'));
  const { mongoUrl, redisUrl, natsUrl } = testStores();
  // startPlatform reads existing stores and the services' variables from the environment.
  // A Redis database of its own: the fuzzing's failed logins and mails must not throttle the other
  // test files, which count from the shared server's database 0.
  const redis = new URL(redisUrl);
  redis.pathname = `/${REDIS_DATABASE}`;
  // Its own, so emptied first: a run starts with no counters left by the one before.
  const client = await createClient({ url: redis.href }).connect();
  await client.flushDb();
  await client.quit();
  const env = { CHECKS_MONGODB_URL: mongoUrl, CHECKS_REDIS_URL: redis.href, CHECKS_NATS_URL: natsUrl, ...SERVICE_ENV };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  let platform: Platform;
  try {
    platform = await startPlatform({ dataDir, ports: 'free', build: false, envPrefix: 'CHECKS_' });
  } catch (err) {
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  const services = new Map(platform.services.map((s) => [s.name, s.url]));
  const authUrl = services.get('auth');
  return {
    url: platform.url,
    services,
    logDir: join(dataDir, 'logs'),
    async signIn(role) {
      if (!authUrl) throw new Error('the auth service is not running: nobody can sign in');
      const email = ACCOUNT_EMAILS[role];
      if (!Object.values(DEMO_MEMBERS).some((a) => a.email === email)) throw new Error(`${email} is no longer a seeded demo account`);
      // Straight to auth, from an address of its own: the fuzzing's failed logins count per client
      // and must not lock these logins out (auth trusts X-Forwarded-For from loopback, as from the gateway).
      const res = await fetch(`${authUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${randomInt(1, 255)}` },
        body: JSON.stringify({ email, password: DEMO_PASSWORD }),
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`login of ${email} (${role}): ${res.status} ${text}`);
      const { token, user } = JSON.parse(text) as { token: string; user: { id: string } };
      const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      return { id: user.id, token, cookie };
    },
    async stop() {
      await platform.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
