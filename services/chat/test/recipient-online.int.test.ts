// `chat.message.sent`'s `recipientOnline`: whether the recipient had a socket in the offer's room
// when the message was stored, on whichever replica (asked through the hub's shared rooms), so the
// notification service leaves a message seen live alone.
import type { ChatMessage, ChatMessageSentEvent, EventEnvelope } from '@ruilplein/contracts';
import type { ConsumerMessages } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roomOf } from '../src/hub/hub.ts';
import { startChat, waitFor, type ChatHarness, type TestMember } from './chat.helpers.ts';

let chat: ChatHarness;
let sanne: TestMember;
let daan: TestMember;
let reading: ConsumerMessages;
const events: EventEnvelope<ChatMessageSentEvent>[] = [];

beforeAll(async () => {
  chat = await startChat({ replicas: 2 });
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

/** Sanne sends through the first replica; answers the event of that message. */
async function sentBySanne(offerId: number, content: string) {
  const res = await chat.send(sanne, { tradeOfferId: offerId, content });
  expect(res.status, await res.clone().text()).toBe(201);
  const message = (await res.json()) as ChatMessage;
  await waitFor(() => events.some((e) => e.payload.offerId === offerId && e.payload.messageId === message.id), 'the event');
  return events.find((e) => e.payload.offerId === offerId && e.payload.messageId === message.id)!.payload;
}

describe('chat.message.sent recipientOnline', () => {
  it('is true while the recipient has the chat open, on this replica or another, and false otherwise', async () => {
    const offer = await chat.offer(sanne, daan);
    const other = await chat.offer(sanne, daan);
    expect(await sentBySanne(offer.id, 'Niemand kijkt')).toMatchObject({ recipientIds: [daan.id], recipientOnline: false });

    // Daan's socket on the other replica than the one storing the message.
    const far = await chat.connect(daan, offer.id, { replica: chat.replicas[1] });
    expect((await sentBySanne(offer.id, 'Daan kijkt elders')).recipientOnline).toBe(true);
    // In another offer's chat he does not see this one.
    expect((await sentBySanne(other.id, 'Andere ruil')).recipientOnline).toBe(false);
    far.close();
    await waitFor(async () => (await chat.replicas[1]!.service.hub.io.local.in(roomOf(offer.id)).fetchSockets()).length === 0, 'socket gone');
    expect((await sentBySanne(offer.id, 'Weer weg')).recipientOnline).toBe(false);

    // On the same replica; the sender's own socket does not count for him.
    await chat.connect(sanne, offer.id);
    expect((await sentBySanne(offer.id, 'Alleen Sanne kijkt')).recipientOnline).toBe(false);
    await chat.connect(daan, offer.id);
    expect((await sentBySanne(offer.id, 'Daan kijkt hier')).recipientOnline).toBe(true);
  });
});
