// Where each listing route lives and who may call it: zod-free, so the browser's typed client takes
// these very objects (`@ruilplein/contracts/browser`); routes.ts adds summaries and schemas.
import { defineRefs } from '../routes.ts';

export const categoryRefs = defineRefs({
  list: { service: 'listing', method: 'get', path: '/api/category', access: 'public' },
});

// Order matters to the service's router: the fixed paths (`my`, `recommendations`, `user/…`,
// `inventory/…`, `recent`) come before `/api/listing/:id`.
export const listingRefs = defineRefs({
  search: { service: 'listing', method: 'get', path: '/api/listing', access: 'user' },
  my: { service: 'listing', method: 'get', path: '/api/listing/my', access: 'user', personal: true },
  recommendations: { service: 'listing', method: 'get', path: '/api/listing/recommendations', access: 'user', caller: { query: ['userId'] } },
  // The public profile is fetched without a token (spec 2 §6): a guest sees the public listings.
  byUser: { service: 'listing', method: 'get', path: '/api/listing/user/:userId', access: 'public' },
  // A member's inventory for a trade offer: their active listings and the default crate.
  inventory: { service: 'listing', method: 'get', path: '/api/listing/inventory/:userId', access: 'user' },
  // Each create or update may carry five photos for the image pipeline: bounded per member.
  create: { service: 'listing', method: 'post', path: '/api/listing/create', access: 'user', form: true, rateLimit: { per: 'user', points: 30, windowSeconds: 600, name: 'listing-write' } },
  update: { service: 'listing', method: 'post', path: '/api/listing/update/:id', access: 'user', form: true, rateLimit: { per: 'user', points: 30, windowSeconds: 600, name: 'listing-write' } },
  delete: { service: 'listing', method: 'delete', path: '/api/listing/delete/:id', access: 'user' },
  // Completions of the search box's last word (issue 23): one request per keystroke or so.
  suggest: { service: 'listing', method: 'get', path: '/api/listing/suggest', access: 'user', rateLimit: { per: 'user', points: 300, windowSeconds: 60, name: 'listing-suggest' } },
  // How many members nearby want what one is about to list (issue 23): counts from memory, still bounded.
  demand: { service: 'listing', method: 'get', path: '/api/listing/demand', access: 'user', rateLimit: { per: 'user', points: 60, windowSeconds: 60, name: 'listing-demand' } },
  // The landing page's newest public listings (issue 27): one answer for everyone, kept briefly by
  // each replica and by caches; bounded per address all the same.
  recent: { service: 'listing', method: 'get', path: '/api/listing/recent', access: 'public', rateLimit: { per: 'client', points: 300, windowSeconds: 60, name: 'listing-recent' } },
  // The offer screen reads a listing without a token (spec 2 §7): a guest may read a public one.
  get: { service: 'listing', method: 'get', path: '/api/listing/:id', access: 'public' },
});

export const wishlistRefs = defineRefs({
  add: { service: 'listing', method: 'post', path: '/api/wishlist/add/:id', access: 'user' },
  exists: { service: 'listing', method: 'get', path: '/api/wishlist/exists/:id', access: 'user' },
  delete: { service: 'listing', method: 'delete', path: '/api/wishlist/delete/:listingId', access: 'user' },
  my: { service: 'listing', method: 'get', path: '/api/wishlist/my', access: 'user', personal: true },
});

// Saved searches with alerts (issue 23): a member's own, under /api/search/saved.
const savedWrite = { per: 'user', points: 60, windowSeconds: 600, name: 'saved-search-write' } as const;
export const savedSearchRefs = defineRefs({
  create: { service: 'listing', method: 'post', path: '/api/search/saved', access: 'user', rateLimit: savedWrite },
  list: { service: 'listing', method: 'get', path: '/api/search/saved', access: 'user', personal: true },
  update: { service: 'listing', method: 'put', path: '/api/search/saved/:id', access: 'user', rateLimit: savedWrite },
  delete: { service: 'listing', method: 'delete', path: '/api/search/saved/:id', access: 'user', rateLimit: savedWrite },
  visit: { service: 'listing', method: 'post', path: '/api/search/saved/:id/visit', access: 'user' },
});
