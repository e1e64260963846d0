// The real-time hub: socket.io on /chathub (spec 2 §7), websockets only. Every connection is a
// websocket upgrade checked here before socket.io sees it: the page's origin, the token (signature,
// expiry, revocation) and that the caller is one of the two parties of the offer named in the
// query; refusals are real HTTP answers (401, 403, 404) with a Dutch message. The socket then joins
// the offer's room and receives `ReceiveMessage(senderFirstName, content, message)` for every
// message stored from then on, whichever replica stored it (adapter.ts).
//
// A client that reconnects within the recovery window (and had received a broadcast: socket.io
// resumes from the last one's offset) gets its session back and what was broadcast meanwhile; that reconnect is a new upgrade, checked like the
// first, and the namespace middleware checks that the recovered session is the same member's for
// the same offer. Without recovery (window over, or the replica was killed before it could keep
// the session) the client reads what it missed: GET /api/chat/{id}?after=<last id>, or
// `auth: { lastMessageId }` on connect, which makes the hub send them first.
//
// A socket outlives the check at its upgrade, so revocations reach it too: when auth revokes a
// member's tokens (logout, password change, deletion, suspension) it announces it (the kit's
// revocations.ts) and every replica closes that member's sockets whose token is older, at once, as
// a server disconnect: no session is kept to recover, and the client does not reconnect by itself.
// Connecting again needs a token that is not revoked. Announcements lost while Redis was away are
// made up for by checking every socket again on reconnect, and every `revocationSweepMs`.
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket as NetSocket } from 'node:net';
import type { Duplex } from 'node:stream';
import { CHAT_HUB, CHAT_MESSAGES, tokenVersionKey, type ChatMessage, type OfferEvent } from '@ruilplein/contracts';
import { badRequest, bearerToken, forbidden, HttpError, MESSAGES, unauthorized, wallClockMs, withTimeout, type Logger, type Principal, type TokenVerifier } from '@ruilplein/service-kit';
import { Server as Engine } from 'engine.io';
import type { RedisClientType } from 'redis';
import { Server, type Socket } from 'socket.io';
import { listMessages, partyConversation } from '../conversations/messages.ts';
import { conversationKey, type ChatStore } from '../conversations/model.ts';
import { sharedRooms } from './adapter.ts';

const HUB_PATH = /^\/chathub\/?$/i;
const OFFER_ID = /^[1-9]\d{0,14}$/;
const JSON_TYPE = 'application/json; charset=utf-8';
/** Node's timers take at most this (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface HubDeps {
  store: ChatStore;
  logger: Logger;
  verifyToken: TokenVerifier;
  /** Token versions for revocation (`kit.redis()`: fails at once while Redis is away). */
  tokens: Pick<RedisClientType, 'get' | 'mGet'>;
  allowOrigin: (origin: string | undefined) => boolean;
  /**
   * Shares rooms and sessions between replicas (a client of its own, with an offline queue: the
   * adapter's readers wait for Redis instead of spinning). Absent: this process only.
   */
  adapterRedis?: RedisClientType;
  /** The adapter's stream (and key prefix); tests give each set of replicas its own. */
  streamName?: string;
  /** How long a disconnected socket can be recovered; 2 minutes by default. */
  recoveryMs?: number;
  /** How often every socket's token is checked against revocations that were not announced; 1 minute by default. */
  revocationSweepMs?: number;
}

/** Who was let in, and for which offer, by the upgrade check. */
interface Admission {
  userId: string;
  offerId: number;
  /** The member's id as the token names it (the key of its token version), and the token's version. */
  tokenUserId: string;
  tokenVersion: number;
  /** When the token ends (ms): the socket is closed then, and the client comes back with a new one. */
  expiresAt: number;
}
type SocketData = Admission;

export interface Hub {
  io: Server;
  /** For runService's `onUpgrade` (and tests' servers). */
  onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Sends a stored message to its offer's room, on every replica. */
  broadcast(message: ChatMessage): void;
  /** Tells the offer's room that its status changed. */
  offerChanged(offer: OfferEvent): void;
  /**
   * Closes this replica's sockets whose token was revoked since it was checked: those of `userId`
   * (a revocation was announced), or all of them. Resolves to how many it closed.
   */
  closeRevoked(userId?: string): Promise<number>;
  stop(): Promise<void>;
}

export const roomOf = (offerId: number) => `offer:${offerId}`;

