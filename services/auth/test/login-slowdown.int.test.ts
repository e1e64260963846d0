// The per-account slow-down of failed logins across all client addresses (probe: six addresses
// allowed 30 guesses): past LOGIN_SLOWDOWN.freeFailures every attempt for the account waits an
// increasing delay, whatever address it comes from, while the owner's known address and a
// password reset still get in. Time is the platform's clock file, moved by the test.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUTH_MESSAGES, LOGIN_SLOWDOWN } from '@ruilplein/contracts';
import { body } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authStores, GOOD_PASSWORD, linkTokenFromMail, post, signUp, startAuth, type AuthStores, type RunningAuth } from './helpers.ts';

let stores: AuthStores;
let auth: RunningAuth;
let clockDir: string;
let offsetMs = 0;

beforeAll(async () => {
  clockDir = await mkdtemp(join(tmpdir(), 'ruilplein-clock-'));
  process.env.RUILPLEIN_CLOCK_FILE = join(clockDir, 'offset');
  stores = await authStores();
  auth = await startAuth(stores);
});
afterAll(async () => {
  await auth?.stop();
  await stores?.close();
  delete process.env.RUILPLEIN_CLOCK_FILE;
  await rm(clockDir, { recursive: true, force: true });
});

/** Moves every process's clock on by `ms`; the kit re-reads the file at most every 200 ms. */
const moveClock = async (ms: number) => {
  offsetMs += ms;
  await writeFile(process.env.RUILPLEIN_CLOCK_FILE!, String(offsetMs));
  await new Promise((r) => setTimeout(r, 250));
};
const login = (email: string, password: string, ip: string) => post(auth.url, '/api/auth/login', { email, password }, { 'x-forwarded-for': ip });
const addresses = (n: number, block: number) => Array.from({ length: n }, (_, i) => `10.${block}.${i + 1}.7`);

describe('failed logins per account across client addresses', () => {
  it('lets a few guesses through from six addresses, then slows every further one, whatever its address', async () => {
    const { email } = await signUp(auth.url);
    const owner = '10.200.0.1';
    expect((await login(email, GOOD_PASSWORD, owner)).status).toBe(200);

    // The probe: five guesses from each of six addresses (each under the per-address limit of 5).
    const statuses: number[] = [];
    let lastRefusal: Response | undefined;
    for (const ip of addresses(6, 201)) {
      for (let i = 0; i < 5; i++) {
        const res = await login(email, `Fout${i}abc`, ip);
        statuses.push(res.status);
        if (res.status === 429) lastRefusal = res;
      }
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_SLOWDOWN.freeFailures);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - LOGIN_SLOWDOWN.freeFailures);
    expect(Number(lastRefusal!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(lastRefusal!.headers.get('retry-after'))).toBeLessThanOrEqual(LOGIN_SLOWDOWN.firstDelaySeconds);
    expect((await body(lastRefusal!)).message).toBe(AUTH_MESSAGES.loginSlowedDown(1));

    // A fresh address fares no better, even with the right password: it waits too.
    const stranger = await login(email, GOOD_PASSWORD, '10.202.0.9');
    expect(stranger.status).toBe(429);
    // The owner's known address is not slowed: in at once.
    expect((await login(email, GOOD_PASSWORD, owner)).status).toBe(200);

    // After the wait one more guess is taken, and the next wait is longer (doubled).
    await moveClock(LOGIN_SLOWDOWN.firstDelaySeconds * 1000 + 500);
    expect((await login(email, 'Fout9abc', '10.203.0.1')).status).toBe(401);
    const slower = await login(email, 'Fout9abc', '10.203.0.2');
    expect(slower.status).toBe(429);
    expect(Number(slower.headers.get('retry-after'))).toBeGreaterThan(LOGIN_SLOWDOWN.firstDelaySeconds);
    expect(Number(slower.headers.get('retry-after'))).toBeLessThanOrEqual(2 * LOGIN_SLOWDOWN.firstDelaySeconds);

    // Slowed, never locked out: once the wait is over the owner gets in from a new address too.
    await moveClock(2 * LOGIN_SLOWDOWN.firstDelaySeconds * 1000 + 500);
    expect((await login(email, GOOD_PASSWORD, '10.204.0.1')).status).toBe(200);
  });

  it('never waits longer than the ceiling, and a password reset ends the slow-down', async () => {
    const { email } = await signUp(auth.url);
    let retryAfter = 0;
    for (let round = 0; round < 12; round++) {
      for (const ip of addresses(3, 210 + round)) {
        const res = await login(email, 'Fout1abc', ip);
        if (res.status === 429) retryAfter = Math.max(retryAfter, Number(res.headers.get('retry-after')));
      }
      await moveClock(LOGIN_SLOWDOWN.maxDelaySeconds * 1000 + 500);
    }
    expect(retryAfter).toBe(LOGIN_SLOWDOWN.maxDelaySeconds);
    expect((await login(email, 'Fout1abc', '10.230.0.1')).status).toBe(401);
    expect((await login(email, GOOD_PASSWORD, '10.230.0.2')).status).toBe(429);

    // The reset mail is not held back by the login limits; the new password gets in at once, anywhere.
    expect((await post(auth.url, '/api/auth/request-password-reset', email, { 'x-forwarded-for': '10.230.0.3' })).status).toBe(200);
    const token = await linkTokenFromMail(auth.url, email, 'change-password', 2);
    expect((await post(auth.url, '/api/auth/change-password', { token, newPassword: 'Nieuw9876' })).status).toBe(200);
    expect((await login(email, 'Nieuw9876', '10.230.0.4')).status).toBe(200);
  });
});
