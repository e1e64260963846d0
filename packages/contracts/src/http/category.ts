import { z } from 'zod';
import { defineQuery, defineRoute } from '../routes.ts';

export const CategorySchema = z
  .object({
    id: z.string(),
    name: z.string().min(1).max(60),
    /** Name of the icon in the frontend's icon set. */
    icon: z.string().min(1).max(60),
    isPremium: z.boolean(),
  })
  .meta({ id: 'Category' });
export type Category = z.infer<typeof CategorySchema>;

export const categoryRoutes = {
  list: defineRoute({
    service: 'listing',
    method: 'get',
    path: '/api/category',
    summary: 'Alle categorieën, premium-categorieën gemarkeerd',
    access: 'public',
    response: z.array(CategorySchema),
  }),
};

export const categoryQueries = {
  list: defineQuery({
    subject: 'rpc.listing.category.list',
    request: z.object({ ids: z.array(z.string()).max(100).optional() }),
    response: z.array(CategorySchema),
  }),
};
