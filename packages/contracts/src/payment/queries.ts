// Request/reply queries the payment service answers on `rpc.payment.<entity>.<verb>`.
import { defineQueries } from '../routes.ts';

/** None yet. */
export const paymentQueries = defineQueries('payment', {});
