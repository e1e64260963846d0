// Live chat fan-out. Run with `npm run bench:chat` (`-- --rate 50 --messages 3000` to vary the
// load); it starts and stops its own stores, token issuer and chat service processes, and writes
// 200 offers (400 members) straight into the store. It connects 1,000 sockets over those 200
// offers' rooms (five each: three of the sender's, two of the receiver's, as tabs), then sends
// messages through POST /api/chat/send at a steady rate, room after room, and times every
// delivery of ReceiveMessage: on one chat replica, then on two that share rooms through Redis
// (each room's sockets spread over both, sends alternating between them). Per delivery: from the
// message's sentAt (the server's clock, just before the store write) — the figure the goals are
// checked against, an upper bound of the fan-out —, from the send's answer (the store had
// acknowledged the write), and from the send leaving the client. Goals: fan-out p99 ≤ 50 ms; two
// replicas ≤ 2× one. Logs go to .data/bench/chat/logs.
//
// `-- --smoke`: the same steps at toy sizes (4 offers, 20 sockets, 40 messages) in seconds, logs in
// a temporary directory; services/chat/test/bench.int.test.ts runs it so the bench cannot rot
// unnoticed. Its figures mean nothing.
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChatMessage } from '@ruilplein/contracts';
import { freePort, repoRoot, startStores, type Stores } from '@ruilplein/local';
import { connectBus, ensureStream } from '@ruilplein/service-kit';
import { benchRequest, createTestIssuer, runBenchMain, startBenchService, type BenchService, type TestIssuer } from '@ruilplein/service-kit/testing';
import mongoose from 'mongoose';
import { io, type Socket } from 'socket.io-client';
import type { ConversationDoc, MemberDoc } from '../src/conversations/model.ts';

/** Toy sizes, to show the bench still runs and prints its figures. */
const SMOKE = process.argv.includes('--smoke');
const ROOMS = SMOKE ? 4 : 200;
const SOCKETS_PER_ROOM = 5;
const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} takes a positive number`);
  return value;
};
/** Messages a second over all rooms (`-- --rate N`); every room gets one each two seconds. */
const RATE = option('rate', SMOKE ? 50 : 100);
const WARMUP_MESSAGES = SMOKE ? 10 : 200;
/** `-- --messages N`; at most 4,000 (each member's share stays below the send limit of 30 a minute). */
const MESSAGES = Math.min(4_000, option('messages', SMOKE ? 40 : 2_000));
/** Sends under way at once at most (a client that falls behind waits rather than piling up). */
const MAX_IN_FLIGHT = 32;
const ORIGIN = 'http://localhost:8080';

// A smoke run (a test) leaves a developer's last bench logs alone.
const dataDir = SMOKE ? await mkdtemp(join(tmpdir(), 'ruilplein-bench-chat-')) : join(repoRoot, '.data', 'bench', 'chat');
const logDir = join(dataDir, 'logs');
const mainTs = join(repoRoot, 'services/chat/src/main.ts');

let stores: Stores | undefined;
let issuer: TestIssuer | undefined;
let client: mongoose.mongo.MongoClient | undefined;
const running = new Set<Replica>();
const sockets: Socket[] = [];

interface Replica extends BenchService {
  name: string;
  rssMb(): number;
}

async function startReplica(name: string): Promise<Replica> {
  const service = await startBenchService({
    name,
    main: mainTs,
    port: await freePort(),
    logDir,
    env: {
      MONGODB_URL: stores!.mongoUrl,
      NATS_URL: stores!.natsUrlFor('chat'),
      REDIS_URL: stores!.redisUrl,
      AUTH_JWKS_URL: issuer!.jwksUrl,
      PUBLIC_URL: ORIGIN,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
  });
  const replica: Replica = {
    ...service,
    name,
    rssMb() {
      const line = readFileSync(`/proc/${service.child.pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
      return line ? Number(line.replace(/\D+/g, '')) / 1024 : NaN;
    },
    async stop() {
      running.delete(replica);
      await service.stop();
    },
  };
  running.add(replica);
  return replica;
}

// ─── Members and offers, straight into the store (as the projections would hold them).

const hex24 = (n: number) => n.toString(16).padStart(24, '0');
const NAMES = ['Anna', 'Bram', 'Daan', 'Emma', 'Fleur', 'Sem', 'Lotte', 'Noah', 'Julia', 'Finn'];
interface Room {
  offerId: number;
  parties: [Party, Party];
}
interface Party {
  id: string;
  token: string;
}

async function seed(db: mongoose.mongo.Db): Promise<Room[]> {
  const now = new Date();
  const members: MemberDoc[] = Array.from({ length: ROOMS * 2 }, (_, k) => ({ _id: hex24(k + 1), version: 1, firstName: NAMES[k % NAMES.length]! }));
  const conversations: ConversationDoc[] = Array.from({ length: ROOMS }, (_, r) => ({
    _id: String(r + 1),
    offerId: r + 1,
    version: 1,
    senderId: hex24(2 * r + 1),
    receiverId: hex24(2 * r + 2),
    status: 'Pending',
    open: true,
    seq: 0,
    createdAt: now,
    updatedAt: now,
  }));
  await db.collection<MemberDoc>('members').insertMany(members);
  await db.collection<ConversationDoc>('conversations').insertMany(conversations);
  const tokens = await Promise.all(members.map((m) => issuer!.sign({ sub: m._id }, { expiresIn: '3h' })));
  return conversations.map((c, r) => ({ offerId: c.offerId, parties: [{ id: c.senderId, token: tokens[2 * r]! }, { id: c.receiverId, token: tokens[2 * r + 1]! }] }));
}

