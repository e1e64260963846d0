// A service's live hub: socket.io on one path, websockets only, with what every hub of the platform
// checks the same way (chat's /chathub, notification's /notificationhub). Every connection is a
// websocket upgrade checked here before socket.io sees it: the page's origin, the token (from
// `Authorization: Bearer` or the `tokenParam` query parameter, as browsers cannot set headers on a
// websocket; signature, expiry, revocation), then the service's own check (`admit`: chat's offer
// party); refusals are real HTTP answers (401, 403, 404...) with a Dutch message.
//
// Replicas share rooms through Redis (adapter.ts), and a client that reconnects within the recovery
// window gets its session back (its rooms, what was broadcast meanwhile); that reconnect is a new
// upgrade, checked like the first, and the namespace middleware checks that the recovered session
// is the same member's (and the service's `sameSession`).
//
// A socket outlives the check at its upgrade, so revocations reach it too: when auth revokes a
// member's tokens (logout, password change, deletion, suspension) it announces it (revocations.ts)
// and every replica closes that member's sockets whose token is older, at once, as a server
// disconnect: no session is kept to recover, and the client does not reconnect by itself.
// Announcements lost while Redis was away are made up for by checking every socket again when the
// listener reconnects, and every `revocationSweepMs`. A socket lives no longer than its token: it
// is closed then as a lost connection, and the client comes back with a renewed one.
//
// Traces: the upgrade continues the trace of its request (the gateway's `traceparent`), and the
// service's `connected` runs in it. Every event the hub sends carries the trace context it was
// sent in as one more argument after its own, `{ traceparent }` (then only the offset that
// connection state recovery adds); handlers that take the arguments they know ignore it. An event
// a client sends may end with one too, and its handler then continues that trace.
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket as NetSocket } from 'node:net';
import type { Duplex } from 'node:stream';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context } from '@opentelemetry/api';
import { tokenVersionKey } from '@ruilplein/contracts';
import { Server as Engine } from 'engine.io';
import type { RedisClientType } from 'redis';
import { Server, type Socket } from 'socket.io';
import { bearerToken, type Principal, type TokenVerifier } from '../auth.ts';
import { wallClockMs } from '../clock.ts';
import { forbidden, HttpError, MESSAGES, unauthorized } from '../errors.ts';
import { withTimeout } from '../http.ts';
import type { Logger } from '../logger.ts';
import { listenForRevocations } from '../revocations.ts';
import { sharedRooms } from './adapter.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
/** Node's timers take at most this (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** The refusal of a page of another site, unless the service words its own. */
const WRONG_ORIGIN = 'Deze verbinding kan alleen vanaf Ruilplein zelf worden geopend.';

/** Who was let in by the upgrade check; every socket's `data` holds it (and what `admit` added). */
export interface HubMember {
  /** The member's id in lower case (rooms, comparisons). */
  userId: string;
  /** The member's id as the token names it (the key of its token version), and the token's version. */
  tokenUserId: string;
  tokenVersion: number;
  /** When the token ends (real-time ms): the socket is closed then. */
  expiresAt: number;
}

