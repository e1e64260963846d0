import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/http.ts';
import { acceptPath, checkedUrl, INVALID_PATH } from '../src/paths.ts';
import { createTestIssuer, listen, silentLogger } from '../src/testing.ts';

describe('checkedUrl', () => {
  it('passes ordinary paths and their queries unchanged', () => {
    for (const url of ['/', '/api/category', '/api/Auth/activate?token=a%20B&x=1', '/chathub/?EIO=4', '/uploads/listings/a.b.webp', '/api/user/public/J%C3%BCrgen', '/a/.well-known/jwks.json', '/x?next=/../../a%2f..']) {
      expect(checkedUrl(url), url).toBe(url);
    }
  });

  it('refuses dot segments, raw or percent-encoded in any case', () => {
    for (const url of [
      '/dev/mail/../../openapi.json',
      '/dev/mail/%2e%2e/%2e%2e/.well-known/jwks.json',
      '/api/category/../../readyz',
      '/dev/mail/../../api/auth/login',
      '/api/%2E%2E/readyz',
      '/api/.%2e/readyz',
      '/api/%2e./readyz',
      '/api/./category',
      '/api/%2e/category',
      '/api/category/..',
      '/api/category/.',
      '/..',
    ]) {
      expect(checkedUrl(url), url).toBeUndefined();
    }
  });

  it('refuses encoded slashes and backslashes, raw backslashes, NUL and bad percent-encoding', () => {
    for (const url of ['/api/..%2freadyz', '/api/a%2Fb', '/api/a%5cb', '/api/a%5C..', '/api\\..\\readyz', '/api/a\0b', '/api/a%00b', '/api/%zz', '/api/a%2', '/api/a%', '/api/a#/../b']) {
      expect(checkedUrl(url), JSON.stringify(url)).toBeUndefined();
    }
  });

  it('refuses what is not an origin-form path', () => {
    for (const url of [undefined, '', '*', 'http://evil/api/category', 'api/category']) expect(checkedUrl(url), String(url)).toBeUndefined();
  });

  it('collapses repeated slashes in the path, not in the query', () => {
    expect(checkedUrl('//api//category')).toBe('/api/category');
    expect(checkedUrl('/dev//mail///x?u=a//b')).toBe('/dev/mail/x?u=a//b');
    expect(checkedUrl('//..//readyz')).toBeUndefined();
  });
});

describe('acceptPath', () => {
  it('answers 400 with a Dutch JSON message, or hands on the normalised url', async () => {
    const server = createServer((req, res) => {
      if (acceptPath(req, res)) res.end(req.url);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const get = (path: string) =>
      new Promise<{ status?: number; type?: string; body: string }>((resolve, reject) => {
        request({ host: '127.0.0.1', port, path }, async (res) => {
          let body = '';
          for await (const chunk of res) body += chunk;
          resolve({ status: res.statusCode, type: res.headers['content-type'], body });
        })
          .on('error', reject)
          .end();
      });
    try {
      const refused = await get('/dev/mail/%2e%2e/%2e%2e/.well-known/jwks.json');
      expect(refused.status).toBe(400);
      expect(refused.type).toBe('application/json; charset=utf-8');
      expect(JSON.parse(refused.body)).toEqual({ message: INVALID_PATH });
      expect(await get('//api//category?x=1')).toMatchObject({ status: 200, body: '/api/category?x=1' });
    } finally {
      server.close();
    }
  });
});

describe('createApp', () => {
  it('refuses a bad path before any route of a service matches', async () => {
    const issuer = await createTestIssuer();
    const served = await listen(createApp({ service: 'listing', logger: silentLogger(), verifyToken: issuer.verifyToken, routes: {}, handlers: {} }));
    const get = (path: string) =>
      new Promise<{ status?: number; body: string }>((resolve, reject) => {
        const { hostname, port } = new URL(served.url);
        request({ hostname, port, path }, async (res) => {
          let body = '';
          for await (const chunk of res) body += chunk;
          resolve({ status: res.statusCode, body });
        })
          .on('error', reject)
          .end();
      });
    try {
      for (const path of ['/api/category/../../openapi.json', '/dev/mail/%2e%2e/%2e%2e/.well-known/jwks.json', '/x/..%2fhealthz']) {
        const res = await get(path);
        expect(res.status, path).toBe(400);
        expect(JSON.parse(res.body), path).toEqual({ message: INVALID_PATH });
      }
      expect((await get('//healthz')).status).toBe(200);
    } finally {
      await served.close();
      await issuer.close();
    }
  });
});
