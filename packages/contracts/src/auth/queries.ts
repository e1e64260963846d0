// Request/reply queries the auth service answers on `rpc.auth.<entity>.<verb>`.
import { defineQueries } from '../routes.ts';

/** None yet. */
export const authQueries = defineQueries('auth', {});
