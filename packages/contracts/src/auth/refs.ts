// Where each auth route lives and who may call it: zod-free, so the browser's typed client takes
// these very objects (`@ruilplein/contracts/browser`); routes.ts adds summaries and schemas.
import { defineRefs } from '../routes.ts';

export const authRefs = defineRefs({
  register: { service: 'auth', method: 'post', path: '/api/auth/register', access: 'public' },
  activate: { service: 'auth', method: 'get', path: '/api/auth/activate', access: 'public' },
  resendActivation: { service: 'auth', method: 'post', path: '/api/auth/resend-activation', access: 'public' },
  // The answer is a token and the member's own data: never kept by a cache.
  login: { service: 'auth', method: 'post', path: '/api/auth/login', access: 'public', personal: true },
  verify: { service: 'auth', method: 'get', path: '/api/auth/verify', access: 'user', whileSuspended: true },
  // A browser refreshes about every 15 minutes per tab; more from one client is someone guessing.
  refresh: { service: 'auth', method: 'post', path: '/api/auth/refresh', access: 'public', rateLimit: { per: 'client', points: 60, windowSeconds: 60 }, personal: true },
  logout: { service: 'auth', method: 'post', path: '/api/auth/logout', access: 'user', whileSuspended: true },
  requestPasswordReset: { service: 'auth', method: 'post', path: '/api/auth/request-password-reset', access: 'public' },
  changePassword: { service: 'auth', method: 'post', path: '/api/auth/change-password', access: 'public' },
});

export const userRefs = defineRefs({
  my: { service: 'auth', method: 'get', path: '/api/user/my', access: 'user' },
  // Each save may carry a picture the image pipeline decodes: bounded per member.
  update: { service: 'auth', method: 'put', path: '/api/user/update', access: 'user', form: true, rateLimit: { per: 'user', points: 30, windowSeconds: 600 } },
  status: { service: 'auth', method: 'get', path: '/api/user/status', access: 'user', whileSuspended: true },
  public: { service: 'auth', method: 'get', path: '/api/user/public/:id', access: 'public' },
  publicStats: { service: 'auth', method: 'get', path: '/api/user/public/stats/:id', access: 'public' },
  // Beside the stats on profiles, offer pages and cards (issue 24): the trade service's facts, projected here.
  reliability: { service: 'auth', method: 'get', path: '/api/user/:id/reliability', access: 'public' },
  /** The same for the owners on a page of search cards, in one question. */
  reliabilities: { service: 'auth', method: 'get', path: '/api/user/reliability', access: 'public', rateLimit: { per: 'client', points: 120, windowSeconds: 60 } },
});

/**
 * A member shutting another member out (both ways: listings, offers, chat, notifications). Each
 * change is announced and may cancel offers: bounded per member.
 */
export const blockRefs = defineRefs({
  add: { service: 'auth', method: 'post', path: '/api/user/block/:userId', access: 'user', rateLimit: { per: 'user', points: 60, windowSeconds: 600 } },
  remove: { service: 'auth', method: 'delete', path: '/api/user/block/:userId', access: 'user', rateLimit: { per: 'user', points: 60, windowSeconds: 600 } },
  list: { service: 'auth', method: 'get', path: '/api/user/blocks', access: 'user' },
});

export const adminUserRefs = defineRefs({
  list: { service: 'auth', method: 'get', path: '/api/admin/users', access: 'admin' },
  activate: { service: 'auth', method: 'post', path: '/api/user/activate/:id', access: 'admin' },
  delete: { service: 'auth', method: 'delete', path: '/api/admin/delete/:id', access: 'admin' },
});

export const geoRefs = defineRefs({
  search: { service: 'auth', method: 'get', path: '/api/geo/search', access: 'public' },
});
