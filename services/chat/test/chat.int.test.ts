// The chat's HTTP routes on real stores: who may read and write an offer's chat, what a message
// may be, when the chat closes, the send limit, and the conversations and names projected from
// trade's and auth's events (redeliveries and late events included).
import { CHAT_FORMER_MEMBER_NAME, CHAT_MESSAGES, eventRegistry, TEXT_MESSAGES, type ChatMessage } from '@ruilplein/contracts';
import { createEvent, publishEvent } from '@ruilplein/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyOffer } from '../src/conversations/consumer.ts';
import { startChat, subjectOf, waitFor, type ChatHarness, type TestMember } from './chat.helpers.ts';

let chat: ChatHarness;
let sanne: TestMember;
let daan: TestMember;
let lotte: TestMember;

beforeAll(async () => {
  chat = await startChat();
  [sanne, daan, lotte] = await Promise.all([chat.member('Sanne'), chat.member('Daan'), chat.member('Lotte')]);
});

afterAll(async () => {
  await chat?.close();
});

const json = async <T = unknown>(res: Response): Promise<T> => (await res.json()) as T;

describe('GET /api/chat/{offerId} and POST /api/chat/send', () => {
  it('lets the two parties write and read the chat, numbered per conversation, oldest first', async () => {
    const offer = await chat.offer(sanne, daan);
    expect(await json(await chat.messages(sanne, offer.id))).toEqual([]);

    const first = await chat.send(sanne, { tradeOfferId: offer.id, content: '  Hoi Daan, wanneer kan ik langskomen?  ' });
    expect(first.status).toBe(201);
    const stored = await json<ChatMessage>(first);
    expect(stored).toMatchObject({ id: 1, tradeOfferId: offer.id, sender: { id: sanne.id, firstName: 'Sanne' }, content: 'Hoi Daan, wanneer kan ik langskomen?' });
    expect(Date.now() - Date.parse(stored.sentAt)).toBeLessThan(10_000);
    expect((await chat.send(daan, { tradeOfferId: offer.id, content: 'Zaterdag?' })).status).toBe(201);
    expect((await chat.send(sanne, { tradeOfferId: offer.id, content: 'Prima!' })).status).toBe(201);

    for (const reader of [sanne, daan]) {
      const res = await chat.messages(reader, offer.id);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const list = await json<ChatMessage[]>(res);
      expect(list.map((m) => [m.id, m.sender.firstName, m.content])).toEqual([
        [1, 'Sanne', 'Hoi Daan, wanneer kan ik langskomen?'],
        [2, 'Daan', 'Zaterdag?'],
        [3, 'Sanne', 'Prima!'],
      ]);
    }
    // Catching up by the last id seen.
    expect((await json<ChatMessage[]>(await chat.messages(daan, offer.id, '?after=2'))).map((m) => m.id)).toEqual([3]);
    expect(await json(await chat.messages(daan, offer.id, '?after=3'))).toEqual([]);
    expect((await json<ChatMessage[]>(await chat.messages(daan, offer.id, '?after=0'))).map((m) => m.id)).toEqual([1, 2, 3]);
  });

  it('refuses everyone but the two parties: a third member 403, a guest 401, an unknown offer 404', async () => {
    const offer = await chat.offer(sanne, daan);
    expect((await chat.send(sanne, { tradeOfferId: offer.id, content: 'Alleen voor Daan' })).status).toBe(201);

    const read = await chat.messages(lotte, offer.id);
    expect(read.status).toBe(403);
    expect(await json(read)).toEqual({ message: CHAT_MESSAGES.notParty });
    const write = await chat.send(lotte, { tradeOfferId: offer.id, content: 'Mag ik meedoen?' });
    expect(write.status).toBe(403);
    expect(await json(write)).toEqual({ message: CHAT_MESSAGES.notParty });

    expect((await chat.messages(undefined, offer.id)).status).toBe(401);
    expect((await chat.send(undefined, { tradeOfferId: offer.id, content: 'Hallo' })).status).toBe(401);

    const unknown = await chat.messages(sanne, 999_999_999_999);
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toEqual({ message: CHAT_MESSAGES.notFound });
    expect((await chat.send(sanne, { tradeOfferId: 999_999_999_999, content: 'Hallo' })).status).toBe(404);

    // Nothing of Lotte's was stored.
    expect((await json<ChatMessage[]>(await chat.messages(daan, offer.id))).map((m) => m.content)).toEqual(['Alleen voor Daan']);
  });

  it('refuses an empty, whitespace-only or too long message, one with control or invisible characters and a malformed offer number with a Dutch 400, storing nothing', async () => {
    // Members of their own: refused calls count against the send limit too.
    const [sanne, daan] = await Promise.all([chat.member('Sanne'), chat.member('Daan')]);
    const offer = await chat.offer(sanne, daan);
    const cases: Array<[unknown, string]> = [
      [{ tradeOfferId: offer.id, content: '' }, CHAT_MESSAGES.empty],
      [{ tradeOfferId: offer.id, content: ' \n\t  ' }, CHAT_MESSAGES.empty],
      [{ tradeOfferId: offer.id }, CHAT_MESSAGES.empty],
      [{ tradeOfferId: offer.id, content: 42 }, CHAT_MESSAGES.empty],
      [{ tradeOfferId: offer.id, content: 'x'.repeat(2001) }, CHAT_MESSAGES.tooLong],
      [{ tradeOfferId: 0, content: 'Hoi' }, CHAT_MESSAGES.invalidOffer],
      [{ tradeOfferId: -3, content: 'Hoi' }, CHAT_MESSAGES.invalidOffer],
      [{ tradeOfferId: 1.5, content: 'Hoi' }, CHAT_MESSAGES.invalidOffer],
      [{ tradeOfferId: 'abc', content: 'Hoi' }, CHAT_MESSAGES.invalidOffer],
      [{ tradeOfferId: String(offer.id), content: 'Hoi' }, CHAT_MESSAGES.invalidOffer],
      [{ content: 'Hoi' }, CHAT_MESSAGES.invalidOffer],
      // Control and format characters, lone surrogates (packages/contracts/src/text.ts).
      [{ tradeOfferId: offer.id, content: 'Hoi\u0000' }, TEXT_MESSAGES.forbiddenCharacters],
      [{ tradeOfferId: offer.id, content: 'Hoi \u202Eneeb' }, TEXT_MESSAGES.forbiddenCharacters],
      [{ tradeOfferId: offer.id, content: 'Hoi \uD83D' }, TEXT_MESSAGES.forbiddenCharacters],
      [{ tradeOfferId: offer.id, content: 'Ho\u200Bi' }, TEXT_MESSAGES.forbiddenCharacters],
    ];
    for (const [body, message] of cases) {
      const res = await chat.send(sanne, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json<{ message: string }>(res)).message, JSON.stringify(body)).toBe(message);
    }
    expect((await chat.send(sanne, { tradeOfferId: offer.id, content: 'x'.repeat(2000) })).status).toBe(201);
    expect((await json<ChatMessage[]>(await chat.messages(sanne, offer.id))).map((m) => m.id)).toEqual([1]);
    // Line breaks, tabs and emoji sequences (a zero-width joiner between two emoji) are fine.
    expect((await chat.send(sanne, { tradeOfferId: offer.id, content: 'Tot morgen!\n\t👨\u200D👩\u200D👧' })).status).toBe(201);

    for (const path of ['abc', '0', '-1', '1.5', '1234567890123456']) {
      const res = await chat.messages(sanne, path);
      expect(res.status, path).toBe(400);
      expect(await json(res)).toMatchObject({ message: CHAT_MESSAGES.invalidOffer });
    }
    const badAfter = await chat.messages(sanne, offer.id, '?after=x');
    expect(badAfter.status).toBe(400);
    expect(await json(badAfter)).toMatchObject({ message: CHAT_MESSAGES.invalidAfter });
  });

  it('closes the chat once the offer is withdrawn or rejected (409, its Dutch reason), keeping it readable; accepted and completed stay open', async () => {
    const withdrawn = await chat.offer(sanne, daan);
    expect((await chat.send(daan, { tradeOfferId: withdrawn.id, content: 'Nog interesse?' })).status).toBe(201);
    await withdrawn.set('Cancelled');
    const refused = await chat.send(sanne, { tradeOfferId: withdrawn.id, content: 'Toch wel!' });
    expect(refused.status).toBe(409);
    expect(await json(refused)).toEqual({ message: CHAT_MESSAGES.closedCancelled });
    expect((await json<ChatMessage[]>(await chat.messages(sanne, withdrawn.id))).map((m) => m.content)).toEqual(['Nog interesse?']);

    const rejected = await chat.offer(sanne, daan);
    await rejected.set('Rejected');
    const refusedToo = await chat.send(daan, { tradeOfferId: rejected.id, content: 'Sorry' });
    expect(refusedToo.status).toBe(409);
    expect(await json(refusedToo)).toEqual({ message: CHAT_MESSAGES.closedRejected });
    // A third member still learns nothing more than 403.
    expect((await chat.send(lotte, { tradeOfferId: rejected.id, content: 'Hoi' })).status).toBe(403);

    const traded = await chat.offer(sanne, daan);
    await traded.set('Accepted');
    expect((await chat.send(sanne, { tradeOfferId: traded.id, content: 'Top, tot zaterdag' })).status).toBe(201);
    await traded.set('Completed');
    expect((await chat.send(daan, { tradeOfferId: traded.id, content: 'Bedankt!' })).status).toBe(201);
  });

  it('limits sends per member (429 with Retry-After), through the kit', async () => {
    const [bram, fleur] = await Promise.all([chat.member('Bram'), chat.member('Fleur')]);
    const offer = await chat.offer(bram, fleur);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await chat.send(bram, { tradeOfferId: offer.id, content: `Bericht ${i}` })).status);
    expect(statuses.slice(0, 30).every((s) => s === 201)).toBe(true);
    expect(statuses[30]).toBe(429);
    const limited = await chat.send(bram, { tradeOfferId: offer.id, content: 'Nog een' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another member's count is their own.
    expect((await chat.send(fleur, { tradeOfferId: offer.id, content: 'Rustig aan!' })).status).toBe(201);
  });
});

