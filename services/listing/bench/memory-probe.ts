// Preloaded into a service process by the search benchmark (`node --expose-gc --import …`): on
// SIGUSR2 it collects garbage and writes process.memoryUsage() to BENCH_MEMORY_FILE.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_MEMORY_FILE;
if (file) {
  process.on('SIGUSR2', () => {
    (globalThis as { gc?: () => void }).gc?.();
    writeFileSync(file, JSON.stringify({ ...process.memoryUsage(), at: Date.now() }));
  });
}
