import type { OfferStatus } from '@ruilplein/contracts';
import { blockProjection, collection, memberProjection, type BlockProjection, type Connection, type Member, type MemberProjection, type OutboxEntry } from '@ruilplein/service-kit';
import type { mongo } from 'mongoose';

/**
 * The chat of one trade offer: a projection of the trade service's `trade.offer.*` events (who the
 * two parties are, where the offer stands; `version` is the offer's), plus the number of the last
 * message stored (`seq`), which only sends change. Keyed by the offer's number written in decimal
 * (conversationKey): our FerretDB answers string ids from its `_id` index but scans for a numeric
 * one (measured: 4 ms a lookup at 200 conversations, growing with every one).
 */
export interface ConversationDoc {
  _id: string;
  offerId: number;
  version: number;
  senderId: string;
  receiverId: string;
  /**
   * Every member of the offer (issue 24: a three-party offer's chat holds all three), from the
   * event's participants (`offerParticipants`). Absent on conversations projected before it: then
   * the sender and the receiver are the members.
   */
  participantIds?: string[];
  status: OfferStatus;
  /** False once the offer was Cancelled or Rejected: nothing can be sent any more. */
  open: boolean;
  /** The id of the last message stored; 0 before the first. Allocated with `$inc`. */
  seq: number;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * One message, keyed `<offerId>:<seq>`: a conversation's messages are read by their ids (1 to the
 * conversation's `seq`), which FerretDB answers from its `_id` index and MongoDB from the primary
 * index; no second index, no scan.
 */
export interface MessageDoc {
  _id: string;
  offerId: number;
  seq: number;
  senderId: string;
  /** The sender's first name when it was sent: shown when the member is not (yet) projected. */
  senderFirstName: string;
  content: string;
  sentAt: Date;
  /** Its `chat.message.sent` until the relay published it (the kit's outbox.ts). */
  outbox?: Record<string, OutboxEntry>;
  outboxPending?: true;
}

/** What the chat knows of a member: the kit's projection of auth's `auth.user.*` events (first names only). */
export type MemberDoc = Member<'firstName'>;

export interface ChatStore {
  conversations: mongo.Collection<ConversationDoc>;
  messages: mongo.Collection<MessageDoc>;
  members: MemberProjection<'firstName'>;
  /** Who blocked whom (auth's events, on the members durable): no chat between them. */
  blocks: BlockProjection;
}

export function chatStore(db: Connection): ChatStore {
  return {
    conversations: collection<ConversationDoc>(db, 'conversations'),
    messages: collection<MessageDoc>(db, 'messages'),
    members: memberProjection(db, { fields: ['firstName'] }),
    blocks: blockProjection(db),
  };
}

export const conversationKey = (offerId: number) => String(offerId);
export const messageKey = (offerId: number, seq: number) => `${offerId}:${seq}`;

/** Cancelled and Rejected close a conversation (spec 2 §4); every other status leaves it open. */
export const isOpenStatus = (status: OfferStatus) => status !== 'Cancelled' && status !== 'Rejected';

/** The conversation's members: its participants, or (projected before they existed) the sender and the receiver. */
export const membersOf = (conversation: Pick<ConversationDoc, 'senderId' | 'receiverId' | 'participantIds'>): string[] =>
  conversation.participantIds?.length ? conversation.participantIds : [conversation.senderId, conversation.receiverId];

/** Member ids are hex (auth's ObjectIds): compared in lower case, as the projection stores them. */
export function isParty(conversation: Pick<ConversationDoc, 'senderId' | 'receiverId' | 'participantIds'>, userId: string): boolean {
  return membersOf(conversation).includes(userId.toLowerCase());
}
