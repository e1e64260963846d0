import { EventEnvelopeSchema, eventRegistry } from '@ruilplein/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createEvent } from '../src/index.ts';

describe('the event envelope', () => {
  it('carries its payload’s schema version: 1, or what the schema declares', () => {
    const registry = {
      'kitv.thing.made': z.object({ n: z.number() }),
      'kitv.thing.changed': z.object({ n: z.number(), m: z.number() }).meta({ schemaVersion: 2 }),
    };
    expect(createEvent(registry, 'kitv.thing.made', { n: 1 }).schemaVersion).toBe(1);
    const changed = createEvent(registry, 'kitv.thing.changed', { n: 1, m: 2 });
    expect(changed.schemaVersion).toBe(2);
    expect(EventEnvelopeSchema.parse(JSON.parse(JSON.stringify(changed))).schemaVersion).toBe(2);
  });

  it('reads an event from before the field as schema version 1', () => {
    const old = { id: crypto.randomUUID(), type: 'listing.wishlist.added', occurredAt: new Date(0).toISOString(), payload: {} };
    expect(EventEnvelopeSchema.parse(old).schemaVersion).toBe(1);
    expect(() => EventEnvelopeSchema.parse({ ...old, schemaVersion: 0 })).toThrow();
  });

  it('versions the review and wishlist payloads (written once: version 1, also when an old event lacks it)', () => {
    const at = new Date(0).toISOString();
    expect(eventRegistry['listing.wishlist.added'].parse({ listingId: 'l', userId: 'u', at })).toEqual({ listingId: 'l', userId: 'u', version: 1, at });
    const review = { id: 'r', offerId: 1, reviewerId: 'a', revieweeId: 'b', rating: 4, at };
    expect(eventRegistry['trade.review.added'].parse(review).version).toBe(1);
    expect(createEvent(eventRegistry, 'trade.review.added', { ...review, version: 1 }).payload.version).toBe(1);
  });
});
