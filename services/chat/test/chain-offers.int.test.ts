// The chat of a three-party offer (a swap chain, issue 24): its conversation, projected from a
// version 2 `trade.offer.*` event, holds all three members (each sends, reads the history and is
// admitted to the hub's room; a message goes to the two others), while a version 1 event of a
// two-party offer, through the same consumer, still makes a chat of its sender and receiver.
import { eventRegistry, type ChatMessage, type ChatMessageSentEvent, type EventEnvelope } from '@ruilplein/contracts';
import { createEvent, publishEvent } from '@ruilplein/service-kit';
import { offerEvent } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChat, waitFor, type ChatHarness, type TestMember } from './chat.helpers.ts';

let chat: ChatHarness;
beforeAll(async () => {
  chat = await startChat();
});
afterAll(async () => {
  await chat?.close();
});

const projected = (id: number) => waitFor(async () => !!(await chat.store.conversations.findOne({ _id: String(id) })), `conversation ${id}`);
const offerId = () => 1_500_000_000 + Math.floor(Math.random() * 500_000_000);

describe('offer events of both versions in chat', () => {
  it('lets all three members of a chain chat, and the two of a version 1 offer', async () => {
    const [a, b, c, s, r, stranger] = (await Promise.all(['Anna', 'Bram', 'Cas', 'Sanne', 'Daan', 'Vreemde'].map((n) => chat.member(n)))) as [TestMember, TestMember, TestMember, TestMember, TestMember, TestMember];
    const chainId = offerId();
    const chain = offerEvent({
      id: chainId,
      senderId: a.id,
      receiverId: b.id,
      chainId: 'chain-x',
      participants: [a, b, c].map((m) => ({ userId: m.id, gives: [], receives: [], accepted: m === a, confirmed: false })),
    });
    const v2 = createEvent(eventRegistry, 'trade.offer.created', chain);
    expect(v2.schemaVersion).toBe(2);
    await publishEvent(chat.adminBus, v2);
    const twoId = offerId();
    const old = createEvent(eventRegistry, 'trade.offer.created', offerEvent({ id: twoId, senderId: s.id, receiverId: r.id }));
    await publishEvent(chat.adminBus, { ...old, schemaVersion: 1 });
    await projected(chainId);
    await projected(twoId);

    // c is neither the chain's sender nor its receiver: a member all the same.
    const sent = await chat.send(c, { tradeOfferId: chainId, content: 'Hoi allebei!' });
    expect(sent.status, await sent.clone().text()).toBe(201);
    const message = (await sent.json()) as ChatMessage;
    for (const m of [a, b, c]) {
      const history = await chat.messages(m, chainId);
      expect(history.status).toBe(200);
      expect(((await history.json()) as ChatMessage[]).map((x) => x.content)).toEqual(['Hoi allebei!']);
    }
    expect(message.sender.firstName).toBe('Cas');
    // Announced to the two others (the notification service tells each one it did not reach live).
    const consumer = await chat.adminBus.js.consumers.get('chat', { filterSubjects: ['chat.message.sent'] });
    let recipients: string[] | undefined;
    await waitFor(async () => {
      const batch = await consumer.fetch({ max_messages: 100, expires: 1000 });
      for await (const msg of batch) {
        const event = msg.json<EventEnvelope<ChatMessageSentEvent>>();
        if (event.payload.offerId === chainId && event.payload.messageId === message.id) recipients = event.payload.recipientIds;
      }
      return !!recipients;
    }, 'the message announced');
    expect(new Set(recipients)).toEqual(new Set([a.id, b.id]));
    expect((await chat.messages(stranger, chainId)).status).toBe(403);
    expect((await chat.send(stranger, { tradeOfferId: chainId, content: 'Mag ik meedoen?' })).status).toBe(403);
    // The hub's room admits the third member too, and refuses anyone else.
    const socket = await chat.connect(c, chainId);
    expect(socket.connected).toBe(true);
    await expect(chat.connect(stranger, chainId)).rejects.toThrow();

    // The version 1 offer: its two parties chat, the chain's members do not.
    expect((await chat.send(r, { tradeOfferId: twoId, content: 'Is de fiets er nog?' })).status).toBe(201);
    expect((await chat.messages(s, twoId)).status).toBe(200);
    expect((await chat.messages(c, twoId)).status).toBe(403);
  });
});