export interface SocketHubOptions<T extends object> {
  /** Names the hub in logs ('chat hub'). */
  name: string;
  /** Its path ('/chathub'), matched case-insensitively with or without a trailing slash. */
  path: string;
  /** The query parameter that may carry the token. */
  tokenParam: string;
  /** The Dutch refusal of a page of another site. */
  wrongOrigin?: string;
  /** The Dutch refusal of a recovered session that is another member's (or not the same by `sameSession`). */
  otherSession?: string;
  logger: Logger;
  verifyToken: TokenVerifier;
  /**
   * `kit.redis()` (fails at once while Redis is away): token versions; the revocation listener is a
   * connection of its own made from its options.
   */
  redis: RedisClientType;
  allowOrigin: (origin: string | undefined) => boolean;
  /**
   * Shares rooms and sessions between replicas (a client of its own, with an offline queue: the
   * adapter's readers wait for Redis instead of spinning). Absent: this process only.
   */
  adapterRedis?: RedisClientType;
  /** The adapter's Redis stream (and key prefix): one per hub; tests give each set of replicas their own. */
  streamName: string;
  /** How long a disconnected socket can be recovered; 2 minutes by default. */
  recoveryMs?: number;
  /** How often every socket's token is checked against revocations that were not announced; 1 minute by default. */
  revocationSweepMs?: number;
  /** The service's own checks of an upgrade, after the member's: answers what its sockets carry besides (an HttpError refuses). */
  admit?(url: URL, member: HubMember): Promise<T>;
  /** Whether a recovered session (`before`) is the one this upgrade asks for; the member is compared already. */
  sameSession?(before: T, now: T): boolean;
  /** A socket was let in (new, or its session recovered: `socket.recovered`). */
  connected(socket: Socket, data: HubMember & T): void;
}

export interface SocketHub {
  io: Server;
  /** For runService's `onUpgrade` (and tests' servers). */
  onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /**
   * Closes this replica's sockets whose token was revoked since it was checked: those of `userId`
   * (a revocation was announced), or all of them. Resolves to how many it closed.
   */
  closeRevoked(userId?: string): Promise<number>;
  /** Stops listening for revocations and closes the sockets, keeping their sessions (they recover on another replica). */
  stop(): Promise<void>;
}

