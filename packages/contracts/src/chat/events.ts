// What the chat service announces on NATS (`chat.>`): payload schemas of their own, each event
// about one aggregate with its `version` (see auth/events.ts).
import { z } from 'zod';
import { defineEvents } from '../events.ts';
import { CHAT_PREVIEW_MAX_LENGTH } from './rules.ts';

/**
 * A message was stored in the chat of a trade offer (published through the chat's outbox, in the
 * same write as the message): for notifications to its recipients, who may not have the chat open.
 * A message never changes: `version` is always 1.
 */
export const ChatMessageSentEventSchema = z.object({
  /** The message's number in its conversation (ChatMessage.id); with `offerId` it names the message. */
  messageId: z.number().int().positive(),
  version: z.number().int().positive(),
  offerId: z.number().int().positive(),
  senderId: z.string(),
  /** Who should hear of it: the offer's other party (a list, so a group chat fits later). */
  recipientIds: z.array(z.string()).min(1),
  /** The start of the message on one line (chatPreview), never the whole of a long one. */
  preview: z.string().max(CHAT_PREVIEW_MAX_LENGTH),
  sentAt: z.iso.datetime(),
  /**
   * Whether the recipient had a socket in this offer's chat room (on any replica) when it was sent:
   * then they saw it live and need no notification. Events from before the field read as false.
   */
  recipientOnline: z.boolean().default(false),
});
export type ChatMessageSentEvent = z.infer<typeof ChatMessageSentEventSchema>;

export const chatEvents = defineEvents('chat', {
  'chat.message.sent': ChatMessageSentEventSchema,
});
