// Where each listing route lives and who may call it: zod-free, so the browser's typed client takes
// these very objects (`@ruilplein/contracts/browser`); routes.ts adds summaries and schemas.
import { defineRefs } from '../routes.ts';

export const categoryRefs = defineRefs({
  list: { service: 'listing', method: 'get', path: '/api/category', access: 'public' },
});
