import { createConfig, type RspackEnv } from '@ruilplein/frontend-build';

export default (env: RspackEnv) => createConfig({ name: 'shell', kind: 'host', root: import.meta.dirname, port: 3000 }, env);