describe('sender names', () => {
  it("shows the sender's first name as auth announces it now, and 'Voormalig lid' once the account is gone", async () => {
    const [emma, finn] = await Promise.all([chat.member('Emma'), chat.member('Finn')]);
    const offer = await chat.offer(emma, finn);
    await chat.send(emma, { tradeOfferId: offer.id, content: 'Hallo' });
    await chat.send(finn, { tradeOfferId: offer.id, content: 'Hoi' });
    await emma.rename('Emmy');
    expect((await json<ChatMessage[]>(await chat.messages(finn, offer.id))).map((m) => m.sender.firstName)).toEqual(['Emmy', 'Finn']);
    await emma.remove();
    expect((await json<ChatMessage[]>(await chat.messages(finn, offer.id))).map((m) => m.sender)).toEqual([
      { id: emma.id, firstName: CHAT_FORMER_MEMBER_NAME },
      { id: finn.id, firstName: 'Finn' },
    ]);
  });
});

describe('offer events', () => {
  it('applies each offer state once: a redelivered or late older event changes nothing, messages stay numbered', async () => {
    const offer = await chat.offer(sanne, daan);
    await chat.send(sanne, { tradeOfferId: offer.id, content: 'Een' });
    await chat.send(daan, { tradeOfferId: offer.id, content: 'Twee' });
    const created = offer.event();

    // The same state again (a redelivery under a new envelope): nothing changes, not the numbering.
    expect(await applyOffer(chat.store, created)).toBe(false);
    await publishEvent(chat.adminBus, createEvent(eventRegistry, 'trade.offer.created', created));
    await offer.set('Accepted');
    expect(await chat.store.conversations.findOne({ _id: String(offer.id) })).toMatchObject({ version: 2, status: 'Accepted', open: true, seq: 2 });

    // Withdrawn; then the old Accepted state arrives late: still closed.
    await offer.set('Cancelled');
    const accepted = { ...offer.event(), status: 'Accepted' as const, version: 2 };
    const late = createEvent(eventRegistry, subjectOf('Accepted'), accepted);
    await publishEvent(chat.adminBus, late);
    expect(await applyOffer(chat.store, accepted)).toBe(false);
    const handled = chat.db.collection<{ _id: string; state: string }>('consumed_events');
    await waitFor(async () => (await handled.findOne({ _id: `chat-offers:${late.id}` }))?.state === 'done', 'the late event handled');
    expect(await chat.store.conversations.findOne({ _id: String(offer.id) })).toMatchObject({ version: 3, status: 'Cancelled', open: false, seq: 2 });
    expect((await chat.send(sanne, { tradeOfferId: offer.id, content: 'Drie' })).status).toBe(409);
    expect((await json<ChatMessage[]>(await chat.messages(daan, offer.id))).map((m) => [m.id, m.content])).toEqual([
      [1, 'Een'],
      [2, 'Twee'],
    ]);
  });

  it('opens a conversation from any first state it hears of (events may come out of order)', async () => {
    const offer = await chat.offer(sanne, daan);
    const fresh = { ...offer.event(), id: offer.id + 500_000_000, version: 2, status: 'Accepted' as const };
    expect(await applyOffer(chat.store, fresh)).toBe(true);
    // Then its creation, older: ignored.
    expect(await applyOffer(chat.store, { ...fresh, version: 1, status: 'Pending' })).toBe(false);
    expect(await chat.store.conversations.findOne({ _id: String(fresh.id) })).toMatchObject({ version: 2, status: 'Accepted', open: true, seq: 0 });
    expect((await chat.send(daan, { tradeOfferId: fresh.id, content: 'Hoi' })).status).toBe(201);
  });
});

describe('the hub over plain HTTP', () => {
  it('answers long-polling with a Dutch 400: websockets only', async () => {
    const res = await fetch(`${chat.url}/chathub/?EIO=4&transport=polling&offerId=1`);
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: CHAT_MESSAGES.websocketOnly });
  });

  it('serves its OpenAPI document with both routes', async () => {
    const doc = await json<{ paths: Record<string, Record<string, unknown>> }>(await fetch(`${chat.url}/openapi.json`));
    expect(Object.keys(doc.paths).sort()).toEqual(['/api/chat/send', '/api/chat/{offerId}']);
  });
});
