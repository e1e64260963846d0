// `npm run bench:notify` must keep working: its smoke mode (toy sizes, seconds) as a child process,
// which must exit 0 and print its figures. Nothing is asserted on time.
import { fileURLToPath } from 'node:url';
import { runBenchSmoke } from '@ruilplein/service-kit/testing';
import { expect, it } from 'vitest';

it('bench:notify --smoke runs and prints its figures', async () => {
  const { stdout } = await runBenchSmoke(fileURLToPath(new URL('../bench/notify.bench.ts', import.meta.url)), {
    figures: [
      /one: 1 replica, 20 members connected/,
      /two: 2 replicas, 20 members connected/,
      /event published → Notification on the socket: p50 [\d.]+ ms, p95 [\d.]+ ms, p99 [\d.]+ ms/,
      /6 delivered by [\d.]+ s/,
      /digest of [\d-]+: 200 members, 2,000 notifications, 200 mails in [\d.]+ s; its process peak RSS \d+ MB/,
      /goal p99 ≤ 100 ms with 20 members on one replica/,
      /goal two replicas ≤ 2× one: [\d.]+×/,
    ],
  });
  // Every event reached its member's socket, on one replica and on two.
  expect(stdout).not.toMatch(/NOT DELIVERED/);
}, 180_000);
