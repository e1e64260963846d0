// The servers an integration run shares: the run's globalSetup (infra/local/src/test-setup.ts)
// starts them and provides their URLs; tests read them here, so no package's test imports infra.
import { inject } from 'vitest';

export interface TestStoreUrls {
  mongoUrl: string;
  redisUrl: string;
  /** As the privileged NATS user. */
  natsUrl: string;
  /** Per service, as its own NATS user (rights from the contracts' registry); absent when TEST_NATS_URL names a NATS. */
  natsServiceUrls?: Record<string, string>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stores: TestStoreUrls;
  }
}

/** The servers the integration run shares; each test file picks its own database names. */
export const testStores = (): TestStoreUrls => inject('stores');
