import { describe, expect, it } from 'vitest';
import { moveIn, suggestionStatus } from '../src/suggestions.ts';

const closed = { count: 3, open: false, active: -1 };
const open = (active: number) => ({ count: 3, open: true, active });

describe('the keys of the suggestion list', () => {
  it('Down opens a closed list on the first suggestion and walks on, back to the field after the last', () => {
    expect(moveIn('ArrowDown', closed)).toEqual({ active: 0, open: true });
    expect(moveIn('ArrowDown', open(0))).toEqual({ active: 1, open: true });
    expect(moveIn('ArrowDown', open(2))).toEqual({ active: -1, open: true });
    expect(moveIn('ArrowDown', open(-1))).toEqual({ active: 0, open: true });
  });

  it('Up walks back, from the field to the last suggestion', () => {
    expect(moveIn('ArrowUp', closed)).toEqual({ active: 2, open: true });
    expect(moveIn('ArrowUp', open(1))).toEqual({ active: 0, open: true });
    expect(moveIn('ArrowUp', open(0))).toEqual({ active: -1, open: true });
    expect(moveIn('ArrowUp', open(-1))).toEqual({ active: 2, open: true });
  });

  it('Enter picks the active suggestion, and is the form’s own without one', () => {
    expect(moveIn('Enter', open(1))).toEqual({ pick: 1 });
    expect(moveIn('Enter', open(-1))).toBeNull();
    expect(moveIn('Enter', { ...open(1), open: false })).toBeNull();
  });

  it('Escape closes an open list and is the field’s own otherwise (it clears a search field)', () => {
    expect(moveIn('Escape', open(1))).toEqual({ active: -1, open: false });
    expect(moveIn('Escape', closed)).toBeNull();
  });

  it('leaves every key to the field when there is nothing to suggest, and other keys always', () => {
    expect(moveIn('ArrowDown', { count: 0, open: true, active: -1 })).toBeNull();
    expect(moveIn('a', open(0))).toBeNull();
    expect(moveIn('Home', open(0))).toBeNull();
  });
});

describe('what a screen reader hears', () => {
  it('counts the open list in Dutch and says nothing of a closed or empty one', () => {
    expect(suggestionStatus(1, true)).toBe('1 suggestie, kies met pijltje omlaag.');
    expect(suggestionStatus(8, true)).toBe('8 suggesties, kies met de pijltjestoetsen.');
    expect(suggestionStatus(8, false)).toBe('');
    expect(suggestionStatus(0, true)).toBe('');
  });
});
