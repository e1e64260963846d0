// Live notifications: event published → `Notification` on the member's socket. Run with
// `npm run bench:notify` (`-- --rate 20 --events 2000 --members 10000` to vary it, `--skip-digest`
// for the live part alone); it starts and stops its own stores, token issuer and notification
// service processes (infra/local's runBench), writes the members straight into the service's
// member projection and connects one socket per member to the hub (/notificationhub, websocket,
// the token in the query, the platform's Origin). Then it publishes trade.offer.created events at
// a steady rate (10 a second by default: the consumer's pace on FerretDB is what limits the rate,
// not the hub), each to another member (every event
// makes an 'offer-received' notification for its receiver), and times from the publish (this
// process) to the `Notification` on the receiver's socket (this process, one clock): first with
// every socket on one replica, then with two replicas sharing the durable consumers and the rooms
// (Redis), the sockets spread over both. Goals (issue 22): p99 ≤ 100 ms with 10,000 members
// connected to one replica; two replicas ≤ 2× one.
//
// Then the daily digest (mail/digest.ts, the service's own runDigest): 100,000 members holding
// 1,000,000 notifications of digest kinds, written straight into a database of its own as the
// service keeps them (notifications, the day's 256 bucket shards, the members' names), then one
// digest run in a process of its own (this file with `--digest-run`), timed, with that process's
// peak RSS. Goal: done within 10 minutes on 2 cores. Addresses come from a stand-in for auth's
// query, as above. Logs go to .data/bench/notify/logs.
//
// `-- --smoke`: the same steps at toy sizes (20 members, 20 events; a digest of 200 members, 2,000
// notifications) in seconds, in a temporary
// directory; services/notification/test/hub-bench.int.test.ts runs it so the bench cannot rot
// unnoticed. Its figures mean nothing.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { authQueries, eventRegistry, NOTIFICATION_HUB, type Notification } from '@ruilplein/contracts';
import { benchSmoke, runBench } from '@ruilplein/local';
import { connectBus, connectMongo, createEvent, now, publishEvent, serveQuery, type Bus, type Worker } from '@ruilplein/service-kit';
import { createTestIssuer, offerEvent, silentLogger, type TestIssuer } from '@ruilplein/service-kit/testing';
import mongoose from 'mongoose';
import { io, type Socket } from 'socket.io-client';
import { notificationCollections, type BucketDoc, type NotificationContext, type NotificationDoc } from '../src/context.ts';
import { runDigest, type DigestResult } from '../src/mail/digest.ts';
import { digestDayOf, notificationId, shardOf } from '../src/notifications/keys.ts';

