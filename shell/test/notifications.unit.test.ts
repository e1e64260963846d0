import { describe, expect, it } from 'vitest';
import { nextBefore, titleWithCount } from '../src/notifications/count.ts';

describe('the unread count in the tab title', () => {
  it('stands before the title while there are unread notifications, once', () => {
    expect(titleWithCount('Dashboard | Ruilplein', 3)).toBe('(3) Dashboard | Ruilplein');
    expect(titleWithCount('(3) Dashboard | Ruilplein', 4)).toBe('(4) Dashboard | Ruilplein');
    expect(titleWithCount('(4) Dashboard | Ruilplein', 0)).toBe('Dashboard | Ruilplein');
    expect(titleWithCount('Dashboard | Ruilplein', 0)).toBe('Dashboard | Ruilplein');
  });

  it('leaves a title that merely starts with a bracket alone', () => {
    expect(titleWithCount('(ruil) Fiets | Ruilplein', 0)).toBe('(ruil) Fiets | Ruilplein');
    expect(titleWithCount('(ruil) Fiets | Ruilplein', 1)).toBe('(1) (ruil) Fiets | Ruilplein');
  });
});

describe('paging through the notifications', () => {
  const page = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `n${i}` }));
  it('asks for the ones before the oldest of a full page, and stops after a page that was not full', () => {
    expect(nextBefore(page(20), 20)).toBe('n19');
    expect(nextBefore(page(19), 20)).toBeUndefined();
    expect(nextBefore([], 20)).toBeUndefined();
  });
});
