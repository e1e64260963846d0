// Request/reply queries the listing service answers on `rpc.listing.<entity>.<verb>`.
import { z } from 'zod';
import { defineQueries, defineQuery } from '../routes.ts';
import { CategorySchema } from './routes.ts';

export const categoryQueries = defineQueries('listing', {
  list: defineQuery({
    subject: 'rpc.listing.category.list',
    request: z.object({ ids: z.array(z.string()).max(100).optional() }),
    response: z.array(CategorySchema),
  }),
});
