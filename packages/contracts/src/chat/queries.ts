// Request/reply queries the chat service answers on `rpc.chat.<entity>.<verb>`.
import { defineQueries } from '../routes.ts';

/** None yet. */
export const chatQueries = defineQueries('chat', {});
