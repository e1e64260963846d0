import { describe, expect, it } from 'vitest';
import { exampleItems, keyStep, swipeStep, swipeThreshold, wrapIndex } from '../src/public/carousel.ts';

describe('the Voorbeeld Items list', () => {
  it('holds ids 1 to 14 with the spec captions in order', () => {
    expect(exampleItems.map((item) => item.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(exampleItems.map((item) => item.caption)).toEqual([
      'Elektronica',
      'Plant',
      'Boek',
      'Games & entertainment',
      'Kleding',
      'Rugzak',
      'Koffiezetapparaat',
      'Pokemon kaarten',
      'Horloge',
      'Huishoudapparaten',
      'Kastje',
      'Creatief',
      'Kinderspullen',
      'Sport- en hobbyspullen',
    ]);
  });
});

describe('wrapIndex', () => {
  it('moves one step inside the list', () => {
    expect(wrapIndex(0, 1, 14)).toBe(1);
    expect(wrapIndex(5, -1, 14)).toBe(4);
  });

  it('wraps from the last entry to the first and back', () => {
    expect(wrapIndex(13, 1, 14)).toBe(0);
    expect(wrapIndex(0, -1, 14)).toBe(13);
  });

  it('wraps steps larger than the list', () => {
    expect(wrapIndex(2, 14, 14)).toBe(2);
    expect(wrapIndex(2, -15, 14)).toBe(1);
  });

  it('stays at 0 for an empty list instead of answering NaN', () => {
    expect(wrapIndex(0, 1, 0)).toBe(0);
  });
});

describe('swipeStep', () => {
  it('goes to the next entry on a swipe to the left and the previous on one to the right', () => {
    expect(swipeStep(-120, 10)).toBe(1);
    expect(swipeStep(120, -10)).toBe(-1);
  });

  it('ignores movements shorter than the threshold', () => {
    expect(swipeStep(-(swipeThreshold - 1), 0)).toBe(0);
    expect(swipeStep(swipeThreshold - 1, 0)).toBe(0);
    expect(swipeStep(-swipeThreshold, 0)).toBe(1);
  });

  it('ignores movements that are mostly vertical (a scroll)', () => {
    expect(swipeStep(-80, 120)).toBe(0);
    expect(swipeStep(80, 80)).toBe(0);
  });
});

describe('keyStep', () => {
  it('maps the left and right arrow keys and nothing else', () => {
    expect(keyStep('ArrowLeft')).toBe(-1);
    expect(keyStep('ArrowRight')).toBe(1);
    expect(keyStep('ArrowUp')).toBe(0);
    expect(keyStep('Enter')).toBe(0);
  });
});
