import { request } from 'node:http';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { clientAddress, isLoopback, trustedProxyHops, trustProxies } from '../src/client.ts';
import { ConfigError } from '../src/config.ts';
import { listen } from '../src/testing.ts';

describe('trustedProxyHops', () => {
  it('reads TRUSTED_PROXY_HOPS, or the fallback when unset', () => {
    expect(trustedProxyHops(2, {})).toBe(2);
    expect(trustedProxyHops(2, { TRUSTED_PROXY_HOPS: '' })).toBe(2);
    expect(trustedProxyHops(2, { TRUSTED_PROXY_HOPS: '0' })).toBe(0);
    expect(trustedProxyHops(1, { TRUSTED_PROXY_HOPS: ' 3 ' })).toBe(3);
  });

  it('stops the start on a malformed value', () => {
    for (const value of ['-1', 'twee', '1.5', 'loopback', '100']) {
      expect(() => trustedProxyHops(1, { TRUSTED_PROXY_HOPS: value }), value).toThrow(ConfigError);
    }
    expect(() => trustedProxyHops(1, { TRUSTED_PROXY_HOPS: 'x' })).toThrow(/^config: TRUSTED_PROXY_HOPS is invalid/);
  });
});

describe('clientAddress', () => {
  async function seenAs(hops: number, forwardedFor?: string) {
    const app = express();
    trustProxies(app, hops);
    app.get('/', (req, res) => void res.send(clientAddress(req)));
    const served = await listen(app);
    try {
      return await new Promise<string>((resolve, reject) => {
        const { hostname, port } = new URL(served.url);
        request({ hostname, port, path: '/', headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} }, async (res) => {
          let body = '';
          for await (const chunk of res) body += chunk;
          resolve(body);
        })
          .on('error', reject)
          .end();
      });
    } finally {
      await served.close();
    }
  }

  it('believes X-Forwarded-For only as far as the declared hops', async () => {
    // No proxy declared: the connection's peer, whatever the header says.
    expect(await seenAs(0, '203.0.113.9')).toBe('127.0.0.1');
    // One proxy (the edge, which overwrote the header): its entry.
    expect(await seenAs(1, '203.0.113.9')).toBe('203.0.113.9');
    // A client's own entry before the edge's is not believed.
    expect(await seenAs(1, '1.2.3.4, 203.0.113.9')).toBe('203.0.113.9');
    // Behind the edge and the gateway (which appended the edge's address): the edge's entry.
    expect(await seenAs(2, '1.2.3.4, 203.0.113.9, 10.0.0.7')).toBe('203.0.113.9');
    expect(await seenAs(1)).toBe('127.0.0.1');
  });
});

describe('isLoopback', () => {
  it('knows loopback addresses in every notation, and nothing else', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a), a).toBe(true);
    for (const a of [undefined, '', '10.0.0.1', '::ffff:10.0.0.1', '192.168.1.1', 'fe80::1', 'localhost', '1127.0.0.1']) expect(isLoopback(a), String(a)).toBe(false);
  });
});