export function createSocketHub<T extends object>(options: SocketHubOptions<T>): SocketHub {
  const { logger, name } = options;
  const recoveryMs = options.recoveryMs ?? 2 * 60_000;
  const hubPath = new RegExp(`^${options.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/?$`, 'i');
  const admitted = new WeakMap<IncomingMessage, HubMember & T>();
  /** The trace context of each admitted upgrade, for the service's `connected`. */
  const connectedIn = new WeakMap<IncomingMessage, Context>();
  /** This replica's sockets by member: a revocation looks at the member's only (a replica holds thousands). */
  const byMember = new Map<string, Set<Socket>>();
  const engine = new Engine({
    transports: ['websocket'],
    // Clients send nothing but socket.io's own packets; the hub only talks.
    maxHttpBufferSize: 16 * 1024,
    perMessageDeflate: false,
  });
  const io = new Server({
    serveClient: false,
    // Recovered sessions pass the middleware too: the member (and the service's session) must be the same.
    connectionStateRecovery: { maxDisconnectionDuration: recoveryMs, skipMiddlewares: false },
    ...(options.adapterRedis && { adapter: sharedRooms(options.adapterRedis, logger, { streamName: options.streamName, name }) }),
  });
  io.bind(engine);
  // Every event sent passes the namespace's adapter (the shared one too): broadcasts, and a socket's
  // own emits as connection state recovery keeps them. Each carries the trace context it was sent
  // in, before the offset the adapter adds last for recovery.
  const adapter = io.of('/').adapter;
  const broadcast = adapter.broadcast.bind(adapter);
  adapter.broadcast = (packet: { data?: unknown }, opts) => broadcast(withTraceArgument(packet), opts);

  /** The checks of a new connection (or a recovery), in the order that answers cheapest first. */
  async function admit(req: IncomingMessage, url: URL): Promise<HubMember & T> {
    if (!options.allowOrigin(req.headers.origin)) throw forbidden(options.wrongOrigin ?? WRONG_ORIGIN);
    const token = bearerToken(req) ?? (url.searchParams.get(options.tokenParam) || undefined);
    if (!token) throw unauthorized();
    const principal = await options.verifyToken(token);
    await checkNotRevoked(principal);
    const member: HubMember = { userId: principal.userId.toLowerCase(), tokenUserId: principal.userId, tokenVersion: principal.tokenVersion, expiresAt: expiryOf(token) };
    const own = options.admit ? await options.admit(url, member) : ({} as T);
    return { ...own, ...member };
  }

  /** The gateway checks this too; the hub checks it again because a socket outlives requests. */
  async function checkNotRevoked(principal: Principal) {
    let current: string | null;
    try {
      current = (await withTimeout(options.redis.get(tokenVersionKey(principal.userId)), 1000)) as string | null;
    } catch {
      throw new HttpError(503, MESSAGES.unavailable);
    }
    if (current !== null && Number(current) > principal.tokenVersion) throw unauthorized();
  }

  function refuse(req: IncomingMessage, socket: Duplex, err: unknown) {
    const status = err instanceof HttpError ? err.status : 500;
    if (status >= 500) logger.error({ err }, `${name}: upgrade failed`);
    if (!socket.writable) return socket.destroy();
    const body = JSON.stringify({ message: err instanceof HttpError ? err.message : MESSAGES.internal });
    const res = new ServerResponse(req);
    res.assignSocket(socket as NetSocket);
    res.shouldKeepAlive = false;
    res.on('finish', () => socket.destroy());
    res
      .writeHead(status, {
        'content-type': JSON_TYPE,
        'content-length': Buffer.byteLength(body),
        'cache-control': 'no-store',
        ...(status === 401 && { 'www-authenticate': 'Bearer' }),
      })
      .end(body);
  }

  function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    socket.on('error', () => socket.destroy());
    const url = URL.parse(req.url ?? '/', 'http://hub');
    if (!url || !hubPath.test(url.pathname)) return refuse(req, socket, new HttpError(404, MESSAGES.notFound));
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer.startSpan(`${name} connect`, { kind: SpanKind.SERVER, attributes: { 'url.path': url.pathname } }, parent);
    const traced = trace.setSpan(parent, span);
    context.with(traced, () =>
      admit(req, url).then(
        (admission) => {
          span.end();
          if (socket.destroyed) return;
          admitted.set(req, admission);
          connectedIn.set(req, traced);
          (engine.handleUpgrade as (req: IncomingMessage, socket: Duplex, head: Buffer) => void)(req, socket, head);
        },
        (err: unknown) => {
          span.setAttribute('http.response.status_code', err instanceof HttpError ? err.status : 500);
          if (!(err instanceof HttpError) || err.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
          refuse(req, socket, err);
        },
      ),
    );
  }

  io.use((socket, next) => {
    const admission = admitted.get(socket.request);
    if (!admission) return next(hubError(401, MESSAGES.internal));
    const before = socket.data as HubMember & T;
    if (socket.recovered && (before.userId !== admission.userId || (options.sameSession && !options.sameSession(before, admission)))) {
      return next(hubError(403, options.otherSession ?? forbidden().message));
    }
    socket.data = admission;
    next();
  });

  io.on('connection', (socket: Socket) => {
    const data = socket.data as HubMember & T;
    const own = byMember.get(data.userId) ?? new Set<Socket>();
    byMember.set(data.userId, own.add(socket));
    socket.once('disconnect', () => {
      own.delete(socket);
      if (!own.size && byMember.get(data.userId) === own) byMember.delete(data.userId);
    });
    traceEvents(socket);
    context.with(connectedIn.get(socket.request) ?? context.active(), () => options.connected(socket, data));
    // Closed as a lost connection would be, so the client reconnects with a renewed token and
    // recovers what it missed meanwhile.
    const expiry = setTimeout(() => socket.conn.close(), Math.min(MAX_TIMER_MS, Math.max(0, data.expiresAt - wallClockMs())));
    socket.once('disconnect', () => clearTimeout(expiry));
    // A revocation announced between the upgrade's check and now found no socket to close.
    closeRevoked(data.userId).catch((err: unknown) => logger.warn({ err }, `${name}: revocation check failed`));
  });

  /** Sockets whose token version is below the member's current one are closed, ending their session. */
  async function closeRevoked(userId?: string): Promise<number> {
    const sockets = userId === undefined ? [...io.of('/').sockets.values()] : [...(byMember.get(userId.toLowerCase()) ?? [])];
    if (!sockets.length) return 0;
    const members = [...new Set(sockets.map((s) => (s.data as HubMember).tokenUserId))];
    const versions = await withTimeout(options.redis.mGet(members.map(tokenVersionKey)), 1000);
    const current = new Map(members.map((member, i) => [member, versions[i]]));
    let closed = 0;
    for (const socket of sockets) {
      const { tokenUserId, tokenVersion } = socket.data as HubMember;
      const version = current.get(tokenUserId);
      if (version == null || Number(version) <= tokenVersion || !socket.connected) continue;
      socket.disconnect(true);
      closed++;
    }
    if (closed) logger.info({ userId, closed }, `${name}: sockets of revoked tokens closed`);
    return closed;
  }

  // Every replica hears of every revocation and closes the sockets it holds.
  const revocations = listenForRevocations(options.redis, {
    logger,
    revoked: (userId) => void closeRevoked(userId).catch((err: unknown) => logger.warn({ err, userId }, `${name}: revoked sockets not closed`)),
    resync: () => void closeRevoked().catch((err: unknown) => logger.warn({ err }, `${name}: revocation check failed`)),
  });
  const sweep = setInterval(() => {
    closeRevoked().catch((err: unknown) => logger.warn({ err }, `${name}: revocation sweep failed`));
  }, options.revocationSweepMs ?? 60_000);
  sweep.unref();

  return {
    io,
    onUpgrade,
    closeRevoked,
    async stop() {
      clearInterval(sweep);
      await (await revocations).stop();
      // Each socket's session is kept ("server shutting down"): its client recovers on another replica.
      await io.close();
    },
  };
}

