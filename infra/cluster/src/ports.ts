import { createServer } from 'node:net';

/**
 * `count` distinct free TCP ports on 127.0.0.1, all held open until every one is known, so the
 * kernel cannot hand the same port out twice. Free ports rather than 6443/2379: a running
 * `npm start`, a test run or a second cluster on the machine must not clash.
 */
export async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, host, () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}