const SMOKE = benchSmoke();
const DIGEST_DB = 'notification-digest';
const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} takes a positive number`);
  return value;
};
/** Members, one socket each. */
const MEMBERS = option('members', SMOKE ? 20 : 10_000);
/** Events a second (`-- --rate N`). */
const RATE = option('rate', SMOKE ? 20 : 10);
const WARMUP = SMOKE ? 4 : 100;
/** Measured events per scenario; each to a member of its own (at most half the members: two scenarios). */
const EVENTS = Math.min(Math.floor(MEMBERS / 2) - WARMUP, option('events', SMOKE ? 6 : 1_000));
const SKIP_DIGEST = process.argv.includes('--skip-digest');
/** How long the events of a round may take to arrive after the last was published. */
const DRAIN_MS = SMOKE ? 15_000 : 60_000;
/** Senders of the offers (members, never connected). */
const SENDERS = 10;
const ORIGIN = 'http://localhost:8080';
/** The digest: members with notifications waiting, and the notifications (`-- --digest-members N --digest-notifications N`). */
const DIGEST_MEMBERS = option('digest-members', SMOKE ? 200 : 100_000);
const DIGEST_NOTIFICATIONS = option('digest-notifications', SMOKE ? 2_000 : 1_000_000);
const DIGEST_GOAL_S = 600;
const CONNECTING_AT_ONCE = 50;
const PUBLISHING_AT_ONCE = 32;

const hex24 = (n: number) => n.toString(16).padStart(24, '0');
const NAMES = ['Anna', 'Bram', 'Daan', 'Emma', 'Fleur', 'Sem', 'Lotte', 'Noah', 'Julia', 'Finn'];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
const ms = (n: number) => (n < 10 ? `${n.toFixed(1)} ms` : `${n.toFixed(0)} ms`);
const spread = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN, n: sorted.length };
};
type Spread = ReturnType<typeof spread>;
const show = (s: Spread) => `p50 ${ms(s.p50)}, p95 ${ms(s.p95)}, p99 ${ms(s.p99)}, max ${ms(s.max)} (${s.n.toLocaleString('en')})`;
const rssMb = (pid: number | undefined) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return line ? Number(line.replace(/\D+/g, '')) / 1024 : NaN;
};

interface Member {
  id: string;
  token: string;
}

/** Published, not yet delivered: the receiver → when its event was published. */
const pending = new Map<string, number>();
let latencies: number[] = [];
/** When the last awaited Notification arrived (performance.now()). */
let lastDelivery = 0;
const sockets: Socket[] = [];

/** One socket per member, spread over the replicas; answers the handshake times. */
async function connectAll(members: Member[], urls: string[]): Promise<number[]> {
  const times: number[] = [];
  const one = async (member: Member, i: number) => {
    const t = performance.now();
    const socket = io(urls[i % urls.length]!, {
      path: NOTIFICATION_HUB.path,
      transports: [...NOTIFICATION_HUB.transports],
      query: { [NOTIFICATION_HUB.tokenParam]: member.token },
      extraHeaders: { origin: ORIGIN },
      reconnection: false,
      forceNew: true,
    });
    sockets.push(socket);
    socket.on(NOTIFICATION_HUB.notification, (notification: Notification) => {
      const at = performance.now();
      const published = pending.get(member.id);
      if (published === undefined || notification.kind !== 'offer-received') return;
      pending.delete(member.id);
      latencies.push(at - published);
      lastDelivery = at;
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    times.push(performance.now() - t);
  };
  for (let i = 0; i < members.length; i += CONNECTING_AT_ONCE) await Promise.all(members.slice(i, i + CONNECTING_AT_ONCE).map((m, k) => one(m, i + k)));
  return times;
}

/** Publishes one offer to each of `receivers` at RATE a second, noting when each left; answers when the first left. */
async function publishAll(bus: Bus, senders: Member[], receivers: Member[]): Promise<number> {
  let inFlight = 0;
  const started = performance.now();
  const acks: Array<Promise<void>> = [];
  for (const [i, receiver] of receivers.entries()) {
    const due = started + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    while (inFlight >= PUBLISHING_AT_ONCE) await sleep(1);
    const event = createEvent(eventRegistry, 'trade.offer.created', offerEvent({ senderId: senders[i % senders.length]!.id, receiverId: receiver.id }));
    inFlight++;
    pending.set(receiver.id, performance.now());
    acks.push(publishEvent(bus, event).then(() => {}).finally(() => inFlight--));
  }
  await Promise.all(acks);
  return started;
}

async function deliveredOrGone(timeoutMs: number) {
  const end = performance.now() + timeoutMs;
  while (pending.size && performance.now() < end) await sleep(50);
}

// ─── The digest.

/** Kinds whose mail goes in the digest by default. */
const DIGEST_KINDS = ['offer-rejected', 'offer-withdrawn', 'trade-completed', 'review-received', 'report-handled', 'wishlist-traded'] as const;
const addressOf = (id: string) => `${id}@bench.example`;

/** Members as the service's member projection keeps them (the kit's memberProjection, firstName only). */
async function seedMembers(db: mongoose.mongo.Db, ids: string[]): Promise<void> {
  const members = db.collection<{ _id: string; version: number; firstName: string }>('members');
  for (let i = 0; i < ids.length; i += 5_000) await members.insertMany(ids.slice(i, i + 5_000).map((id, k) => ({ _id: id, version: 1, firstName: NAMES[(i + k) % NAMES.length]! })));
}

/** Writes the members, their notifications and the day's buckets as the service would have kept them; answers the digest day. */
async function seedDigest(db: mongoose.mongo.Db): Promise<string> {
  const at = now();
  const day = digestDayOf(at);
  const memberIds = Array.from({ length: DIGEST_MEMBERS }, (_, k) => hex24(0xd10000000 + k));
  await seedMembers(db, memberIds);
  const shards = new Map<string, string[]>();
  const BATCH = 5_000;
  for (let i = 0; i < DIGEST_NOTIFICATIONS; i += BATCH) {
    const docs: NotificationDoc[] = [];
    for (let n = i; n < Math.min(DIGEST_NOTIFICATIONS, i + BATCH); n++) {
      const userId = memberIds[n % memberIds.length]!;
      const kind = DIGEST_KINDS[n % DIGEST_KINDS.length]!;
      const createdAt = new Date(at.getTime() - (n % 86_400) * 1000);
      const id = notificationId(userId, createdAt, `b${n}`);
      docs.push({ _id: id, userId, kind, title: `Ruilaanbod #${n} afgewezen`, body: `Ruil #${n} gaat niet door.`, link: `/dashboard/tradeoffer/${n}`, createdAt, readAt: null });
      const shard = `digest:${day}:${shardOf(userId)}`;
      const ids = shards.get(shard) ?? [];
      ids.push(id);
      shards.set(shard, ids);
    }
    await db.collection<NotificationDoc>('notifications').insertMany(docs);
    if (!SMOKE && (i / BATCH) % 20 === 19) console.log(`    ${(i + BATCH).toLocaleString('en')} notifications written`);
  }
  await db.collection<BucketDoc>('buckets').insertMany([...shards].map(([_id, ids]) => ({ _id, ids })));
  return day;
}

