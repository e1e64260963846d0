// The edge's choice of gateway (the probe that brings one back is in clustered.int.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayPool } from '../src/gateways.ts';

const pools: GatewayPool[] = [];
const pool = (...urls: string[]) => {
  const p = new GatewayPool(urls);
  pools.push(p);
  return p;
};
afterEach(() => {
  for (const p of pools.splice(0)) p.stop();
});

describe('GatewayPool', () => {
  it('takes turns over the gateways', () => {
    const p = pool('http://127.0.0.1:1', 'http://127.0.0.1:2');
    expect([p.pick(), p.pick(), p.pick(), p.pick()]).toEqual(['http://127.0.0.1:1', 'http://127.0.0.1:2', 'http://127.0.0.1:1', 'http://127.0.0.1:2']);
  });

  it('passes over one that refused, and asks each at most once for a request', () => {
    const p = pool('http://127.0.0.1:1', 'http://127.0.0.1:2', 'http://127.0.0.1:3');
    p.refused('http://127.0.0.1:2');
    expect([p.pick(), p.pick(), p.pick(), p.pick()]).not.toContain('http://127.0.0.1:2');
    expect(p.pick(new Set(['http://127.0.0.1:1', 'http://127.0.0.1:3']))).toBe('http://127.0.0.1:2');
    expect(p.pick(new Set(['http://127.0.0.1:1', 'http://127.0.0.1:2', 'http://127.0.0.1:3']))).toBeUndefined();
  });

  it('still sends to the only gateway after it refused: there is no other', () => {
    const p = pool('http://127.0.0.1:1');
    p.refused('http://127.0.0.1:1');
    expect(p.pick()).toBe('http://127.0.0.1:1');
  });
});
