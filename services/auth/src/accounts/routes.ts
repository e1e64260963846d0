import { createHash, randomBytes } from 'node:crypto';
import { AUTH_MESSAGES, type Role } from '@ruilplein/contracts';
import { now as platformNow, nowMs, badRequest, conflict, HttpError, mailFields, MESSAGES, unauthorized, type HandlerPart } from '@ruilplein/service-kit';
import type { Request, Response } from 'express';
import { Types } from 'mongoose';
import { activationMail, resetMail } from '../mail/templates.ts';
import type { AuthContext } from './context.ts';
import { toSessionUser, userEventFields } from './events.ts';
import { createLimiter, createSlowdown, type LimitName } from './limits.ts';
import { NOT_BEING_DELETED, stamped, userIdOf, type LinkToken } from './model.ts';
import { revokeTokens } from './tokens.ts';

/** How long mailed links work (docs/decisions.md). */
export const ACTIVATION_HOURS = 48;
export const RESET_MINUTES = 60;
/** lastActiveAt is written at most this often per member (every verify would be a write per page load). */
const ACTIVITY_RESOLUTION_MS = 60 * 60 * 1000;

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

/** A random link token: the member gets the token, the store only its hash. */
function linkToken(validMs: number): { token: string; stored: LinkToken } {
  const token = randomBytes(32).toString('base64url');
  return { token, stored: { tokenHash: sha256(token), expiresAt: new Date(nowMs() + validMs) } };
}

/** Answers plain text (the spec's reset routes); the contract's `z.string()` describes the body. */
const plainText = (res: Response, text: string) => {
  res.type('text/plain; charset=utf-8').send(text);
  return text;
};

const clientIp = (req: Request) => req.ip ?? 'unknown';

