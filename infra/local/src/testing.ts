import { inject } from 'vitest';

export interface TestStoreUrls {
  mongoUrl: string;
  redisUrl: string;
  /** As the privileged NATS user. */
  natsUrl: string;
  /** Per service, as its own NATS user (infra/local/src/stores.ts); absent when TEST_NATS_URL names a NATS. */
  natsServiceUrls?: Record<string, string>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stores: TestStoreUrls;
  }
}

/** The servers the integration run shares (see test-setup.ts); each test file picks its own database names. */
export const testStores = (): TestStoreUrls => inject('stores');
