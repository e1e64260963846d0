import { createConfig, type RspackEnv } from '@ruilplein/frontend-build';

export default (env: RspackEnv) => createConfig({ name: 'listings', kind: 'remote', root: import.meta.dirname, port: 3001 }, env);
