// What the chat service announces on NATS (`chat.>`): payload schemas of their own, each event
// about one aggregate with its `version` (see auth/events.ts).
import { defineEvents } from '../events.ts';

/** None yet. */
export const chatEvents = defineEvents('chat', {});
