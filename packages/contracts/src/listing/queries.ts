// Request/reply queries the listing service answers on `rpc.listing.<entity>.<verb>`.
import { z } from 'zod';
import { defineQueries, defineQuery } from '../routes.ts';
import { CategorySchema, InventoryItemSchema } from './routes.ts';

export const categoryQueries = defineQueries('listing', {
  list: defineQuery({
    subject: 'rpc.listing.category.list',
    request: z.object({ ids: z.array(z.string()).max(100).optional() }),
    response: z.array(CategorySchema),
  }),
});

export const inventoryQueries = defineQueries('listing', {
  /**
   * A member's tradeable items (their active listings and the default crate), for the trade
   * service's checks; with `viewerId`, only those that member may see (premium-only and fresh
   * listings only for Premium members, by the listing service's own projection).
   */
  get: defineQuery({
    subject: 'rpc.listing.inventory.get',
    request: z.object({ userId: z.string().min(1).max(60), viewerId: z.string().min(1).max(60).optional() }),
    response: z.array(InventoryItemSchema),
  }),
});
