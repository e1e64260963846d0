import { createConfig, type RspackEnv } from '@ruilplein/frontend-build';
import { PrerenderPages } from '@ruilplein/frontend-build/prerender';

export default (env: RspackEnv = {}) => {
  const config = createConfig({ name: 'shell', kind: 'host', root: import.meta.dirname, port: 3000 }, env);
  // The public pages and the sign-in screens as HTML at build time (src/prerender.tsx); `npm run dev` renders in the browser.
  if (!env.RSPACK_SERVE) config.plugins!.push(new PrerenderPages('./src/prerender.tsx'));
  return config;
};
