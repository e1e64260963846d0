import type { Logger } from '@ruilplein/service-kit';
import type { Server } from 'socket.io';
import { roomOf } from '../hub/hub.ts';
import type { RoomPresence } from './messages.ts';

/**
 * How long the other replicas may take to say who is in a room. A replica that died is still
 * counted by the adapter until its heartbeat times out; until then this answers from the local
 * sockets only, so a send is slowed by at most this much.
 */
const REPLICAS_TIMEOUT_MS = 300;

const membersOf = (sockets: readonly { data: unknown }[]) =>
  new Set(sockets.map((s) => (s.data as { userId?: string } | undefined)?.userId).filter((id): id is string => typeof id === 'string'));

/**
 * Who is in an offer's room, asked of every replica through the hub's adapter (socket.io's
 * fetchSockets): whether a message's recipient saw it live (`chat.message.sent`'s
 * `recipientOnline`). Never fails: without the other replicas' answer, this replica's sockets.
 */
export function roomPresence(io: Server, logger: Logger, timeoutMs = REPLICAS_TIMEOUT_MS): RoomPresence {
  return async (offerId) => {
    const room = roomOf(offerId);
    try {
      return membersOf(await io.timeout(timeoutMs).in(room).fetchSockets());
    } catch (err) {
      logger.debug({ err, offerId }, 'chat: the other replicas did not say who is in the room; this replica’s sockets count');
      return membersOf(await io.local.in(room).fetchSockets());
    }
  };
}
