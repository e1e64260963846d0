// The listing service's HTTP routes. Each route spreads its zod-free ref (refs.ts) and adds what the
// service validates with.
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../routes.ts';
import { categoryRefs } from './refs.ts';

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
    ...categoryRefs.list,
    summary: 'Alle categorieën, premium-categorieën gemarkeerd',
    response: z.array(CategorySchema),
  }),
} satisfies Record<keyof typeof categoryRefs, RouteDef>;
