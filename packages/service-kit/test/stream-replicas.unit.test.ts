import { describe, expect, it } from 'vitest';
import { streamReplicas } from '../src/nats.ts';

describe('streamReplicas (NATS_STREAM_REPLICAS)', () => {
  it('is 1 unless set, as on a single server', () => {
    expect(streamReplicas({})).toBe(1);
    expect(streamReplicas({ NATS_STREAM_REPLICAS: '' })).toBe(1);
  });

  it('takes the count a cluster keeps of each stream', () => {
    expect(streamReplicas({ NATS_STREAM_REPLICAS: '3' })).toBe(3);
  });

  it('refuses what is not a replica count JetStream takes', () => {
    for (const bad of ['0', '6', 'drie', '1.5']) expect(() => streamReplicas({ NATS_STREAM_REPLICAS: bad })).toThrow(/NATS_STREAM_REPLICAS/);
  });
});
