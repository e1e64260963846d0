// Reading and storing messages. A message gets the next number of its conversation in one
// conditional update (`{_id, open: true}`, `$inc seq`), so numbers grow by one per conversation and
// nothing is numbered once the conversation is closed; the message is then inserted under that
// number together with its `chat.message.sent` event (the outbox), and only after that write was
// acknowledged is it broadcast (routes.ts).
import { BLOCK_MESSAGES, CHAT_FORMER_MEMBER_NAME, CHAT_HISTORY_MAX, CHAT_MESSAGES, chatClosedMessage, chatPreview, eventRegistry, type ChatMessage } from '@ruilplein/contracts';
import { conflict, createEvent, forbidden, notFound, now, outboxDocument } from '@ruilplein/service-kit';
import { conversationKey, isParty, membersOf, messageKey, type ChatStore, type ConversationDoc, type MessageDoc } from './model.ts';

/** The members with a socket in an offer's chat room now, on any replica (presence.ts). */
export type RoomPresence = (offerId: number) => Promise<ReadonlySet<string>>;

/** A sender the members projection does not know yet (its event is still on its way). */
const UNKNOWN_FIRST_NAME = 'Lid';

/**
 * The conversation of an offer, for one of its members (two, or three for a swap chain): 404 when
 * unknown, 403 for anyone else, and 403 while one of them blocked another (the hub's admission and
 * the history ask here).
 */
export async function partyConversation(store: ChatStore, offerId: number, userId: string): Promise<ConversationDoc> {
  const conversation = await store.conversations.findOne({ _id: conversationKey(offerId) });
  if (!conversation) throw notFound(CHAT_MESSAGES.notFound);
  if (!isParty(conversation, userId)) throw forbidden(CHAT_MESSAGES.notParty);
  const members = membersOf(conversation);
  for (const [i, a] of members.entries()) {
    for (const b of members.slice(i + 1)) if (await store.blocks.blockedEitherWay(a, b)) throw forbidden(BLOCK_MESSAGES.cannotChat);
  }
  return conversation;
}

/** First names by member id as the projection has them now; null for an account that is gone. */
async function firstNames(store: ChatStore, ids: readonly string[]): Promise<Map<string, string | null>> {
  const members = await store.members.byIds(ids);
  return new Map([...members.values()].map((m) => [m._id, m.deleted ? null : m.firstName]));
}

function present(doc: MessageDoc, names: ReadonlyMap<string, string | null>): ChatMessage {
  const name = names.get(doc.senderId);
  return {
    id: doc.seq,
    tradeOfferId: doc.offerId,
    sender: { id: doc.senderId, firstName: name === null ? CHAT_FORMER_MEMBER_NAME : name || doc.senderFirstName },
    content: doc.content,
    sentAt: doc.sentAt.toISOString(),
  };
}

/**
 * The messages after `after` (all when 0), oldest first, at most the latest CHAT_HISTORY_MAX. A
 * number whose insert failed after it was allocated is simply absent.
 */
export async function listMessages(store: ChatStore, conversation: ConversationDoc, after = 0): Promise<ChatMessage[]> {
  const last = conversation.seq;
  const from = Math.max(after + 1, last - CHAT_HISTORY_MAX + 1, 1);
  if (from > last) return [];
  const keys = Array.from({ length: last - from + 1 }, (_, i) => messageKey(conversation.offerId, from + i));
  const [docs, names] = await Promise.all([
    store.messages.find({ _id: { $in: keys } }).toArray(),
    firstNames(store, membersOf(conversation)),
  ]);
  return docs.sort((a, b) => a.seq - b.seq).map((doc) => present(doc, names));
}

/**
 * Stores a message of `userId` in the open conversation of `offerId` and answers it as stored:
 * 404 for an unknown offer, 403 when the caller is no party, 409 with the Dutch reason once the
 * offer is withdrawn or rejected. The hot path is one conditional update (party, open: the next
 * number) beside the sender's name and who is in the offer's room (`present`, for the event's
 * `recipientOnline`; absent: nobody), then the insert.
 */
export async function storeMessage(
  store: ChatStore,
  offerId: number,
  userId: string,
  content: string,
  options: { present?: RoomPresence; retried?: boolean } = {},
): Promise<ChatMessage> {
  const [numbered, names, inRoom, hidden] = await Promise.all([
    store.conversations.findOneAndUpdate(
      { _id: conversationKey(offerId), open: true, $or: [{ senderId: userId }, { receiverId: userId }, { participantIds: userId }] },
      { $inc: { seq: 1 } },
      { returnDocument: 'after' },
    ),
    firstNames(store, [userId]),
    options.present?.(offerId) ?? new Set<string>(),
    store.blocks.hiddenFor(userId),
  ]);
  if (!numbered) {
    // Why not: unknown (404), someone else's (403), or closed (409).
    const conversation = await partyConversation(store, offerId, userId);
    if (!conversation.open) throw conflict(chatClosedMessage(conversation.status));
    // Opened between the two reads (its first event just arrived): once more.
    if (!options.retried) return storeMessage(store, offerId, userId, content, { ...options, retried: true });
    throw conflict(chatClosedMessage(conversation.status));
  }
  const name = names.get(userId);
  const doc: MessageDoc = {
    _id: messageKey(offerId, numbered.seq),
    offerId,
    seq: numbered.seq,
    senderId: userId,
    senderFirstName: name === null ? CHAT_FORMER_MEMBER_NAME : name || UNKNOWN_FIRST_NAME,
    content,
    sentAt: now(),
  };
  // The message and its event in one single-document write: both or neither (the outbox relay
  // publishes it after).
  const recipients = membersOf(numbered).filter((id) => id !== userId);
  // Blocked either way: the number stays unused (absent, as after a failed insert).
  if (recipients.some((id) => hidden.has(id))) throw forbidden(BLOCK_MESSAGES.cannotChat);
  const event = createEvent(eventRegistry, 'chat.message.sent', {
    messageId: doc.seq,
    version: 1,
    offerId,
    senderId: userId,
    recipientIds: recipients,
    preview: chatPreview(content),
    sentAt: doc.sentAt.toISOString(),
    // Seen live: the notification service leaves it be.
    recipientOnline: recipients.every((id) => inRoom.has(id)),
  });
  await store.messages.insertOne({ ...doc, ...outboxDocument(event) });
  return present(doc, names);
}
