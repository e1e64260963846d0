// The routes as the browser's typed client takes them: the very zod-free ref objects of
// `<service>/refs.ts`, typed with the input and output of the zod routes (`import type` only, so
// no zod reaches a bundle).
import type { z } from 'zod';
import type { adminUserRoutes, authRoutes, blockRoutes, geoRoutes, userRoutes } from '../auth/routes.ts';
import { adminUserRefs, authRefs, blockRefs, geoRefs, userRefs } from '../auth/refs.ts';
import type { categoryRoutes, listingRoutes, savedSearchRoutes, wishlistRoutes } from '../listing/routes.ts';
import { categoryRefs, listingRefs, savedSearchRefs, wishlistRefs } from '../listing/refs.ts';
import type { RouteDef } from '../routes.ts';
import type { chainRoutes } from '../chain/routes.ts';
import { chainRefs } from '../chain/refs.ts';
import type { chatRoutes } from '../chat/routes.ts';
import { chatRefs } from '../chat/refs.ts';
import type { moderationRoutes } from '../moderation/routes.ts';
import { moderationRefs } from '../moderation/refs.ts';
import type { notificationRoutes } from '../notification/routes.ts';
import { notificationRefs } from '../notification/refs.ts';
import type { paymentRoutes } from '../payment/routes.ts';
import { paymentRefs } from '../payment/refs.ts';
import type { tradeRoutes } from '../trade/routes.ts';
import { tradeRefs } from '../trade/refs.ts';
import type { RouteRef } from './route-ref.ts';

/** A schema the route does not declare is `undefined` for the client: nothing to send. */
type In<S> = z.ZodType extends S ? undefined : S extends z.ZodType ? z.input<S> : undefined;

/** The browser's view of a zod route: what goes in (before parsing) and what comes out. */
export type RefOf<D> = D extends RouteDef<infer P, infer Q, infer B, infer R> ? RouteRef<In<P>, In<Q>, In<B>, z.output<R>> : never;

type Refs<G> = { readonly [K in keyof G]: RefOf<G[K]> };

// The refs carry no types for params, body or answer; the routes built from them do.
export const authApi = authRefs as unknown as Refs<typeof authRoutes>;
export const userApi = userRefs as unknown as Refs<typeof userRoutes>;
export const blockApi = blockRefs as unknown as Refs<typeof blockRoutes>;
export const adminUserApi = adminUserRefs as unknown as Refs<typeof adminUserRoutes>;
export const geoApi = geoRefs as unknown as Refs<typeof geoRoutes>;
export const categoryApi = categoryRefs as unknown as Refs<typeof categoryRoutes>;
export const listingApi = listingRefs as unknown as Refs<typeof listingRoutes>;
export const wishlistApi = wishlistRefs as unknown as Refs<typeof wishlistRoutes>;
export const savedSearchApi = savedSearchRefs as unknown as Refs<typeof savedSearchRoutes>;
export const tradeApi = tradeRefs as unknown as Refs<typeof tradeRoutes>;
export const chatApi = chatRefs as unknown as Refs<typeof chatRoutes>;
export const moderationApi = moderationRefs as unknown as Refs<typeof moderationRoutes>;
export const paymentApi = paymentRefs as unknown as Refs<typeof paymentRoutes>;
export const notificationApi = notificationRefs as unknown as Refs<typeof notificationRoutes>;
export const chainApi = chainRefs as unknown as Refs<typeof chainRoutes>;
