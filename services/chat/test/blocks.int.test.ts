// Members blocking members, as chat follows it (auth's events on its members durable): sending, the
// history and the hub's admission for an offer between them refused with the Dutch message, both
// ways; after the unblock all of it works again.
import { BLOCK_MESSAGES, eventRegistry, type BlockEvent } from '@ruilplein/contracts';
import { createEvent, publishEvent } from '@ruilplein/service-kit';
import { upgradeRefusal } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChat, waitFor, type ChatHarness, type TestMember } from './chat.helpers.ts';

let chat: ChatHarness;
let sanne: TestMember;
let daan: TestMember;

beforeAll(async () => {
  chat = await startChat();
  [sanne, daan] = await Promise.all([chat.member('Sanne'), chat.member('Daan')]);
});
afterAll(async () => {
  await chat?.close();
});

const announce = (type: 'auth.block.added' | 'auth.block.removed', payload: BlockEvent) => publishEvent(chat.adminBus, createEvent(eventRegistry, type, payload));
const hubPath = (offerId: number, token: string) => `${chat.url}/chathub/?EIO=4&transport=websocket&${new URLSearchParams({ offerId: String(offerId), access_token: token })}`;

describe('blocking in chat', () => {
  it('refuses sending, the history and the hub between them, both ways, and allows them again after the unblock', async () => {
    const offer = await chat.offer(sanne, daan);
    expect((await chat.send(sanne, { tradeOfferId: offer.id, content: 'Hoi Daan' })).status).toBe(201);
    const pair = { blockerId: daan.id, blockedId: sanne.id, version: 1, at: '2026-03-01T10:00:00.000Z' };
    await announce('auth.block.added', pair);
    await waitFor(() => chat.store.blocks.blockedEitherWay(sanne.id, daan.id), 'block applied');

    for (const who of [sanne, daan]) {
      const sent = await chat.send(who, { tradeOfferId: offer.id, content: 'Hallo?' });
      expect([sent.status, ((await sent.json()) as { message: string }).message]).toEqual([403, BLOCK_MESSAGES.cannotChat]);
      const history = await chat.messages(who, offer.id);
      expect([history.status, ((await history.json()) as { message: string }).message]).toEqual([403, BLOCK_MESSAGES.cannotChat]);
      const hub = await upgradeRefusal(hubPath(offer.id, who.token), { origin: 'http://ruilplein.test' });
      expect([hub.status, JSON.parse(hub.body).message]).toEqual([403, BLOCK_MESSAGES.cannotChat]);
    }

    await announce('auth.block.removed', { ...pair, version: 2 });
    await waitFor(async () => !(await chat.store.blocks.blockedEitherWay(sanne.id, daan.id)), 'unblock applied');
    expect((await chat.send(daan, { tradeOfferId: offer.id, content: 'Sorry!' })).status).toBe(201);
    const history = await chat.messages(sanne, offer.id);
    expect(((await history.json()) as Array<{ content: string }>).map((m) => m.content)).toEqual(['Hoi Daan', 'Sorry!']);
    const socket = await chat.connect(sanne, offer.id);
    expect(socket.connected).toBe(true);
  });
});
