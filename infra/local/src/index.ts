export { bootstrap, BootstrapError, nginxBinary, type BootstrapOptions } from './bootstrap.ts';
export { benchSmoke, runBench, type Bench } from './bench.ts';
export { dockerAnswers } from './docker.ts';
export { CONTENT_SECURITY_POLICY, createEdge, FRONTEND_SECURITY_HEADERS, type Edge, type EdgeControls, type EdgeOptions } from './edge.ts';
export { buildStaleFrontends, frontends, staleReason, type Frontend } from './frontends.ts';
export { findBinary, repoRoot } from './paths.ts';
export { fixedPorts, startPlatform, type Platform, type PlatformOptions, type RunningService } from './platform.ts';
export { freePort, NATS_ADMIN, NATS_SERVICES, startStores, storeEnv, type StartStoresOptions, type StoreKinds, type StoreName, type Stores } from './stores.ts';
export { testStores, type TestStoreUrls } from './testing.ts';
