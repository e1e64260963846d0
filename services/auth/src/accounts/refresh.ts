import { createHash, randomBytes } from 'node:crypto';
import { activeSuspension, AUTH_MESSAGES, type SuspendedBody } from '@ruilplein/contracts';
import { now as platformNow, collection, nowMs, startPeriodic, suspendedError, unauthorized, type Connection, type IndexSpec, type Logger, type Worker } from '@ruilplein/service-kit';
import type { CookieOptions, Request, Response } from 'express';
import type { mongo } from 'mongoose';
import { SUSPENSION_FIELDS, suspensionClaimOf } from './suspension.ts';
import { NOT_BEING_DELETED, userIdOf, type UserCollection, type UserDoc } from './model.ts';
import type { TokenIssuer } from './tokens.ts';

// Sessions (docs/architecture.md "Identity"): a short-lived access token in the browser's storage,
// renewed through a refresh token that only ever travels in an httpOnly cookie. One login is one
// family: each refresh replaces the family's token, and a replaced token coming back means a copy
// is out there, so the whole family ends. The family is bound to the user's token version, so
// logout, a password change, a ban and deletion (which bump it) end every family of the user.

export const REFRESH_COOKIE = 'ruilplein_refresh';
/** Sent only to auth's own routes, never to other services or the frontends. */
export const REFRESH_COOKIE_PATH = '/api/auth';
/**
 * Two tabs that refresh at the same moment both send the same cookie: the one that comes second
 * within this window gets an access token (without a new cookie; the first answer set it) instead
 * of ending the session. Any older token is treated as stolen.
 */
export const REUSE_GRACE_SECONDS = 10;

/** One login session (a token family); the store keeps only hashes of the tokens. */
export interface RefreshDoc {
  /** The family id, also the first half of the cookie value. */
  _id: string;
  userId: string;
  /** The user's token version at login; a newer version ends the family. */
  tokenVersion: number;
  /** sha256 of the current token's secret. */
  tokenHash: string;
  /** The token the last refresh replaced, accepted again until `previousUntil` (REUSE_GRACE_SECONDS). */
  previousHash?: string;
  previousUntil?: Date;
  /** Slides with every refresh; checked at read time and removed by the cleanup (no TTL indexes). */
  expiresAt: Date;
  revokedAt?: Date;
  createdAt: Date;
  rotatedAt?: Date;
}

export const refreshCollection = (db: Connection) => collection<RefreshDoc>(db, 'refresh_tokens');
export type RefreshCollection = mongo.Collection<RefreshDoc>;

/** For MongoDB's planner: the cleanup's `expiresAt` range (no TTL index: FerretDB has none). */
export const REFRESH_INDEXES: readonly IndexSpec[] = [{ key: { expiresAt: 1 } }];

const sha256 = (secret: string) => createHash('sha256').update(secret).digest('hex');
const randomId = (bytes: number) => randomBytes(bytes).toString('base64url');
/** `<family>.<secret>`, both base64url: 16 bytes of family id, 32 of secret. */
const COOKIE_VALUE = /^([\w-]{22})\.([\w-]{43})$/;

/** Why a cookie cannot renew the session; the member only learns that it cannot, or that they are suspended. */
class Refused extends Error {
  readonly suspension?: SuspendedBody;
  constructor(why: string, suspension?: SuspendedBody) {
    super(why);
    this.suspension = suspension;
  }
}

export interface SessionOptions {
  db: Connection;
  users: UserCollection;
  tokens: TokenIssuer;
  /** Lifetime of a refresh token (the cookie's Max-Age); each refresh starts it anew. */
  ttlSeconds: number;
  logger: Logger;
}

export interface Sessions {
  /** After a successful login: a new family, its cookie on `res`; resolves to the access token. */
  begin(req: Request, res: Response, user: Pick<UserDoc, '_id' | 'roles' | 'tokenVersion' | 'suspension' | 'block'>): Promise<string>;
  /** `POST /api/auth/refresh`: a new access token and a rotated cookie, or 401 with the cookie cleared. */
  refresh(req: Request, res: Response): Promise<{ token: string }>;
  /** Logout: ends the family of the cookie sent (if it is this user's) and clears the cookie. */
  end(req: Request, res: Response, userId: string): Promise<void>;
  /** Removes expired and long-revoked families; resolves to how many. */
  cleanup(): Promise<number>;
  model: RefreshCollection;
}

