// What the moderation service announces on NATS (`moderation.>`): payload schemas of their own, each event
// about one aggregate with its `version` (see auth/events.ts).
import { defineEvents } from '../events.ts';

/** None yet. */
export const moderationEvents = defineEvents('moderation', {});
