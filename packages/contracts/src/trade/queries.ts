// Request/reply queries the trade service answers on `rpc.trade.<entity>.<verb>`.
import { defineQueries } from '../routes.ts';

/** None yet. */
export const tradeQueries = defineQueries('trade', {});
