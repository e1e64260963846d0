// The real-time chat on the kit's live hub (socket-hub/: origin, token, revocation, expiry, rooms
// across replicas, session recovery): socket.io on /chathub (spec 2 §7), websockets only. What is
// chat's own: an upgrade names an offer and its caller must be one of the offer's two parties (a
// real HTTP refusal otherwise: 400, 403, 404); the socket then joins the offer's room and receives
// `ReceiveMessage(senderFirstName, content, message)` for every message stored from then on,
// whichever replica stored it, and `OfferUpdated` when the offer's status changes. A recovered
// session must be for the same offer.
//
// Without recovery (window over, or the replica was killed before it could keep the session) the
// client reads what it missed: GET /api/chat/{id}?after=<last id>, or `auth: { lastMessageId }` on
// connect, which makes the hub send them first.
import { CHAT_HUB, CHAT_MESSAGES, type ChatMessage, type OfferEvent } from '@ruilplein/contracts';
import { badRequest, createSocketHub, type Logger, type SocketHub, type TokenVerifier } from '@ruilplein/service-kit';
import type { RedisClientType } from 'redis';
import type { Socket } from 'socket.io';
import { listMessages, partyConversation } from '../conversations/messages.ts';
import { conversationKey, type ChatStore } from '../conversations/model.ts';

const OFFER_ID = /^[1-9]\d{0,14}$/;

export interface HubDeps {
  store: ChatStore;
  logger: Logger;
  verifyToken: TokenVerifier;
  /** `kit.redis()`: token versions and the revocation listener (fails at once while Redis is away). */
  redis: RedisClientType;
  allowOrigin: (origin: string | undefined) => boolean;
  /** Shares rooms and sessions between replicas (the kit's socket-hub); absent: this process only. */
  adapterRedis?: RedisClientType;
  /** The adapter's stream (and key prefix); tests give each set of replicas its own. */
  streamName?: string;
  /** How long a disconnected socket can be recovered; 2 minutes by default. */
  recoveryMs?: number;
  /** How often every socket's token is checked against revocations that were not announced; 1 minute by default. */
  revocationSweepMs?: number;
}

export interface Hub extends SocketHub {
  /** Sends a stored message to its offer's room, on every replica. */
  broadcast(message: ChatMessage): void;
  /** Tells the offer's room that its status changed. */
  offerChanged(offer: OfferEvent): void;
}

export const roomOf = (offerId: number) => `offer:${offerId}`;

export function createHub(deps: HubDeps): Hub {
  const { store, logger } = deps;
  const hub = createSocketHub<{ offerId: number }>({
    name: 'chat hub',
    path: CHAT_HUB.path,
    tokenParam: CHAT_HUB.tokenParam,
    wrongOrigin: CHAT_MESSAGES.wrongOrigin,
    otherSession: CHAT_MESSAGES.notParty,
    logger,
    verifyToken: deps.verifyToken,
    redis: deps.redis,
    allowOrigin: deps.allowOrigin,
    adapterRedis: deps.adapterRedis,
    streamName: deps.streamName ?? 'chat:hub',
    recoveryMs: deps.recoveryMs,
    revocationSweepMs: deps.revocationSweepMs,
    async admit(url, member) {
      const offer = url.searchParams.get(CHAT_HUB.offerParam);
      if (!offer) throw badRequest(CHAT_MESSAGES.offerRequired);
      if (!OFFER_ID.test(offer)) throw badRequest(CHAT_MESSAGES.invalidOffer);
      const conversation = await partyConversation(store, Number(offer), member.userId);
      return { offerId: conversation.offerId };
    },
    sameSession: (before, now) => before.offerId === now.offerId,
    connected(socket, { offerId }) {
      // A recovered socket is back in its rooms already.
      if (!socket.recovered) void socket.join(roomOf(offerId));
      const last: unknown = (socket.handshake.auth as { lastMessageId?: unknown }).lastMessageId;
      if (!socket.recovered && typeof last === 'number' && Number.isInteger(last) && last >= 0) {
        catchUp(socket, offerId, last).catch((err: unknown) => logger.warn({ err, offerId }, 'chat hub: catch-up failed'));
      }
    },
  });

  /** Joined first, then read: a message stored meanwhile comes both ways, and the client keeps one per id. */
  async function catchUp(socket: Socket, offerId: number, after: number) {
    const conversation = await store.conversations.findOne({ _id: conversationKey(offerId) });
    if (!conversation) return;
    for (const message of await listMessages(store, conversation, after)) {
      if (!socket.connected) return;
      socket.emit(CHAT_HUB.receiveMessage, message.sender.firstName, message.content, message);
    }
  }

  return {
    ...hub,
    broadcast(message) {
      hub.io.to(roomOf(message.tradeOfferId)).emit(CHAT_HUB.receiveMessage, message.sender.firstName, message.content, message);
    },
    offerChanged(offer) {
      hub.io.to(roomOf(offer.id)).emit(CHAT_HUB.offerUpdated, { id: offer.id, status: offer.status, version: offer.version });
    },
  };
}
