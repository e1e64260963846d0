// Stand-ins over real HTTP for tests: the auth service's token issuer (a JWKS), a server on a free
// port, and a websocket upgrade that must be refused.
import { randomBytes } from 'node:crypto';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TOKEN_AUDIENCE, TOKEN_ISSUER, type Role, type SuspensionClaim } from '@ruilplein/contracts';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { createTokenVerifier } from './auth.ts';
import { wallClockMs } from './clock.ts';

export interface TestClaims {
  sub: string;
  roles?: Role[];
  ver?: number;
  /** A suspension the token carries (contracts auth/suspensions.ts). */
  sus?: SuspensionClaim;
  /** The same under its name before the rename, as tokens issued before the move carry it. */
  blk?: SuspensionClaim;
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
    new SignJWT({ roles: claims.roles ?? ['Gebruiker'], ver: claims.ver ?? 0, ...(claims.sus && { sus: claims.sus }), ...(claims.blk && { blk: claims.blk }) })
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
      const now = Math.floor(wallClockMs() / 1000);
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

/**
 * Asks `url` (http://...) for a websocket upgrade that must be refused: answers the refusal's HTTP
 * status, headers and body; rejects when the upgrade is accepted.
 */
export function upgradeRefusal(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64'), ...headers },
    });
    req.once('upgrade', (_res, socket) => {
      socket.destroy();
      reject(new Error('upgrade was accepted'));
    });
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.once('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.once('error', reject);
    req.end();
  });
}