function hubError(status: number, message: string) {
  return Object.assign(new Error(message), { data: { status } });
}

/** `exp` of a token the verifier accepted (so it has one), in real-time milliseconds. */
function expiryOf(token: string): number {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : wallClockMs() + 15 * 60_000;
  } catch {
    return wallClockMs() + 15 * 60_000;
  }
}

const tracer = trace.getTracer('@ruilplein/service-kit');

/** The last argument of an event that carries trace context: `{ traceparent, tracestate? }`. */
type TraceArgument = { traceparent: string; tracestate?: string };

function traceArgument(): TraceArgument | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? (carrier as TraceArgument) : undefined;
}

const isTraceArgument = (value: unknown): value is TraceArgument =>
  typeof value === 'object' && value !== null && typeof (value as { traceparent?: unknown }).traceparent === 'string';

/** An event packet with the active trace context as its last argument (before an ack callback). */
function withTraceArgument<P extends { data?: unknown }>(packet: P): P {
  const trace = traceArgument();
  if (!trace || !Array.isArray(packet.data)) return packet;
  const data = [...(packet.data as unknown[])];
  const ack = typeof data.at(-1) === 'function' ? data.pop() : undefined;
  return { ...packet, data: [...data, trace, ...(ack ? [ack] : [])] };
}

/**
 * An event from the client that ends with a trace context runs its handler in a span of that trace
 * (ended when the handler acknowledges, or else once it returned). What the socket sends needs
 * nothing here: with connection state recovery on, `socket.emit` passes the adapter too.
 */
function traceEvents(socket: Socket) {
  socket.use((packet, next) => {
    const args = packet.slice(1);
    const ack = typeof args.at(-1) === 'function' ? (args.at(-1) as (...a: unknown[]) => void) : undefined;
    const carried = (ack ? args.at(-2) : args.at(-1)) as unknown;
    if (!isTraceArgument(carried)) return next();
    const parent = propagation.extract(ROOT_CONTEXT, carried);
    const span = tracer.startSpan(`socket.io ${String(packet[0])}`, { kind: SpanKind.SERVER }, parent);
    if (ack) {
      packet[packet.length - 1] = (...answer: unknown[]) => {
        span.end();
        ack(...answer);
      };
    } else {
      setImmediate(() => span.end());
    }
    context.with(trace.setSpan(parent, span), next);
  });
}
