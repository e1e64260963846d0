// The chat service's HTTP routes. Each route spreads its zod-free ref (refs.ts) and adds what the
// service validates with.
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../routes.ts';
import { isCleanText, TEXT_MESSAGES } from '../text.ts';
import { chatRefs } from './refs.ts';
import { CHAT_MESSAGE_MAX_LENGTH, CHAT_MESSAGES } from './rules.ts';

/** An offer's number: a positive integer (the trade service's ids), at most 15 digits. */
const OFFER_ID = /^[1-9]\d{0,14}$/;
const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);

export const ChatMessageSchema = z
  .object({
    /** Numbered per conversation from 1, in the order the messages were stored: catch up with `after`. */
    id: z.number().int().positive(),
    tradeOfferId: z.number().int().positive(),
    /** The sender's first name now ('Voormalig lid' once the account is gone). */
    sender: z.object({ id: z.string(), firstName: z.string() }),
    content: z.string(),
    sentAt: z.iso.datetime(),
  })
  .meta({ id: 'ChatMessage' });
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const ChatOfferParamsSchema = z.object({
  offerId: z
    .string()
    .regex(OFFER_ID, CHAT_MESSAGES.invalidOffer)
    .transform(Number),
});

export const ChatMessagesQuerySchema = z.object({
  /** Only the messages after this id (the last one the client has); all (the latest 500) when absent. */
  after: z.preprocess(
    first,
    z
      .string()
      .regex(/^(0|[1-9]\d{0,14})$/, CHAT_MESSAGES.invalidAfter)
      .transform(Number)
      .optional(),
  ),
});

/** Spec 2 §3: `{tradeOfferId (integer), content}`; content trimmed, not empty. */
export const SendChatMessageRequestSchema = z
  .object({
    tradeOfferId: z
      .number({ error: CHAT_MESSAGES.invalidOffer })
      .int(CHAT_MESSAGES.invalidOffer)
      .positive(CHAT_MESSAGES.invalidOffer)
      .max(999_999_999_999_999, CHAT_MESSAGES.invalidOffer),
    content: z
      .string({ error: CHAT_MESSAGES.empty })
      .trim()
      .min(1, CHAT_MESSAGES.empty)
      .max(CHAT_MESSAGE_MAX_LENGTH, CHAT_MESSAGES.tooLong)
      .refine(isCleanText, TEXT_MESSAGES.forbiddenCharacters),
  })
  .meta({ id: 'SendChatMessageRequest' });
export type SendChatMessageRequest = z.input<typeof SendChatMessageRequestSchema>;

export const chatRoutes = {
  messages: defineRoute({
    ...chatRefs.messages,
    summary: 'De berichten van de chat bij een ruilaanbod, oudste eerst (de laatste 500; `after`: alleen nieuwere), voor zijn twee partijen',
    params: ChatOfferParamsSchema,
    query: ChatMessagesQuerySchema,
    response: z.array(ChatMessageSchema),
  }),
  send: defineRoute({
    ...chatRefs.send,
    summary: 'Een bericht sturen in de chat bij een ruilaanbod (zijn twee partijen; niet meer na afwijzen of intrekken); opgeslagen, dan live naar de hub',
    body: SendChatMessageRequestSchema,
    response: ChatMessageSchema,
    status: 201,
  }),
} satisfies Record<keyof typeof chatRefs, RouteDef>;
