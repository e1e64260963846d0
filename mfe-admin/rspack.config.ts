import { createConfig, type RspackEnv } from '@ruilplein/frontend-build';

export default (env: RspackEnv) => createConfig({ name: 'admin', kind: 'remote', root: import.meta.dirname, port: 3003 }, env);