export function createSessions(options: SessionOptions): Sessions {
  const { users, tokens, ttlSeconds } = options;
  const model = refreshCollection(options.db);

  const cookieOptions = (req: Request): CookieOptions => ({
    httpOnly: true,
    sameSite: 'strict',
    path: REFRESH_COOKIE_PATH,
    // https as the browser saw it (X-Forwarded-Proto from trusted proxies only); on plain-http
    // localhost a Secure cookie would be dropped by the browser.
    secure: req.secure,
  });
  const setCookie = (req: Request, res: Response, family: string, secret: string) => {
    res.cookie(REFRESH_COOKIE, `${family}.${secret}`, { ...cookieOptions(req), maxAge: ttlSeconds * 1000 });
  };
  const clearCookie = (req: Request, res: Response) => {
    res.clearCookie(REFRESH_COOKIE, cookieOptions(req));
  };
  const cookieOf = (req: Request): { family: string; secret: string } | undefined => {
    for (const part of (req.headers.cookie ?? '').split(';')) {
      const eq = part.indexOf('=');
      if (eq < 0 || part.slice(0, eq).trim() !== REFRESH_COOKIE) continue;
      const match = COOKIE_VALUE.exec(part.slice(eq + 1).trim());
      if (match) return { family: match[1]!, secret: match[2]! };
    }
    return undefined;
  };
  const revoke = (family: string, filter: Record<string, unknown> = {}) =>
    model.updateOne({ _id: family, revokedAt: { $exists: false }, ...filter }, { $set: { revokedAt: platformNow() } });

  async function renew(req: Request, res: Response, cookie: { family: string; secret: string }, retried = false): Promise<{ token: string }> {
    const now = platformNow();
    const session = await model.findOne({ _id: cookie.family });
    if (!session || session.revokedAt || session.expiresAt <= now) throw new Refused('unknown, revoked or expired');
    const hash = sha256(cookie.secret);
    const current = hash === session.tokenHash;
    const justReplaced = hash === session.previousHash && !!session.previousUntil && session.previousUntil > now;
    if (!current && !justReplaced) {
      await revoke(session._id);
      options.logger.warn({ userId: session.userId }, 'a replaced refresh token came back: its session is ended');
      throw new Refused('reused');
    }
    // Roles, premium, suspensions and the version may have changed since the last token: read them now.
    const user = await users.findOne({ _id: userIdOf(session.userId), ...NOT_BEING_DELETED }, { projection: { roles: 1, activated: 1, ...SUSPENSION_FIELDS, tokenVersion: 1 } });
    // A suspension ends the session (its tokens were revoked with it): the answer says so, and the
    // browser shows /geblokkeerd. Signing in again gives a token that carries the suspension.
    const suspension = user ? activeSuspension(suspensionClaimOf(user), nowMs()) : undefined;
    if (!user || !user.activated || suspension || (await tokens.version(user)) > session.tokenVersion) {
      await revoke(session._id);
      throw new Refused('user gone, suspended or tokens revoked', suspension);
    }
    if (current) {
      const secret = randomId(32);
      // Conditional on the token just checked: of two refreshes with it, one replaces it.
      const done = await model.updateOne(
        { _id: session._id, tokenHash: hash, revokedAt: { $exists: false } },
        {
          $set: {
            tokenHash: sha256(secret),
            previousHash: hash,
            previousUntil: new Date(now.getTime() + REUSE_GRACE_SECONDS * 1000),
            expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
            rotatedAt: now,
          },
        },
      );
      // Lost the race: read again, now as the token just replaced (or revoked meanwhile).
      if (done.modifiedCount !== 1) {
        if (retried) throw new Refused('changed meanwhile');
        return renew(req, res, cookie, true);
      }
      setCookie(req, res, session._id, secret);
    }
    // The family's version, not whatever Redis says by now: a logout landing meanwhile wins.
    return { token: await tokens.sign(user, session.tokenVersion) };
  }

  return {
    model,
    async begin(req, res, user) {
      const version = await tokens.version(user);
      const token = await tokens.sign(user, version);
      const family = randomId(16);
      const secret = randomId(32);
      const now = platformNow();
      await model.insertOne({
        _id: family,
        userId: user._id.toString(),
        tokenVersion: version,
        tokenHash: sha256(secret),
        expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
        createdAt: now,
      });
      setCookie(req, res, family, secret);
      return token;
    },
    async refresh(req, res) {
      const cookie = cookieOf(req);
      try {
        if (!cookie) throw new Refused('no cookie');
        return await renew(req, res, cookie);
      } catch (err) {
        if (!(err instanceof Refused)) throw err;
        clearCookie(req, res);
        throw err.suspension ? suspendedError(err.suspension) : unauthorized(AUTH_MESSAGES.sessionEnded);
      }
    },
    async end(req, res, userId) {
      const cookie = cookieOf(req);
      // Only the caller's own family: a cookie from another account in the same browser stays.
      if (cookie) await revoke(cookie.family, { userId });
      clearCookie(req, res);
    },
    cleanup: () => removeEndedSessions(model),
  };
}

/** Deletes expired families, and revoked ones a day after (kept that long to see what happened). */
export async function removeEndedSessions(model: RefreshCollection, now = platformNow()): Promise<number> {
  const revokedLongAgo = new Date(now.getTime() - 24 * 3600_000);
  const { deletedCount } = await model.deleteMany({ $or: [{ expiresAt: { $lt: now } }, { revokedAt: { $lt: revokedLongAgo } }] });
  return deletedCount;
}

/** Removes ended sessions every `intervalMs` (hourly by default); every replica may run it. */
export function startSessionCleanup(sessions: Sessions, logger: Logger, intervalMs = 3600_000): Worker & { run(): Promise<number> } {
  return startPeriodic({ intervalMs, work: () => sessions.cleanup(), logger, what: 'removing ended sessions' });
}
