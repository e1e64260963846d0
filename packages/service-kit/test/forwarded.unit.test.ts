import type { IncomingMessage } from 'node:http';
import express, { type Request } from 'express';
import { describe, expect, it } from 'vitest';
import { forwardedFor, forwardedHost, forwardedProto } from '../src/client.ts';

/** A request as express sees it with `trust proxy` = hops: the reference the plain-node functions must match. */
function expressView(hops: number, peer: string, headers: Record<string, string>) {
  const app = express();
  app.set('trust proxy', hops);
  const socket = { remoteAddress: peer };
  const req = Object.setPrototypeOf({ headers, socket, connection: socket, app }, app.request) as Request;
  return { ip: req.ip, protocol: req.protocol, host: req.host, plain: { headers, socket } as unknown as IncomingMessage };
}

const headerSets: Record<string, string>[] = [
  {},
  { host: 'gateway:8100' },
  { host: 'gateway:8100', 'x-forwarded-for': '203.0.113.9' },
  { host: 'gateway:8100', 'x-forwarded-for': '198.51.100.1, 203.0.113.9', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'ruilplein.nl' },
  { 'x-forwarded-for': '1.1.1.1,2.2.2.2 , 3.3.3.3', 'x-forwarded-proto': 'https, http', 'x-forwarded-host': 'a.example, b.example' },
  { 'x-forwarded-for': ',, 4.4.4.4,,', 'x-forwarded-proto': ' http ', 'x-forwarded-host': '' },
  { 'x-forwarded-for': '' },
  { 'x-forwarded-for': '::1, fe80::1', host: '[::1]:8080' },
];

describe('client address, protocol and host: as express with trust proxy', () => {
  for (const hops of [0, 1, 2, 3]) {
    for (const headers of headerSets) {
      it(`${hops} hops, ${JSON.stringify(headers)}`, () => {
        const view = expressView(hops, '10.0.0.7', headers);
        expect(forwardedFor(view.plain, hops)).toBe(view.ip);
        expect(forwardedProto(view.plain, hops)).toBe(view.protocol);
        expect(forwardedHost(view.plain, hops)).toBe(view.host);
      });
    }
  }

  it('never believes a header beyond the trusted hops', () => {
    const view = expressView(1, '127.0.0.1', { 'x-forwarded-for': '6.6.6.6, 192.0.2.10' });
    const spoofed = view.plain;
    expect(view.ip).toBe('192.0.2.10');
    expect(forwardedFor(spoofed, 1)).toBe('192.0.2.10');
    expect(forwardedFor(spoofed, 0)).toBe('127.0.0.1');
  });
});
