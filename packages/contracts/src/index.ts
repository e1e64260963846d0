import { z } from 'zod';

// Validation messages for members are Dutch; one switch here covers every schema below.
z.config(z.locales.nl());

export * from './events.ts';
export * from './routes.ts';
export * from './errors.ts';
export * from './auth.ts';
export * from './http/category.ts';

import type { RouteDef } from './routes.ts';
import { categoryRoutes } from './http/category.ts';

/** Every HTTP route of the API; the gateway lets the public ones through without a token. */
export const apiRoutes: readonly RouteDef[] = [...Object.values(categoryRoutes)];
