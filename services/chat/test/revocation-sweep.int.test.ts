// The hub's last line against a revocation it was never told of (auth died between raising the
// version and announcing it): every socket is checked against Redis each `revocationSweepMs`. Its
// own file: one chat harness at a time shares the run's NATS durables.
import { tokenVersionKey } from '@ruilplein/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startChat, type ChatHarness } from './chat.helpers.ts';

let chat: ChatHarness;

beforeAll(async () => {
  chat = await startChat({ revocationSweepMs: 200 });
});
afterAll(async () => {
  await chat?.close();
});

it('closes, within its period, the sockets of a revocation nobody announced', async () => {
  const [anna, bram] = await Promise.all([chat.member('Anna'), chat.member('Bram')]);
  const offer = await chat.offer(anna, bram);
  const [annaSocket, bramSocket] = [await chat.connect(anna, offer.id), await chat.connect(bram, offer.id)];
  const gone = new Promise<string>((resolve) => annaSocket.once('disconnect', (reason) => resolve(reason)));
  await chat.redis.incr(tokenVersionKey(anna.id));
  expect(await gone).toBe('io server disconnect');
  expect(bramSocket.connected).toBe(true);
});
