export { bootstrap, BootstrapError, type BootstrapOptions } from './bootstrap.ts';
export { dockerAnswers } from './docker.ts';
export { createEdge, type EdgeOptions } from './edge.ts';
export { findBinary, repoRoot } from './paths.ts';
export { startStores, storeEnv, type StartStoresOptions, type StoreKinds, type StoreName, type Stores } from './stores.ts';
export { testStores, type TestStoreUrls } from './testing.ts';