export function createHub(deps: HubDeps): Hub {
  const { store, logger } = deps;
  const recoveryMs = deps.recoveryMs ?? 2 * 60_000;
  const admitted = new WeakMap<IncomingMessage, Admission>();
  const engine = new Engine({
    transports: ['websocket'],
    // Clients send nothing but socket.io's own packets; the hub only talks.
    maxHttpBufferSize: 16 * 1024,
    perMessageDeflate: false,
  });
  const io = new Server({
    serveClient: false,
    // Recovered sessions pass the middleware too: the member and offer must be the same.
    connectionStateRecovery: { maxDisconnectionDuration: recoveryMs, skipMiddlewares: false },
    ...(deps.adapterRedis && { adapter: sharedRooms(deps.adapterRedis, logger, { streamName: deps.streamName ?? 'chat:hub', recoveryMs }) }),
  });
  io.bind(engine);

  /** The checks of a new connection (or a recovery), in the order that answers cheapest first. */
  async function admit(req: IncomingMessage, url: URL): Promise<Admission> {
    if (!deps.allowOrigin(req.headers.origin)) throw forbidden(CHAT_MESSAGES.wrongOrigin);
    const token = bearerToken(req) ?? (url.searchParams.get(CHAT_HUB.tokenParam) || undefined);
    if (!token) throw unauthorized();
    const principal = await deps.verifyToken(token);
    await checkNotRevoked(principal);
    const offer = url.searchParams.get(CHAT_HUB.offerParam);
    if (!offer) throw badRequest(CHAT_MESSAGES.offerRequired);
    if (!OFFER_ID.test(offer)) throw badRequest(CHAT_MESSAGES.invalidOffer);
    const userId = principal.userId.toLowerCase();
    const conversation = await partyConversation(store, Number(offer), userId);
    return { userId, offerId: conversation.offerId, tokenUserId: principal.userId, tokenVersion: principal.tokenVersion, expiresAt: expiryOf(token) };
  }

  /** The gateway checks this too; the hub checks it again because a socket outlives requests. */
  async function checkNotRevoked(principal: Principal) {
    let current: string | null;
    try {
      current = (await withTimeout(deps.tokens.get(tokenVersionKey(principal.userId)), 1000)) as string | null;
    } catch {
      throw new HttpError(503, MESSAGES.unavailable);
    }
    if (current !== null && Number(current) > principal.tokenVersion) throw unauthorized();
  }

  function refuse(req: IncomingMessage, socket: Duplex, err: unknown) {
    const status = err instanceof HttpError ? err.status : 500;
    if (status >= 500) logger.error({ err }, 'chat hub: upgrade failed');
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
    const url = URL.parse(req.url ?? '/', 'http://chat');
    if (!url || !HUB_PATH.test(url.pathname)) return refuse(req, socket, new HttpError(404, MESSAGES.notFound));
    admit(req, url).then(
      (admission) => {
        if (socket.destroyed) return;
        admitted.set(req, admission);
        (engine.handleUpgrade as (req: IncomingMessage, socket: Duplex, head: Buffer) => void)(req, socket, head);
      },
      (err: unknown) => refuse(req, socket, err),
    );
  }

  io.use((socket, next) => {
    const admission = admitted.get(socket.request);
    if (!admission) return next(hubError(401, MESSAGES.internal));
    const before = socket.data as Partial<SocketData>;
    if (socket.recovered && (before.userId !== admission.userId || before.offerId !== admission.offerId)) return next(hubError(403, CHAT_MESSAGES.notParty));
    socket.data = admission;
    next();
  });

  io.on('connection', (socket: Socket) => {
    const { offerId, userId, expiresAt } = socket.data as SocketData;
    if (!socket.recovered) void socket.join(roomOf(offerId));
    // A socket lives no longer than its token: closed as a lost connection would be, so the client
    // reconnects with a renewed token and recovers what it missed meanwhile.
    const expiry = setTimeout(() => socket.conn.close(), Math.min(MAX_TIMER_MS, Math.max(0, expiresAt - wallClockMs())));
    socket.once('disconnect', () => clearTimeout(expiry));
    // A revocation announced between the upgrade's check and now found no socket to close.
    closeRevoked(userId).catch((err: unknown) => logger.warn({ err }, 'chat hub: revocation check failed'));
    const last: unknown = (socket.handshake.auth as { lastMessageId?: unknown }).lastMessageId;
    if (!socket.recovered && typeof last === 'number' && Number.isInteger(last) && last >= 0) {
      catchUp(socket, offerId, last).catch((err: unknown) => logger.warn({ err, offerId }, 'chat hub: catch-up failed'));
    }
  });

  /** Joined first, then read: a message stored meanwhile comes both ways, and the client keeps one per id. */
  async function catchUp(socket: Socket, offerId: number, after: number) {
    const conversation = await store.conversations.findOne({ _id: conversationKey(offerId) });
    if (!conversation) return;
    for (const message of await listMessages(store, conversation, after)) {
      if (!socket.connected) return;
      socket.emit(CHAT_HUB.receiveMessage, message.sender.firstName, message.content, message);
    }
  }

  /** Sockets whose token version is below the member's current one are closed, ending their session. */
  async function closeRevoked(userId?: string): Promise<number> {
    const id = userId?.toLowerCase();
    const sockets = [...io.of('/').sockets.values()].filter((s) => id === undefined || (s.data as SocketData).userId === id);
    if (!sockets.length) return 0;
    const members = [...new Set(sockets.map((s) => (s.data as SocketData).tokenUserId))];
    const versions = await withTimeout(deps.tokens.mGet(members.map(tokenVersionKey)), 1000);
    const current = new Map(members.map((member, i) => [member, versions[i]]));
    let closed = 0;
    for (const socket of sockets) {
      const { tokenUserId, tokenVersion } = socket.data as SocketData;
      const version = current.get(tokenUserId);
      if (version == null || Number(version) <= tokenVersion || !socket.connected) continue;
      socket.disconnect(true);
      closed++;
    }
    if (closed) logger.info({ userId, closed }, 'chat hub: sockets of revoked tokens closed');
    return closed;
  }

  const sweep = setInterval(() => {
    closeRevoked().catch((err: unknown) => logger.warn({ err }, 'chat hub: revocation sweep failed'));
  }, deps.revocationSweepMs ?? 60_000);
  sweep.unref();

  return {
    io,
    onUpgrade,
    closeRevoked,
    broadcast(message) {
      io.to(roomOf(message.tradeOfferId)).emit(CHAT_HUB.receiveMessage, message.sender.firstName, message.content, message);
    },
    offerChanged(offer) {
      io.to(roomOf(offer.id)).emit(CHAT_HUB.offerUpdated, { id: offer.id, status: offer.status, version: offer.version });
    },
    async stop() {
      clearInterval(sweep);
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