interface DigestRun extends DigestResult {
  seconds: number;
  /** The run's process: its peak resident memory (VmHWM) and its peak heap. */
  peakRssMb: number;
  peakHeapMb: number;
}

/** `--digest-run <mongoUrl> <day>`: one run of the service's digest in this process, its figures as JSON on the last line. */
async function digestChild(mongoUrl: string, day: string): Promise<void> {
  const db = await connectMongo(mongoUrl, DIGEST_DB);
  let peakHeap = 0;
  const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 100);
  try {
    const ctx: NotificationContext = {
      ...notificationCollections(db),
      live: { push() {}, count() {} },
      mail: { kick() {} },
      contacts: async (ids) => new Map(ids.map((id) => [id, addressOf(id)])),
      publicUrl: ORIGIN,
      unsubscribeKey: 'bench-unsubscribe-key-of-at-least-32-characters',
      logger: silentLogger(),
    };
    const started = performance.now();
    const result = await runDigest(ctx, day);
    const seconds = (performance.now() - started) / 1000;
    const hwm = readFileSync('/proc/self/status', 'utf8').split('\n').find((l) => l.startsWith('VmHWM:'));
    const run: DigestRun = { ...result, seconds, peakRssMb: hwm ? Number(hwm.replace(/\D+/g, '')) / 1024 : NaN, peakHeapMb: Math.max(peakHeap, process.memoryUsage().heapUsed) / 2 ** 20 };
    console.log(JSON.stringify(run));
  } finally {
    clearInterval(sampler);
    await db.close();
  }
}

async function digestRun(mongoUrl: string, day: string): Promise<DigestRun> {
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, '--digest-run', mongoUrl, day], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`the digest run ended with ${code}: ${out.slice(-2000)}`);
  return JSON.parse(out.trim().split('\n').at(-1)!) as DigestRun;
}

const digestAt = process.argv.indexOf('--digest-run');
if (digestAt !== -1) {
  await digestChild(process.argv[digestAt + 1]!, process.argv[digestAt + 2]!);
  process.exit(0);
}

