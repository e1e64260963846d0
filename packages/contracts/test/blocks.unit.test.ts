import { describe, expect, it } from 'vitest';
import { activeBlock, BLOCKED_MESSAGE, isBlockedBody } from '../src/auth/blocks.ts';

describe('activeBlock', () => {
  const now = Date.UTC(2026, 10, 23, 12);
  it('is the 403 body while the block lasts, with the end as an ISO date', () => {
    expect(activeBlock({ r: 'ban', u: now / 1000 + 60 }, now)).toEqual({ message: BLOCKED_MESSAGE, blocked: true, reason: 'ban', unblockDate: new Date(now + 60_000).toISOString() });
  });
  it('holds without an end', () => {
    expect(activeBlock({ r: 'warnings' }, now)).toMatchObject({ reason: 'warnings', unblockDate: null });
  });
  it('is nothing from its end on, or without a claim', () => {
    expect(activeBlock({ r: 'ban', u: now / 1000 }, now)).toBeUndefined();
    expect(activeBlock({ r: 'ban', u: now / 1000 - 1 }, now)).toBeUndefined();
    expect(activeBlock(undefined, now)).toBeUndefined();
  });
});

describe('isBlockedBody', () => {
  it('tells a block from other refusals', () => {
    expect(isBlockedBody(activeBlock({ r: 'ban' }, 0))).toBe(true);
    expect(isBlockedBody({ message: 'Je hebt geen toegang tot deze actie.' })).toBe(false);
    expect(isBlockedBody({ blocked: true, reason: 'iets' })).toBe(false);
    expect(isBlockedBody(null)).toBe(false);
  });
});
