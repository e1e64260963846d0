import { createConfig, type RspackEnv } from '@ruilplein/frontend-build';

export default (env: RspackEnv) => createConfig({ name: 'trades', kind: 'remote', root: import.meta.dirname, port: 3002 }, env);