export function accountHandlers(ctx: AuthContext) {
  const { users, passwords, redis, relay } = ctx;
  const limiter = (name: LimitName) => createLimiter(redis, name, ctx.limits[name]);
  const slowdown = createSlowdown(redis, ctx.limits.loginSlowdown);
  const loginPerAccountClient = limiter('loginPerAccountClient');
  const loginPerAccount = limiter('loginPerAccount');
  const loginPerIp = limiter('loginPerIp');
  const mailPerAddress = limiter('mailPerAddress');
  const mailPerIp = limiter('mailPerIp');
  const registerPerIp = limiter('registerPerIp');
  const tooManyLogins = (minutes: number) => `Te veel mislukte inlogpogingen. Probeer het over ${minutes} ${minutes === 1 ? 'minuut' : 'minuten'} opnieuw.`;
  // Limiter keys are HMACs under AUTH_LIMIT_KEY: Redis holds no member's e-mail or IP address.
  const ids = ctx.limitIds;
  const addressKey = ids.account;
  const link = (page: string, token: string) => `${ctx.publicUrl}/${page}?token=${encodeURIComponent(token)}`;
  /**
   * Each mail is queued in the same write as the change that causes it and sent by the mail relay
   * after the answer: its timing tells nothing about whether an account exists, and a crash
   * loses neither the change nor its mail.
   */
  const sendQueued = (id: Types.ObjectId) => ctx.mail.kick(users.collectionName, id);
  /** Two guesses at one address should not cost two mails each: both limits count every request. */
  const mailLimits = async (req: Request, res: Response, email: string) => {
    await mailPerIp.hit(ids.client(clientIp(req)), res);
    await mailPerAddress.hit(addressKey(email), res);
  };
  return {
    auth: {
      register: async ({ body, req, res }) => {
        await registerPerIp.hit(ids.client(clientIp(req)), res);
        const roles: Role[] = ctx.adminEmails.has(body.email) ? ['Gebruiker', 'Beheerder'] : ['Gebruiker'];
        const activation = linkToken(ACTIVATION_HOURS * 3600_000);
        const user = {
          _id: new Types.ObjectId(),
          firstName: body.firstName,
          lastName: body.lastName,
          email: body.email,
          passwordHash: await passwords.hash(body.password),
          ...(body.city && { city: body.city }),
          ...(body.latitude != null && body.longitude != null && { latitude: body.latitude, longitude: body.longitude }),
          activated: false,
          roles,
          activation: activation.stored,
          tokenVersion: 0,
          lastActiveAt: platformNow(),
        };
        try {
          // An upsert that only inserts, so the event goes in with the same write (as `outbox.<id>`).
          // The dates only on insert: an existing account's updatedAt stays as it is.
          const now = platformNow();
          const done = await users.updateOne(
            { email: user.email },
            {
              $setOnInsert: {
                ...user,
                createdAt: now,
                updatedAt: now,
                ...userEventFields('auth.user.registered', user),
                ...mailFields(activationMail(user.email, user.firstName, link('verify-email', activation.token), ACTIVATION_HOURS)),
              },
            },
            { upsert: true },
          );
          if (done.upsertedCount !== 1) throw conflict(AUTH_MESSAGES.emailTaken);
        } catch (err) {
          // The unique index decides, also between two registrations at the same moment.
          if ((err as { code?: number }).code === 11000) throw conflict(AUTH_MESSAGES.emailTaken);
          throw err;
        }
        relay.kick();
        sendQueued(user._id);
        return { message: AUTH_MESSAGES.registered };
      },
      activate: async ({ query }) => {
        const tokenHash = sha256(query.token);
        const user = await users.findOne({ 'activation.tokenHash': tokenHash, 'activation.expiresAt': { $gt: platformNow() } });
        if (!user) throw badRequest(AUTH_MESSAGES.activationFailed);
        // Conditional on the token: of two clicks at once, one activates and the other fails.
        const done = await users.updateOne(
          { _id: user._id, 'activation.tokenHash': tokenHash },
          stamped({ $set: { activated: true, ...userEventFields('auth.user.activated', { ...user, activated: true }) }, $unset: { activation: '' } }),
        );
        if (done.modifiedCount !== 1) throw badRequest(AUTH_MESSAGES.activationFailed);
        relay.kick();
        return { message: AUTH_MESSAGES.activated };
      },
      resendActivation: async ({ body: email, req, res }) => {
        await mailLimits(req, res, email);
        const user = await users.findOne({ email, activated: false }, { projection: { firstName: 1 } });
        if (user) {
          const activation = linkToken(ACTIVATION_HOURS * 3600_000);
          // A new link replaces the old one.
          const mail = activationMail(email, user.firstName, link('verify-email', activation.token), ACTIVATION_HOURS);
          const done = await users.updateOne({ _id: user._id, activated: false }, stamped({ $set: { activation: activation.stored, ...mailFields(mail) } }));
          if (done.modifiedCount === 1) sendQueued(user._id);
        }
        return { message: AUTH_MESSAGES.resendSent };
      },
      login: async ({ body, req, res }) => {
        // Three counts of failures: this address across accounts; this account from this
        // address (the low ceiling, so failures elsewhere never lock the owner out); this account from
        // everywhere (a high ceiling against spraying from many addresses).
        const ip = ids.client(clientIp(req));
        const pair = ids.accountClient(body.email, clientIp(req));
        const account = addressKey(body.email);
        await loginPerIp.hit(ip, res, tooManyLogins);
        await loginPerAccountClient.hit(pair, res, tooManyLogins);
        await loginPerAccount.hit(account, res, tooManyLogins);
        // Across all addresses: past a few failures every attempt for the account waits, except from
        // an address the account logged in from lately (probe: six addresses had 30 guesses).
        const admitted = (await slowdown.known(pair)) ? undefined : await slowdown.admit(account, res, nowMs());
        const user = await users.findOne({ email: body.email, ...NOT_BEING_DELETED });
        const check = await passwords.verify(user?.passwordHash, body.password);
        if (!user || !check.ok) throw unauthorized(AUTH_MESSAGES.wrongCredentials);
        // Only failures count against the limits.
        // The account's total only takes this attempt back: the owner logging in must not hand an
        // attacker elsewhere a fresh hundred guesses.
        await Promise.all([loginPerIp.undo(ip), loginPerAccountClient.reset(pair), loginPerAccount.undo(account), slowdown.succeeded(account, pair, admitted)]);
        if (!user.activated) return res.status(409).json({ message: AUTH_MESSAGES.notActivated, activationAvailable: true }) as never;
        await users.updateOne({ _id: user._id }, stamped({ $set: { lastActiveAt: platformNow() } }));
        // A hash made with an older cost is renewed, but only over the hash just checked: a password
        // change landing in between must win.
        if (check.rehash) await users.updateOne({ _id: user._id, passwordHash: user.passwordHash }, stamped({ $set: { passwordHash: await passwords.hash(body.password) } }));
        // The access token in the answer as before; the refresh token only in its httpOnly cookie.
        return { token: await ctx.sessions.begin(req, res, user), user: toSessionUser(user) };
      },
      verify: async ({ principal }) => {
        const user = await users.findOne({ _id: userIdOf(principal.userId), ...NOT_BEING_DELETED });
        if (!user) throw unauthorized();
        const now = nowMs();
        if (now - user.lastActiveAt.getTime() > ACTIVITY_RESOLUTION_MS) {
          await users.updateOne({ _id: user._id, lastActiveAt: user.lastActiveAt }, stamped({ $set: { lastActiveAt: new Date(now) } }));
        }
        return { user: toSessionUser(user) };
      },
      refresh: async ({ req, res }) => ctx.sessions.refresh(req, res),
      logout: async ({ principal, req, res }) => {
        await revokeTokens(redis, principal.userId, users);
        await ctx.sessions.end(req, res, principal.userId);
        return { message: AUTH_MESSAGES.loggedOut };
      },
      requestPasswordReset: async ({ body: email, req, res }) => {
        await mailLimits(req, res, email);
        const user = await users.findOne({ email }, { projection: { firstName: 1 } });
        if (user) {
          const reset = linkToken(RESET_MINUTES * 60_000);
          const mail = resetMail(email, user.firstName, link('change-password', reset.token), RESET_MINUTES);
          const done = await users.updateOne({ _id: user._id }, stamped({ $set: { passwordReset: reset.stored, ...mailFields(mail) } }));
          if (done.modifiedCount === 1) sendQueued(user._id);
        }
        return plainText(res, AUTH_MESSAGES.resetRequested);
      },
      changePassword: async ({ body, res }) => {
        const tokenHash = sha256(body.token);
        const user = await users.findOne({ 'passwordReset.tokenHash': tokenHash, 'passwordReset.expiresAt': { $gt: platformNow() } }, { projection: { email: 1 } });
        if (!user) throw badRequest(AUTH_MESSAGES.resetTokenInvalid);
        // The old sessions are revoked in Redis: without it, a new password would leave them valid
        // and the link spent. Refuse before anything is written, as token checks do (tokens.ts).
        if (!redis.isReady) throw new HttpError(503, MESSAGES.unavailable);
        const passwordHash = await passwords.hash(body.newPassword);
        const done = await users.updateOne({ _id: user._id, 'passwordReset.tokenHash': tokenHash }, stamped({ $set: { passwordHash }, $unset: { passwordReset: '' } }));
        if (done.modifiedCount !== 1) throw badRequest(AUTH_MESSAGES.resetTokenInvalid);
        // Whoever knew the old password is logged out everywhere; the owner may log in again at once.
        await revokeTokens(redis, user._id.toString(), users);
        await Promise.all([loginPerAccount.reset(addressKey(user.email)), slowdown.clear(addressKey(user.email))]);
        return plainText(res, AUTH_MESSAGES.passwordChanged);
      },
    },
  } satisfies HandlerPart<'auth'>;
}
