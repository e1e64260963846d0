import { inject } from 'vitest';

export interface TestStoreUrls {
  mongoUrl: string;
  redisUrl: string;
  natsUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stores: TestStoreUrls;
  }
}

/** The servers the integration run shares (see test-setup.ts); each test file picks its own database names. */
export const testStores = (): TestStoreUrls => inject('stores');
