// Request/reply queries the moderation service answers on `rpc.moderation.<entity>.<verb>`.
import { defineQueries } from '../routes.ts';

/** None: other services learn of suspensions through events. */
export const moderationQueries = defineQueries('moderation', {});
