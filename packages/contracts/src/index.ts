import { z } from 'zod';

// Validation messages for members are Dutch; one switch here covers every schema below.
z.config(z.locales.nl());

export * from './routes.ts';
export * from './events.ts';
export * from './errors.ts';
export * from './ownership.ts';
export * from './membership.ts';
export * from './text.ts';
export * from './registry.ts';
export * from './nats.ts';

export * from './auth/rules.ts';
export * from './auth/refs.ts';
export * from './auth/tokens.ts';
export * from './auth/suspensions.ts';
export * from './auth/routes.ts';
export * from './auth/events.ts';
export * from './auth/queries.ts';

export * from './listing/rules.ts';
export * from './listing/refs.ts';
export * from './listing/routes.ts';
export * from './listing/events.ts';
export * from './listing/queries.ts';

export * from './trade/rules.ts';
export * from './trade/refs.ts';
export * from './trade/routes.ts';
export * from './trade/events.ts';
export * from './trade/queries.ts';

export * from './chat/rules.ts';
export * from './chat/refs.ts';
export * from './chat/routes.ts';
export * from './chat/events.ts';
export * from './chat/queries.ts';

export * from './moderation/rules.ts';
export * from './moderation/refs.ts';
export * from './moderation/routes.ts';
export * from './moderation/events.ts';
export * from './moderation/queries.ts';

export * from './payment/rules.ts';
export * from './payment/after-cancel.ts';
export * from './payment/refs.ts';
export * from './payment/routes.ts';
export * from './payment/events.ts';
export * from './payment/queries.ts';

export * from './notification/rules.ts';
export * from './notification/refs.ts';
export * from './notification/routes.ts';

export * from './chain/rules.ts';
export * from './chain/refs.ts';
export * from './chain/routes.ts';
