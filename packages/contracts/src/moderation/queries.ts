// Request/reply queries the moderation service answers on `rpc.moderation.<entity>.<verb>`.
import { defineQueries } from '../routes.ts';

/** None yet. */
export const moderationQueries = defineQueries('moderation', {});
