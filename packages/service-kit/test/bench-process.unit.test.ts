// The benches' shared run and requests: the clean-up runs once whatever happens, the stores' data
// goes (all of a smoke run's folder), a failure is shown before the clean-up and thrown on.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { benchRequest, runBenchMain } from '../src/bench-process.ts';
import { listen } from '../src/test-http.ts';

async function benchDir() {
  const dir = await mkdtemp(join(tmpdir(), 'kit-bench-'));
  for (const sub of ['mongo', 'nats', 'logs']) {
    await mkdir(join(dir, sub));
    await writeFile(join(dir, sub, 'x'), 'x');
  }
  return dir;
}

it('cleans up once after the end: the stores\' data goes, a full run\'s logs stay', async () => {
  const dir = await benchDir();
  const steps: string[] = [];
  await runBenchMain(async () => void steps.push('main'), async () => void steps.push('cleanup'), { dataDir: dir, smoke: false });
  expect(steps).toEqual(['main', 'cleanup']);
  expect([existsSync(join(dir, 'mongo')), existsSync(join(dir, 'nats')), existsSync(join(dir, 'logs'))]).toEqual([false, false, true]);
});

it('on a failure shows it first, cleans up once, removes a smoke run\'s folder and throws on', async () => {
  const dir = await benchDir();
  const steps: string[] = [];
  const listeners = () => process.listenerCount('SIGINT') + process.listenerCount('SIGTERM');
  const before = listeners();
  const run = runBenchMain(
    async () => {
      throw new Error('kapot');
    },
    async () => void steps.push('cleanup'),
    { dataDir: dir, smoke: true, onError: (err) => void steps.push(`shown ${(err as Error).message}`) },
  );
  await expect(run).rejects.toThrow('kapot');
  expect(steps).toEqual(['shown kapot', 'cleanup']);
  expect(existsSync(dir)).toBe(false);
  expect(listeners()).toBe(before);
});

const agent = new Agent({ keepAlive: true, maxSockets: 2 });
afterAll(() => agent.destroy());

it('sends a body with its type and the token, and answers status and text', async () => {
  const server = await listen((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => res.writeHead(201, { 'content-type': 'text/plain' }).end(`${req.method} ${req.headers.authorization} ${req.headers['content-type']} ${text}`));
  });
  try {
    expect(await benchRequest(agent, `${server.url}/x`, { method: 'POST', token: 't', body: Buffer.from('{"a":1}'), type: 'application/json' })).toEqual({
      status: 201,
      text: 'POST Bearer t application/json {"a":1}',
    });
    expect((await benchRequest(agent, `${server.url}/y`)).text).toBe('GET undefined undefined ');
  } finally {
    await server.close();
  }
});
