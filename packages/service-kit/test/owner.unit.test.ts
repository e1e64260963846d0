// createApp serves only the routes the registry gives the service: a route of another service is
// refused at startup, not discovered by a 404 behind the gateway.
import { categoryRoutes, userRoutes } from '@ruilplein/contracts';
import { describe, expect, it } from 'vitest';
import { createApp, type TokenVerifier } from '../src/index.ts';
import { silentLogger } from '../src/testing.ts';

const verifyToken: TokenVerifier = () => Promise.reject(new Error('no tokens here'));

describe('createApp', () => {
  it('refuses a route whose contract names another service', () => {
    const start = () => createApp({ service: 'listing', logger: silentLogger(), verifyToken, routes: { user: { status: userRoutes.status } }, handlers: { user: { status: () => ({ blocked: false, reason: null, unblockDate: null }) } } });
    expect(start).toThrow('listing: GET /api/user/status belongs to auth');
  });

  it('serves the routes of its own service', () => {
    expect(() => createApp({ service: 'listing', logger: silentLogger(), verifyToken, routes: { category: { list: categoryRoutes.list } }, handlers: { category: { list: () => [] } } })).not.toThrow();
  });
});