await runBench('notify', ['notification'], async ({ stores, service, createStreams }) => {
  let issuer: TestIssuer | undefined;
  let bus: Bus | undefined;
  let contacts: Worker | undefined;
  const client = new mongoose.mongo.MongoClient(stores.mongoUrl, { directConnection: true });
  try {
    // The streams notification follows belong to services this bench does not run.
    await createStreams();
    issuer = await createTestIssuer();
    bus = await connectBus(stores.natsUrl, 'bench-notify');
    // Auth's part, which the bench does not run: the members' addresses for the direct mails (each
    // offer-received is one). Local mode keeps the mails in the store instead of sending them.
    contacts = serveQuery(bus, 'auth', authQueries.contacts, async ({ ids }) => ids.map((id) => ({ id, email: `${id}@bench.example` })), silentLogger());
    const env = { AUTH_JWKS_URL: issuer.jwksUrl, PUBLIC_URL: ORIGIN, RUILPLEIN_MODE: 'local' };
    const first = await service('notification', env);
    const report: string[] = [];
    const say = (...lines: string[]) => {
      report.push(...lines);
      for (const line of lines) console.log(line);
    };
    say(
      `notifications on ${cpus()[0]?.model ?? 'unknown CPU'} (${availableParallelism()} cores), store: ${stores.kind.mongo}, Redis ${stores.kind.redis}, loopback, load average at start ${loadavg()[0]!.toFixed(1)}${SMOKE ? ' (smoke run: toy sizes, the figures mean nothing)' : ''}`,
      `  ${MEMBERS.toLocaleString('en')} members with a socket each, ${EVENTS} trade.offer.created events at ${RATE}/s after ${WARMUP} to warm up, each to another member; the hub uses the Redis Streams adapter`,
      '',
    );

    // ─── Members, straight into the service's member projection (as auth's events would leave them:
    // announcing 10,000 through the consumer takes minutes on FerretDB and measures nothing here).
    const all: Member[] = await Promise.all(
      Array.from({ length: MEMBERS + SENDERS }, async (_, k) => {
        const id = hex24(0xbe0000 + k);
        return { id, token: await issuer!.sign({ sub: id }, { expiresIn: '3h' }) };
      }),
    );
    await seedMembers(client.db('notification'), all.map((m) => m.id));
    const senders = all.slice(MEMBERS);
    const receivers = all.slice(0, MEMBERS);

    async function scenario(name: string, urls: string[], pids: Array<number | undefined>, from: number): Promise<Spread> {
      const handshakes = await connectAll(receivers, urls);
      const rss = () => pids.map((pid, i) => `replica ${i + 1} RSS ${rssMb(pid).toFixed(0)} MB`).join(', ');
      console.log(`  ${name}: ${sockets.length.toLocaleString('en')} sockets connected (handshake ${show(spread(handshakes))}); ${rss()}; warming up…`);
      await publishAll(bus!, senders, receivers.slice(from, from + WARMUP));
      await deliveredOrGone(DRAIN_MS);
      pending.clear();
      latencies = [];
      console.log(`  ${name}: publishing ${EVENTS} events at ${RATE}/s…`);
      const started = await publishAll(bus!, senders, receivers.slice(from + WARMUP, from + WARMUP + EVENTS));
      const seconds = (performance.now() - started) / 1000;
      await deliveredOrGone(DRAIN_MS);
      const delivering = (lastDelivery - started) / 1000;
      const missing = pending.size;
      pending.clear();
      const figures = spread(latencies);
      say(
        `${name}: ${urls.length} replica${urls.length > 1 ? 's' : ''}, ${receivers.length.toLocaleString('en')} members connected (${urls.length > 1 ? 'half on each replica' : 'all on it'})`,
        `  event published → Notification on the socket: ${show(figures)}`,
        `  ${EVENTS} events published in ${seconds.toFixed(1)} s (${(EVENTS / seconds).toFixed(0)}/s), ${latencies.length} delivered by ${delivering.toFixed(1)} s (${(latencies.length / delivering).toFixed(0)}/s)${missing ? `, ${missing} NOT DELIVERED` : ', none missing'}; ${rss()}`,
      );
      for (const socket of sockets.splice(0)) socket.close();
      return figures;
    }

    const single = await scenario('one', [first.url], [first.child.pid], 0);
    say('');
    const second = await service('notification', env);
    const double = await scenario('two', [first.url, second.url], [first.child.pid, second.child.pid], WARMUP + EVENTS);
    const ratio = double.p99 / single.p99;
    const met = (ok: boolean) => (ok ? 'met' : 'NOT MET');
    say(
      '',
      `goal p99 ≤ 100 ms with ${MEMBERS.toLocaleString('en')} members on one replica: ${ms(single.p99)} ${met(single.p99 <= 100)}; on two: ${ms(double.p99)}`,
      `goal two replicas ≤ 2× one: ${ratio.toFixed(2)}× ${met(ratio <= 2)} (p50 ${(double.p50 / single.p50).toFixed(2)}×)`,
    );
    if (SKIP_DIGEST) {
      console.log(['', '─'.repeat(100), ...report, ''].join('\n'));
      return;
    }

    say('');
    console.log(`  digest: writing ${DIGEST_MEMBERS.toLocaleString('en')} members' ${DIGEST_NOTIFICATIONS.toLocaleString('en')} notifications…`);
    const seeding = performance.now();
    const day = await seedDigest(client.db(DIGEST_DB));
    console.log(`  digest: written in ${((performance.now() - seeding) / 1000).toFixed(0)} s; running it…`);
    const digest = await digestRun(stores.mongoUrl, day);
    say(
      `digest of ${day}: ${digest.members.toLocaleString('en')} members, ${digest.notifications.toLocaleString('en')} notifications, ${digest.mails.toLocaleString('en')} mails in ${digest.seconds.toFixed(1)} s; its process peak RSS ${digest.peakRssMb.toFixed(0)} MB, peak heap ${digest.peakHeapMb.toFixed(0)} MB`,
      `goal digest of ${DIGEST_MEMBERS.toLocaleString('en')} members, ${DIGEST_NOTIFICATIONS.toLocaleString('en')} notifications within 10 minutes: ${digest.seconds.toFixed(0)} s ${met(digest.seconds <= DIGEST_GOAL_S && digest.mails === DIGEST_MEMBERS)}${digest.mails === DIGEST_MEMBERS ? '' : `, ${DIGEST_MEMBERS - digest.mails} mails MISSING`}`,
      `load average at the end ${loadavg()[0]!.toFixed(1)}`,
    );
    console.log(['', '─'.repeat(100), ...report, ''].join('\n'));
  } finally {
    for (const socket of sockets) socket.close();
    await contacts?.stop();
    await bus?.nc.drain();
    await client.close();
    await issuer?.close();
  }
});
