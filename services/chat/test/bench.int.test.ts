// `npm run bench:chat` must keep working: its smoke mode (toy sizes, seconds) as a child process,
// which must exit 0 and print its figures. Nothing is asserted on time.
import { fileURLToPath } from 'node:url';
import { runBenchSmoke } from '@ruilplein/service-kit/testing';
import { expect, it } from 'vitest';

it('bench:chat --smoke runs and prints its figures', async () => {
  const { stdout } = await runBenchSmoke(fileURLToPath(new URL('../bench/chat.bench.ts', import.meta.url)), {
    figures: [
      /one: 1 replica, 20 sockets over 4 rooms/,
      /two: 2 replicas, 20 sockets over 4 rooms/,
      /server sentAt → delivered \(store write \+ fan-out\): +p50 [\d.]+ ms, p99 [\d.]+ ms/,
      /client send → delivered: +p50 [\d.]+ ms/,
      /40 messages in [\d.]+ s .*none missing/,
      /goal fan-out p99 ≤ 50 ms/,
      /goal two replicas ≤ 2× one: [\d.]+×/,
    ],
  });
  // Every message reached every socket of its room, on one replica and on two.
  expect(stdout).not.toMatch(/NOT DELIVERED/);
}, 180_000);
