export { createSocketHub, type HubMember, type SocketHub, type SocketHubOptions } from './hub.ts';
export { originPolicy } from './origins.ts';
export { adapterRedisClient } from './adapter.ts';
