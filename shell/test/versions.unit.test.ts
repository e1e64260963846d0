import { describe, expect, it } from 'vitest';
import { satisfies } from '../src/versions.ts';

describe('satisfies', () => {
  it.each([
    ['19.3.1', '^19.3.1', true],
    ['19.9.0', '^19.3.1', true],
    ['20.0.0', '^19.3.1', false],
    ['19.3.0', '^19.3.1', false],
    ['1.0.0', '^1.0.0', true],
    ['2.0.0', '^1.0.0', false],
    ['1.4.2', '^2.0.0', false],
    ['0.2.5', '^0.2.3', true],
    ['0.3.0', '^0.2.3', false],
    ['0.0.3', '^0.0.3', true],
    ['0.0.4', '^0.0.3', false],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['1.2.3', '1.2.3', true],
    ['1.2.4', '1.2.3', false],
    ['1.9.0', '1.x', true],
    ['2.0.0', '1', false],
    ['5.1.0', '*', true],
    ['1.5.0', '>=1.2.0 <2', true],
    ['2.0.0', '>=1.2.0 <2', false],
    ['3.1.0', '^1.0.0 || ^3.0.0', true],
    ['7.18.5', '>= 7.0.0', true],
    ['1.0.0-rc.1', '^1.0.0', true],
  ])('%s in %s: %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });

  it('refuses what it cannot read', () => {
    expect(satisfies('latest', '^1.0.0')).toBe(false);
    expect(satisfies('1.0.0', 'workspace:^')).toBe(false);
  });
});