// ─── Measuring.

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
const ms = (n: number) => (n < 10 ? `${n.toFixed(1)} ms` : `${n.toFixed(0)} ms`);
const spread = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN, n: sorted.length };
};
type Spread = ReturnType<typeof spread>;
const show = (s: Spread) => `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)} (${s.n.toLocaleString('en')})`;

const agent = new Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT });
const post = (url: string, token: string, body: unknown) => benchRequest(agent, `${url}/api/chat/send`, { method: 'POST', token, body: Buffer.from(JSON.stringify(body)), type: 'application/json' });

interface Sent {
  /** When the send left the client (performance.now()). */
  at: number;
  /** When its answer (201) arrived. */
  answered?: number;
}

interface Round {
  sent: Map<string, Sent>;
  /** Every delivery: content, when (performance.now() and the wall clock), the message's sentAt (server clock). */
  deliveries: Array<{ content: string; at: number; wall: number; serverSentAt: number }>;
  send: number[];
  seconds: number;
}

/** Connects every room's sockets, spread over the replicas; answers the handshake times. */
async function connectAll(rooms: Room[], replicas: Replica[], onMessage: (content: string, message: ChatMessage) => void): Promise<number[]> {
  const times: number[] = [];
  let n = 0;
  const one = async (room: Room, k: number) => {
    const party = room.parties[k < 3 ? 0 : 1];
    const replica = replicas[n++ % replicas.length]!;
    const t = performance.now();
    const socket = io(replica.url, {
      path: '/chathub',
      transports: ['websocket'],
      query: { offerId: String(room.offerId), access_token: party.token },
      extraHeaders: { origin: ORIGIN },
      reconnection: false,
      forceNew: true,
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    times.push(performance.now() - t);
    socket.on('ReceiveMessage', (_name: string, content: string, message: ChatMessage) => onMessage(content, message));
  };
  const jobs = rooms.flatMap((room) => Array.from({ length: SOCKETS_PER_ROOM }, (_, k) => () => one(room, k)));
  for (let i = 0; i < jobs.length; i += 50) await Promise.all(jobs.slice(i, i + 50).map((job) => job()));
  return times;
}

/**
 * Sends `count` messages at `rate`, room after room (each member sends count/400: far below the
 * send limit), alternating parties and replicas; notes when each left and was answered.
 */
async function run(label: string, rooms: Room[], replicas: Replica[], count: number, round: Round): Promise<void> {
  let inFlight = 0;
  const started = performance.now();
  const pending: Array<Promise<void>> = [];
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    while (inFlight >= MAX_IN_FLIGHT) await sleep(1);
    const room = rooms[i % rooms.length]!;
    const party = room.parties[Math.floor(i / rooms.length) % 2]!;
    const replica = replicas[i % replicas.length]!;
    const content = `${label}-${i}`;
    const sent: Sent = { at: performance.now() };
    round.sent.set(content, sent);
    inFlight++;
    pending.push(
      post(replica.url, party.token, { tradeOfferId: room.offerId, content }).then(
        (res) => {
          inFlight--;
          if (res.status !== 201) throw new Error(`send: ${res.status} ${res.text.slice(0, 200)}`);
          sent.answered = performance.now();
          round.send.push(sent.answered - sent.at);
        },
        (err: unknown) => {
          inFlight--;
          throw err;
        },
      ),
    );
  }
  await Promise.all(pending);
  round.seconds = (performance.now() - started) / 1000;
}

interface Figures {
  /** The message's sentAt (server clock, just before its store write) → delivered: the write and the fan-out. */
  fromServer: Spread;
  /** The send's answer (after the store acknowledged the write) → delivered; 0 when the delivery came first. */
  fromAnswer: Spread;
  /** The send leaving the client → delivered. */
  endToEnd: Spread;
}

async function scenario(name: string, replicaCount: number, rooms: Room[], say: (...lines: string[]) => void): Promise<Figures> {
  const replicas: Replica[] = [];
  for (let i = 0; i < replicaCount; i++) replicas.push(await startReplica(`${name}-${i + 1}`));
  const newRound = (): Round => ({ sent: new Map(), deliveries: [], send: [], seconds: 0 });
  let round = newRound();
  const onMessage = (content: string, message: ChatMessage) => {
    round.deliveries.push({ content, at: performance.now(), wall: Date.now(), serverSentAt: Date.parse(message.sentAt) });
  };
  const handshakes = await connectAll(rooms, replicas, onMessage);
  const rss = replicas.map((r) => `${r.name} RSS ${r.rssMb().toFixed(0)} MB`).join(', ');
  console.log(`  ${name}: ${sockets.length} sockets connected (handshake ${show(spread(handshakes))}); ${rss}; warming up…`);
  await run(`${name}-w`, rooms, replicas, WARMUP_MESSAGES, round);
  await sleep(SMOKE ? 200 : 1000);
  round = newRound();
  console.log(`  ${name}: sending ${MESSAGES} messages at ${RATE}/s…`);
  await run(`${name}-m`, rooms, replicas, MESSAGES, round);
  const expected = MESSAGES * SOCKETS_PER_ROOM;
  const deadline = Date.now() + 10_000;
  while (round.deliveries.length < expected && Date.now() < deadline) await sleep(50);
  const mine = round.deliveries.filter((d) => round.sent.has(d.content));
  const missing = expected - mine.length;
  const figures: Figures = {
    fromServer: spread(mine.map((d) => Math.max(0, d.wall - d.serverSentAt))),
    fromAnswer: spread(mine.map((d) => Math.max(0, d.at - (round.sent.get(d.content)!.answered ?? d.at)))),
    endToEnd: spread(mine.map((d) => d.at - round.sent.get(d.content)!.at)),
  };
  say(
    `${name}: ${replicaCount} replica${replicaCount > 1 ? 's' : ''}, ${sockets.length} sockets over ${rooms.length} rooms (${replicaCount > 1 ? 'half on each replica, every room on both' : 'all on it'})`,
    `  server sentAt → delivered (store write + fan-out):  ${show(figures.fromServer)}`,
    `  send answered → delivered (fan-out after the store): ${show(figures.fromAnswer)}`,
    `  client send → delivered:                            ${show(figures.endToEnd)}`,
    `  POST /api/chat/send answered:                       ${show(spread(round.send))}`,
    `  ${MESSAGES} messages in ${round.seconds.toFixed(1)} s (${(MESSAGES / round.seconds).toFixed(0)}/s), ${mine.length.toLocaleString('en')} deliveries (${(mine.length / round.seconds).toFixed(0)}/s)${missing ? `, ${missing} NOT DELIVERED` : ', none missing'}; ${replicas.map((r) => `${r.name} RSS ${r.rssMb().toFixed(0)} MB`).join(', ')}`,
  );
  for (const socket of sockets.splice(0)) socket.close();
  for (const replica of replicas) await replica.stop();
  return figures;
}

async function main() {
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(logDir, { recursive: true });
  console.log(`logs: ${logDir}${SMOKE ? ' (smoke run: toy sizes, the figures mean nothing)' : ''}`);
  stores = await startStores({ dataDir, envPrefix: false });
  // The streams chat reads belong to auth and trade, which create them; the bench runs neither.
  const admin = await connectBus(stores.natsUrl, 'bench-chat');
  for (const stream of ['auth', 'trade']) await ensureStream(admin, stream);
  await admin.nc.drain();
  issuer = await createTestIssuer();
  client = new mongoose.mongo.MongoClient(stores.mongoUrl, { directConnection: true });
  const rooms = await seed(client.db('chat'));
  const report: string[] = [];
  const say = (...lines: string[]) => {
    report.push(...lines);
    for (const line of lines) console.log(line);
  };
  say(
    `chat fan-out on ${cpus()[0]?.model ?? 'unknown CPU'} (${availableParallelism()} cores), store: ${stores.kind.mongo}, Redis ${stores.kind.redis}, loopback, load average at start ${loadavg()[0]!.toFixed(1)}`,
    `  ${ROOMS} offers, ${ROOMS * SOCKETS_PER_ROOM} sockets (${SOCKETS_PER_ROOM} a room), ${MESSAGES} messages at ${RATE}/s after ${WARMUP_MESSAGES} to warm up; every replica uses the Redis Streams adapter`,
    '',
  );
  const single = await scenario('one', 1, rooms, say);
  say('');
  const double = await scenario('two', 2, rooms, say);
  const ratio = double.fromServer.p99 / single.fromServer.p99;
  const met = (ok: boolean) => (ok ? 'met' : 'NOT MET');
  say(
    '',
    `goal fan-out p99 ≤ 50 ms (server sentAt → delivered): one replica ${ms(single.fromServer.p99)} ${met(single.fromServer.p99 <= 50)}, two replicas ${ms(double.fromServer.p99)} ${met(double.fromServer.p99 <= 50)}`,
    `goal two replicas ≤ 2× one: ${ratio.toFixed(2)}× ${met(ratio <= 2)} (fan-out after the store ${(double.fromAnswer.p99 / Math.max(0.1, single.fromAnswer.p99)).toFixed(2)}×, end to end ${(double.endToEnd.p99 / single.endToEnd.p99).toFixed(2)}×)`,
    `load average at the end ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log(['', '─'.repeat(100), ...report, ''].join('\n'));
}

await runBenchMain(
  main,
  async () => {
    for (const socket of sockets) socket.close();
    for (const replica of running) await replica.stop();
    agent.destroy();
    await client?.close();
    await issuer?.close();
    await stores?.stop();
  },
  { dataDir, smoke: SMOKE },
);
