// Kept for the tests that import it from here; the kit owns it (packages never import infra).
export { testStores, type TestStoreUrls } from '@ruilplein/service-kit/test-stores';
