import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { testStores } from '@ruilplein/local/testing';
import { connectBus, connectMongo, parseConfig, type Bus, type Connection, type ListedDevMail, type ServiceParts } from '@ruilplein/service-kit';
import { body, listen, silentLogger } from '@ruilplein/service-kit/testing';
import { createClient, type RedisClientType } from 'redis';
import { expect } from 'vitest';
import { authConfig, createAuthService, type AuthDeps } from '../src/app.ts';

export const testKeyPem = () => generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** A client address of its own per test (the service trusts X-Forwarded-For from loopback, as from the gateway). */
export const randomIp = () => `10.${[1, 2, 3].map(() => Math.floor(Math.random() * 254) + 1).join('.')}`;
export const uniqueEmail = (name = 'lid') => `${name}.${randomUUID().slice(0, 8)}@Voorbeeld.nl`;
export const GOOD_PASSWORD = 'Geheim123';

export interface RunningAuth {
  url: string;
  db: Connection;
  bus: Bus;
  redis: RedisClientType;
  service: ServiceParts;
  /** Stops this service instance (its stores stay for the next). */
  stop(): Promise<void>;
}

export interface AuthStores {
  db: Connection;
  bus: Bus;
  redis: RedisClientType;
  close(): Promise<void>;
}

/** One database per test file, the run's shared NATS and Redis. */
export async function authStores(): Promise<AuthStores> {
  const { mongoUrl, natsUrl, redisUrl } = testStores();
  const redis: RedisClientType = createClient({ url: redisUrl });
  const [db, bus] = await Promise.all([connectMongo(mongoUrl, `auth-${randomUUID().slice(0, 8)}`), connectBus(natsUrl, 'auth-test'), redis.connect()]);
  return {
    db,
    bus,
    redis,
    async close() {
      await db.dropDatabase();
      await Promise.all([db.close(), bus.nc.drain(), redis.quit()]);
    },
  };
}

/** The auth service over real HTTP, in local mode (mail outbox at /dev/mail) unless `env` says otherwise. */
export async function startAuth(stores: AuthStores, env: Record<string, string> = {}, extra: Partial<AuthDeps> = {}): Promise<RunningAuth> {
  const config = parseConfig(authConfig, {
    REDIS_URL: testStores().redisUrl,
    RUILPLEIN_MODE: 'local',
    PUBLIC_URL: 'http://ruilplein.test',
    AUTH_JWT_PRIVATE_KEY: testKeyPem(),
    ...env,
  });
  const service = await createAuthService({ db: stores.db, bus: stores.bus, redis: stores.redis, logger: silentLogger(), config, ...extra });
  const served = await listen(service.app);
  return {
    url: served.url,
    ...stores,
    service,
    async stop() {
      await served.close();
      for (const worker of service.workers ?? []) await worker.stop();
    },
  };
}

/** A mail as the local outbox lists it (/dev/mail/messages.json). */
export type SentMail = ListedDevMail;

export async function mailsTo(url: string, to: string): Promise<SentMail[]> {
  // One addressee's: the local outbox holds the mail of every test of the run.
  return body(await fetch(`${url}/dev/mail/messages.json?to=${encodeURIComponent(to.toLowerCase())}`));
}

/**
 * Waits for the `count`-th mail to `to` carrying a `page` link and returns the token of the newest
 * such link: the relay sends after the response, so another kind of mail may be the newest one.
 */
export async function linkTokenFromMail(url: string, to: string, page: 'verify-email' | 'change-password', count = 1): Promise<string> {
  const link = new RegExp(`http://ruilplein\\.test/${page}\\?token=([\\w-]+)`);
  const withLink = async () => (await mailsTo(url, to)).filter((m) => link.test(m.text));
  await expect.poll(async () => (await mailsTo(url, to)).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
  await expect.poll(async () => (await withLink()).length, { timeout: 15_000 }).toBeGreaterThan(0);
  const [newest] = await withLink();
  return link.exec(newest!.text)![1]!;
}

export const post = (url: string, path: string, payload: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': randomIp(), ...headers },
    body: typeof payload === 'string' && headers['content-type'] ? payload : JSON.stringify(payload),
  });

/** Registers, activates through the mailed link and logs in: a member with a token. */
export async function signUp(url: string, fields: { email?: string; firstName?: string; password?: string } = {}) {
  const email = fields.email ?? uniqueEmail();
  const password = fields.password ?? GOOD_PASSWORD;
  const registered = await post(url, '/api/auth/register', { firstName: fields.firstName ?? 'Sanne', lastName: 'Jansen', email, password });
  expect(registered.status).toBe(201);
  const token = await linkTokenFromMail(url, email, 'verify-email');
  expect((await fetch(`${url}/api/auth/activate?token=${token}`)).status).toBe(200);
  const login = await post(url, '/api/auth/login', { email, password });
  expect(login.status).toBe(200);
  const { token: accessToken, user } = await body(login);
  return { email: email.toLowerCase(), password, token: accessToken as string, id: user.id as string };
}
