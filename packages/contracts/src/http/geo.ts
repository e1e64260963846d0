import { z } from 'zod';
import { defineRoute } from '../routes.ts';

export const PLACE_COUNTRIES = ['NL', 'BE'] as const;

export const PlaceSchema = z
  .object({
    /** The Dutch name where one is in common use (Den Haag, Brussel). */
    name: z.string(),
    /** Province (NL) or region (BE), to tell places of the same name apart. */
    region: z.string().optional(),
    country: z.enum(PLACE_COUNTRIES),
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
  })
  .meta({ id: 'Place' });
export type Place = z.infer<typeof PlaceSchema>;

export const PlaceSearchQuerySchema = z.object({
  q: z.string('Geef een plaatsnaam op.').trim().min(1, 'Geef een plaatsnaam op.').max(100, 'Een plaatsnaam is hoogstens 100 tekens lang.'),
  limit: z.coerce.number().int().min(1).max(25).default(10),
});

export const geoRoutes = {
  search: defineRoute({
    service: 'auth',
    method: 'get',
    path: '/api/geo/search',
    summary: 'Plaatsen in Nederland en België op naam, beste treffer eerst (Nederlandse bij gelijke treffer)',
    access: 'public',
    query: PlaceSearchQuerySchema,
    response: z.array(PlaceSchema),
  }),
};
