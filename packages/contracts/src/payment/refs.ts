// Where each payment route lives and who may call it: zod-free, so the browser's typed client takes
// these very objects (`@ruilplein/contracts/browser`); routes.ts adds summaries and schemas.
import { defineRefs } from '../routes.ts';

/** None yet: the payment service's issue declares them here. */
export const paymentRefs = defineRefs({});
