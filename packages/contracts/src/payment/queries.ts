// Request/reply queries the payment service answers on `rpc.payment.<entity>.<verb>`.
import { defineQueries } from '../routes.ts';

/** None: other services learn of Premium through auth's member events. */
export const paymentQueries = defineQueries('payment', {});
