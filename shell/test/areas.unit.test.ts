import { describe, expect, it } from 'vitest';
import { areaProblems, canSee, type AreaDeclaration } from '@ruilplein/ui/area';
import listings from '../../mfe-listings/src/area.ts';
import trades from '../../mfe-trades/src/area.ts';
import admin from '../../mfe-admin/src/area.ts';
import { mismatchesOf, pageAt, type KnownArea } from '../src/areas.ts';

const known = (name: string, area: AreaDeclaration): KnownArea => ({ ...area, name, entry: `/mfe/${name}/mf-manifest.json`, menu: [], requires: {}, mismatches: [] });
const areas = [known('listings', listings), known('trades', trades), known('admin', admin)];

describe("the remotes' declarations", () => {
  it('are sound', () => {
    for (const area of [listings, trades, admin]) expect(areaProblems(area)).toEqual([]);
  });

  it('name what is wrong with a broken one', () => {
    const problems = areaProblems({
      mount: 'dashboard',
      pages: [{ path: 'listing/:id', title: 'Advertentie' }, { path: '/offers', title: ' ' }, { path: 'x', title: 'X', example: '/admin/x' }, { path: 'x', title: 'X2' }],
      menu: [{ to: 'offers', label: 'Aanbod', icon: 'Search', order: 1, audience: 'member' }],
    });
    expect(problems).toEqual([
      "page 'listing/:id' has parameters and no example path",
      "page '/offers': a path relative to /dashboard, without leading or trailing slash",
      "page '/offers' has no title",
      "page 'x': example '/admin/x' is not under /dashboard",
      "page 'x' is declared twice",
      "menu entry 'Aanbod': 'to' must be an absolute path",
      "menu entry 'Aanbod': icon 'Search' is not a lucide icon name",
    ]);
  });
});

describe('pageAt', () => {
  it('finds the remote and page that serve a path, by whole path', () => {
    expect(pageAt(areas, 'dashboard', '/dashboard/listing/12')?.area.name).toBe('listings');
    expect(pageAt(areas, 'dashboard', '/dashboard/listing/12/offer')?.area.name).toBe('trades');
    expect(pageAt(areas, 'dashboard', '/dashboard/offers')?.page.title).toBe('Ruilaanbiedingen');
    expect(pageAt(areas, 'admin', '/admin')?.page.title).toBe('Beheer');
    expect(pageAt(areas, 'admin', '/admin/users')?.area.name).toBe('admin');
    expect(pageAt(areas, 'dashboard', '/dashboard/nergens')).toBeUndefined();
    // A page belongs to its mount only.
    expect(pageAt(areas, 'dashboard', '/admin/users')).toBeUndefined();
  });
});

describe('mismatchesOf', () => {
  const provided = { react: '19.3.1', '@ruilplein/ui': '1.0.0' };
  it('is empty when every range fits', () => {
    expect(mismatchesOf({ react: '^19.0.0', '@ruilplein/ui': '^1.0.0' }, provided)).toEqual([]);
  });
  it('names another major and a singleton the shell does not provide', () => {
    expect(mismatchesOf({ '@ruilplein/ui': '^2.0.0', vue: '^3.0.0' }, provided)).toEqual([
      '@ruilplein/ui ^2.0.0: the shell provides 1.0.0',
      'vue ^3.0.0: the shell provides none',
    ]);
  });
});

describe('canSee', () => {
  it('shows member entries to all, premium ones to Premium members and admins, admin ones to admins', () => {
    const standard = { isPremium: false, isAdmin: false };
    const premium = { isPremium: true, isAdmin: false };
    const adminRights = { isPremium: true, isAdmin: true };
    expect([canSee('member', standard), canSee('premium', standard), canSee('admin', standard)]).toEqual([true, false, false]);
    expect([canSee('premium', premium), canSee('admin', premium)]).toEqual([true, false]);
    expect(canSee('admin', adminRights)).toBe(true);
  });
});
