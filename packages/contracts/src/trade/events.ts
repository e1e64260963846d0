// What the trade service announces on NATS (`trade.>`): payload schemas of their own, each event
// about one aggregate with its `version` (see auth/events.ts).
import { defineEvents } from '../events.ts';

/** None yet. */
export const tradeEvents = defineEvents('trade', {});
