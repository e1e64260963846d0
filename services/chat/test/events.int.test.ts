// `chat.message.sent`: each stored message announced once, through the messages' outbox (the event
// is written with the message, in one single-document write, and published by the kit's relay).
import { CHAT_PREVIEW_MAX_LENGTH, type ChatMessage, type ChatMessageSentEvent, type EventEnvelope } from '@ruilplein/contracts';
import { outboxFields, startOutboxRelay } from '@ruilplein/service-kit';
import type { ConsumerMessages } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logger, startChat, waitFor, type ChatHarness, type TestMember } from './chat.helpers.ts';

let chat: ChatHarness;
let sanne: TestMember;
let daan: TestMember;
let reading: ConsumerMessages;
/** Every `chat.message.sent` on the stream since this file started, in stream order. */
const events: EventEnvelope<ChatMessageSentEvent>[] = [];

beforeAll(async () => {
  chat = await startChat();
  [sanne, daan] = await Promise.all([chat.member('Sanne'), chat.member('Daan')]);
  const consumer = await chat.adminBus.js.consumers.get('chat', { filterSubjects: ['chat.message.sent'] });
  reading = await consumer.consume();
  void (async () => {
    for await (const msg of reading) events.push(msg.json<EventEnvelope<ChatMessageSentEvent>>());
  })();
});

afterAll(async () => {
  await reading?.close();
  await chat?.close();
});

const send = async (member: TestMember, offerId: number, content: string) => {
  const res = await chat.send(member, { tradeOfferId: offerId, content });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as ChatMessage;
};
const eventsOf = (offerId: number, messageId?: number) => events.filter((e) => e.payload.offerId === offerId && (messageId === undefined || e.payload.messageId === messageId));
/** Sends one more message and waits for its event: anything published before it is on the stream by then. */
async function settled(offerId: number) {
  const last = await send(sanne, offerId, 'Laatste');
  await waitFor(() => eventsOf(offerId, last.id).length > 0, 'the last event');
}

describe('chat.message.sent', () => {
  it('announces each message once, with its sender, recipient, offer, number and a preview', async () => {
    const offer = await chat.offer(sanne, daan);
    const message = await send(daan, offer.id, 'Hoi Sanne!\nIs de fiets er nog?');
    await waitFor(() => eventsOf(offer.id, message.id).length > 0, 'the event');
    const [event] = eventsOf(offer.id, message.id);
    expect(event!.type).toBe('chat.message.sent');
    expect(event!.payload).toEqual({
      messageId: message.id,
      version: 1,
      offerId: offer.id,
      senderId: daan.id,
      recipientIds: [sanne.id],
      preview: 'Hoi Sanne! Is de fiets er nog?',
      sentAt: message.sentAt,
      recipientOnline: false, // Sanne has no socket in the chat (recipient-online.int.test.ts)
    });
    // Published, so no longer pending in the message's document.
    await waitFor(async () => !(await chat.store.messages.findOne({ _id: `${offer.id}:${message.id}` }, { projection: { outboxPending: 1 } }))?.outboxPending, 'the outbox cleared');
    await settled(offer.id);
    expect(eventsOf(offer.id, message.id)).toHaveLength(1);
  });

  it('keeps the preview to 80 characters, cut between whole characters', async () => {
    const offer = await chat.offer(sanne, daan);
    const long = `${'Een lang verhaal over de ruil '.repeat(5)}😄😄😄`;
    const message = await send(sanne, offer.id, long);
    await waitFor(() => eventsOf(offer.id, message.id).length > 0, 'the event');
    const { preview, recipientIds } = eventsOf(offer.id, message.id)[0]!.payload;
    expect(preview.length).toBeLessThanOrEqual(CHAT_PREVIEW_MAX_LENGTH);
    expect(preview.endsWith('…')).toBe(true);
    expect(long.startsWith(preview.slice(0, -1))).toBe(true);
    expect(preview.isWellFormed()).toBe(true);
    expect(recipientIds).toEqual([daan.id]);
  });

  it('publishes nothing for a message that was refused', async () => {
    const offer = await chat.offer(sanne, daan);
    expect((await chat.send(sanne, { tradeOfferId: offer.id, content: 'Hoi\u0000' })).status).toBe(400);
    await settled(offer.id);
    expect(eventsOf(offer.id).map((e) => e.payload.preview)).toEqual(['Laatste']);
  });

  it('still announces it once when a relay published it and stopped before clearing it, and another relay publishes it again', async () => {
    const offer = await chat.offer(sanne, daan);
    const message = await send(sanne, offer.id, 'Eén keer');
    await waitFor(() => eventsOf(offer.id, message.id).length > 0, 'the event');
    const [published] = eventsOf(offer.id, message.id);
    const _id = `${offer.id}:${message.id}`;
    // As a relay that died after JetStream's acknowledgement and before its clear would leave it.
    await chat.store.messages.updateOne({ _id }, { $set: outboxFields(published!) });
    const restarted = startOutboxRelay({ bus: chat.adminBus, db: chat.db, collections: [chat.store.messages.collectionName], logger });
    try {
      await restarted.flush();
    } finally {
      await restarted.stop();
    }
    expect((await chat.store.messages.findOne({ _id }))?.outboxPending).toBeUndefined();
    await settled(offer.id);
    // JetStream dropped the copy by its message id (the event id).
    expect(eventsOf(offer.id, message.id).map((e) => e.id)).toEqual([published!.id]);
  });
});
