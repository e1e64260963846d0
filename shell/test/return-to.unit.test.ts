import { describe, expect, it } from 'vitest';
import { loginReturningTo, RETURN_PARAM, returnPath } from '../src/account/returnTo.ts';

describe('after logging in', () => {
  it('goes back to the dashboard page the guest asked for, with its query', () => {
    const login = loginReturningTo('/dashboard/search?q=oude+fiets');
    expect(login).toBe('/login?next=%2Fdashboard%2Fsearch%3Fq%3Doude%2Bfiets');
    const asked = new URLSearchParams(login.split('?')[1]).get(RETURN_PARAM);
    expect(returnPath(asked)).toBe('/dashboard/search?q=oude+fiets');
    expect(returnPath('/dashboard')).toBe('/dashboard');
  });

  it('goes to the dashboard without one, or with anything outside it or this site', () => {
    for (const raw of [null, '', 'https://evil.example/dashboard', '//evil.example/dashboard', '/\\evil.example', '/admin/users', '/dashboardx', 'dashboard/search', `/dashboard/${'x'.repeat(600)}`]) {
      expect(returnPath(raw), String(raw)).toBe('/dashboard');
    }
  });
});
