import { z } from 'zod';

// Validation messages for members are Dutch; one switch here covers every schema below.
z.config(z.locales.nl());

export * from './events.ts';
export * from './routes.ts';
export * from './errors.ts';
export * from './auth.ts';
export * from './http/category.ts';
export * from './http/auth.ts';
export * from './http/geo.ts';
export * from './http/admin-users.ts';
export * from './http/user.ts';

import type { RouteDef } from './routes.ts';
import { categoryRoutes } from './http/category.ts';
import { authRoutes } from './http/auth.ts';
import { geoRoutes } from './http/geo.ts';
import { adminUserRoutes } from './http/admin-users.ts';
import { userRoutes } from './http/user.ts';

/** Every HTTP route of the API; the gateway lets the public ones through without a token. */
export const apiRoutes: readonly RouteDef[] = [...Object.values(categoryRoutes), ...Object.values(authRoutes), ...Object.values(geoRoutes), ...Object.values(userRoutes), ...Object.values(adminUserRoutes)];
