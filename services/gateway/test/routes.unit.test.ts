import { apiRoutes, examplePath, serviceFor, type RouteDef } from '@ruilplein/contracts';
import { describe, expect, it } from 'vitest';
import { isHubPath, openWhileSuspended, publicRoutes } from '../src/routes.ts';

describe('serviceFor (the prefixes of the contracts registry)', () => {
  it.each([
    ['/api/auth/login', 'auth'],
    ['/api/Auth/activate', 'auth'],
    ['/api/auth', 'auth'],
    ['/api/user/public/stats/7', 'auth'],
    ['/api/admin/users', 'auth'],
    ['/api/admin/users/', 'auth'],
    ['/api/admin/delete/7', 'auth'],
    ['/api/geo/search', 'auth'],
    ['/uploads/avatars/default_avatar.jpg', 'auth'],
    ['/api/category', 'listing'],
    ['/API/Category', 'listing'],
    ['/api/listing', 'listing'],
    ['/api/listing/', 'listing'],
    ['/api/listings', 'listing'],
    ['/api/listing/my', 'listing'],
    ['/api/listingfoo', 'listing'],
    ['/api/wishlist/exists/7', 'listing'],
    ['/uploads/listings/7/a.webp', 'listing'],
    ['/api/tradeoffer/respond/7', 'trade'],
    ['/api/review/user/7', 'trade'],
    ['/api/chat/7', 'chat'],
    ['/chathub', 'chat'],
    ['/chathub/', 'chat'],
    ['/ChatHub/negotiate', 'chat'],
    ['/api/report/all', 'moderation'],
    ['/api/ban/create', 'moderation'],
    ['/api/warning/create', 'moderation'],
    ['/api/admin/stats', 'moderation'],
    ['/api/payment/status', 'payment'],
  ])('%s → %s', (path, service) => {
    expect(serviceFor(path)).toBe(service);
  });

  it.each([
    '/',
    '/api',
    '/api/',
    '/api/categoryx',
    '/api/category/7',
    '/api/authx',
    '/api/admin',
    '/api/admin/users/7',
    '/api/admin/usersx',
    '/api/admin/stats/7',
    '/api/list',
    '/uploads/other/a.webp',
    '/uploads',
    '/chathubx',
    '/xapi/auth/login',
    '//api/auth/login',
  ])('%s belongs to nobody', (path) => {
    expect(serviceFor(path)).toBeUndefined();
  });
});

describe('routing derived from the registry', () => {
  it.each(apiRoutes.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const))('%s goes to its owner', (_, r) => {
    expect(serviceFor(examplePath(r.path))).toBe(r.service);
  });

  it('lets every public route of the contracts through, and no other', () => {
    const isPublic = publicRoutes(apiRoutes);
    for (const r of apiRoutes) expect(isPublic(r.method.toUpperCase(), examplePath(r.path)), `${r.method} ${r.path}`).toBe(r.access === 'public');
  });
});

describe('isHubPath', () => {
  it('is /chathub and below, in any case', () => {
    expect(['/chathub', '/chathub/', '/CHATHUB/negotiate'].every(isHubPath)).toBe(true);
    expect(['/chathubx', '/api/chathub', '/api/chat/7'].some(isHubPath)).toBe(false);
  });
});

describe('publicRoutes', () => {
  const routes: RouteDef[] = [
    ...apiRoutes,
    { service: 'listing', method: 'get', path: '/api/listing/:id', summary: 'detail', access: 'public', response: undefined as never },
    { service: 'listing', method: 'post', path: '/api/listing/create', summary: 'create', access: 'user', response: undefined as never },
  ];
  const isPublic = publicRoutes(routes);

  it('lets the contracts public routes through by method and path, case-insensitively', () => {
    expect(isPublic('GET', '/api/category')).toBe(true);
    expect(isPublic('GET', '/API/Category/')).toBe(true);
    expect(isPublic('HEAD', '/api/category')).toBe(true);
    expect(isPublic('POST', '/api/category')).toBe(false);
    expect(isPublic('GET', '/api/listing/7')).toBe(true);
    expect(isPublic('GET', '/api/listing/7/photos')).toBe(false);
    expect(isPublic('POST', '/api/listing/create')).toBe(false);
  });

  it('lets photos and avatars through for GET only', () => {
    expect(isPublic('GET', '/uploads/listings/7/a.webp')).toBe(true);
    expect(isPublic('GET', '/uploads/avatars/default_avatar.jpg')).toBe(true);
    expect(isPublic('DELETE', '/uploads/avatars/default_avatar.jpg')).toBe(false);
    expect(isPublic('GET', '/uploads/')).toBe(false);
  });

  it('needs a token everywhere else', () => {
    expect(isPublic('GET', '/api/user/my')).toBe(false);
    expect(isPublic('GET', '/chathub')).toBe(false);
  });
});

describe('openWhileSuspended (routes declared whileSuspended, and the public ones)', () => {
  const open = openWhileSuspended(apiRoutes);
  it.each([
    ['GET', '/api/user/status', true],
    ['GET', '/api/auth/verify', true],
    ['POST', '/api/auth/logout', true],
    ['POST', '/api/auth/refresh', true],
    ['GET', '/api/category', true],
    ['HEAD', '/uploads/listings/7/a.webp', true],
    ['GET', '/api/user/my', false],
    ['PUT', '/api/user/update', false],
    ['GET', '/api/listing/my', false],
    ['POST', '/api/tradeoffer/create', false],
    ['GET', '/chathub/', false],
  ] as const)('%s %s: %s', (method, path, expected) => {
    expect(open(method, path)).toBe(expected);
  });
});
