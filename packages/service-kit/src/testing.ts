import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TOKEN_AUDIENCE, TOKEN_ISSUER, type BlockClaim, type Role } from '@ruilplein/contracts';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { pino } from 'pino';
import { createTokenVerifier } from './auth.ts';

export const silentLogger = () => pino({ level: 'silent' });

/** A response body for assertions; tests check its shape themselves. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const body = (res: Response): Promise<any> => res.json();

export interface TestClaims {
  sub: string;
  roles?: Role[];
  ver?: number;
  /** A block the token carries (contracts auth/blocks.ts). */
  blk?: BlockClaim;
}

/**
 * Stands in for the auth service in tests: an ES256 key pair whose public half is served as a
 * JWKS over real HTTP, and a signer for tokens with any claims, expiry or key.
 */
export async function createTestIssuer() {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'ES256', use: 'sig' };
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;

  const sign = (claims: TestClaims, options: { expiresIn?: string | number; key?: CryptoKey } = {}) =>
    new SignJWT({ roles: claims.roles ?? ['Gebruiker'], ver: claims.ver ?? 0, ...(claims.blk && { blk: claims.blk }) })
      .setProtectedHeader({ alg: 'ES256', kid: 'test-key' })
      .setSubject(claims.sub)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '15m')
      .sign(options.key ?? privateKey);

  return {
    jwksUrl,
    verifyToken: createTokenVerifier(jwksUrl),
    sign,
    /** Same claims, signed by a key the JWKS does not hold. */
    async signWithForeignKey(claims: TestClaims) {
      return sign(claims, { key: (await generateKeyPair('ES256')).privateKey });
    },
    /** An unsigned token (`alg: none`) with otherwise valid claims. */
    unsigned(claims: TestClaims) {
      const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const now = Math.floor(Date.now() / 1000);
      const payload = { sub: claims.sub, roles: claims.roles ?? ['Gebruiker'], ver: claims.ver ?? 0, iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE, iat: now, exp: now + 900 };
      return `${enc({ alg: 'none', typ: 'JWT' })}.${enc(payload)}.`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestIssuer = Awaited<ReturnType<typeof createTestIssuer>>;

/** Serves an express app (or any request listener) on a free loopback port. */
export async function listen(handler: Parameters<typeof createServer>[1]) {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())).finally(() => server.closeAllConnections()),
  };
}

/** Runs a service's `main.ts` as its own process with only the given environment (and PATH). */
export function runMain(main: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [main], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.on('data', (d) => (stdout += d));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, exited, output: () => ({ stdout, stderr }) };
}
