import { createHash, randomBytes } from 'node:crypto';
import { AUTH_MESSAGES, authRoutes, type Role } from '@ruilplein/contracts';
import { badRequest, conflict, HttpError, MESSAGES, unauthorized, type Api } from '@ruilplein/service-kit';
import type { Request, Response } from 'express';
import { Types } from 'mongoose';
import { NOT_BEING_DELETED } from '../cleanup/deletion.ts';
import { activationMail, resetMail } from '../mail/templates.ts';
import type { Mail } from '../mail/mailer.ts';
import type { AuthContext } from './context.ts';
import { toSessionUser, userEventFields } from './events.ts';
import { createLimiter } from './limits.ts';
import type { LinkToken } from './model.ts';
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
  return { token, stored: { tokenHash: sha256(token), expiresAt: new Date(Date.now() + validMs) } };
}

/** Answers plain text (the spec's reset routes); the contract's `z.string()` describes the body. */
const plainText = (res: Response, text: string) => {
  res.type('text/plain; charset=utf-8').send(text);
  return text;
};

const clientIp = (req: Request) => req.ip ?? 'unknown';

export function accountHttp(api: Api, ctx: AuthContext) {
  const { users, passwords, redis, logger, relay } = ctx;
  const limiter = (name: keyof AuthContext['limits']) => createLimiter(redis, name, ctx.limits[name]);
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
  /** Mails go out after the answer: its timing must not tell whether an account exists. */
  const sendLater = (mail: Mail, what: string) => {
    ctx.mailer.send(mail).catch((err: unknown) => logger.error({ err }, `sending the ${what} mail failed`));
  };

  /** Two guesses at one address should not cost two mails each: both limits count every request. */
  const mailLimits = async (req: Request, res: Response, email: string) => {
    await mailPerIp.hit(ids.client(clientIp(req)), res);
    await mailPerAddress.hit(addressKey(email), res);
  };

  api.handle(authRoutes.register, async ({ body, req, res }) => {
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
      lastActiveAt: new Date(),
    };
    try {
      // An upsert that only inserts, so the event goes in with the same write (as `outbox.<id>`).
      // No timestamps from mongoose: they would touch an existing account's updatedAt.
      const now = new Date();
      const done = await users.updateOne(
        { email: user.email },
        { $setOnInsert: { ...user, createdAt: now, updatedAt: now, ...userEventFields('auth.user.registered', user) } },
        { upsert: true, timestamps: false },
      );
      if (done.upsertedCount !== 1) throw conflict(AUTH_MESSAGES.emailTaken);
    } catch (err) {
      // The unique index decides, also between two registrations at the same moment.
      if ((err as { code?: number }).code === 11000) throw conflict(AUTH_MESSAGES.emailTaken);
      throw err;
    }
    relay.kick();
    sendLater(activationMail(user.email, user.firstName, link('verify-email', activation.token), ACTIVATION_HOURS), 'activation');
    return { message: AUTH_MESSAGES.registered };
  });

  api.handle(authRoutes.activate, async ({ query }) => {
    const tokenHash = sha256(query.token);
    const user = await users.findOne({ 'activation.tokenHash': tokenHash, 'activation.expiresAt': { $gt: new Date() } }).lean();
    if (!user) throw badRequest(AUTH_MESSAGES.activationFailed);
    // Conditional on the token: of two clicks at once, one activates and the other fails.
    const done = await users.updateOne(
      { _id: user._id, 'activation.tokenHash': tokenHash },
      { $set: { activated: true, ...userEventFields('auth.user.activated', { ...user, activated: true }) }, $unset: { activation: '' } },
    );
    if (done.modifiedCount !== 1) throw badRequest(AUTH_MESSAGES.activationFailed);
    relay.kick();
    return { message: AUTH_MESSAGES.activated };
  });

  api.handle(authRoutes.resendActivation, async ({ body: email, req, res }) => {
    await mailLimits(req, res, email);
    const user = await users.findOne({ email, activated: false }, { firstName: 1 }).lean();
    if (user) {
      const activation = linkToken(ACTIVATION_HOURS * 3600_000);
      // A new link replaces the old one.
      const done = await users.updateOne({ _id: user._id, activated: false }, { $set: { activation: activation.stored } });
      if (done.modifiedCount === 1) sendLater(activationMail(email, user.firstName, link('verify-email', activation.token), ACTIVATION_HOURS), 'activation');
    }
    return { message: AUTH_MESSAGES.resendSent };
  });

  api.handle(authRoutes.login, async ({ body, req, res }) => {
    // Three counts of failures: this address across accounts; this account from this
    // address (the low ceiling, so failures elsewhere never lock the owner out); this account from
    // everywhere (a high ceiling against spraying from many addresses).
    const ip = ids.client(clientIp(req));
    const pair = ids.accountClient(body.email, clientIp(req));
    const account = addressKey(body.email);
    await loginPerIp.hit(ip, res, tooManyLogins);
    await loginPerAccountClient.hit(pair, res, tooManyLogins);
    await loginPerAccount.hit(account, res, tooManyLogins);
    const user = await users.findOne({ email: body.email, ...NOT_BEING_DELETED }).lean();
    const check = await passwords.verify(user?.passwordHash, body.password);
    if (!user || !check.ok) throw unauthorized(AUTH_MESSAGES.wrongCredentials);
    // Only failures count against the limits.
    // The account's total only takes this attempt back: the owner logging in must not hand an
    // attacker elsewhere a fresh hundred guesses.
    await Promise.all([loginPerIp.undo(ip), loginPerAccountClient.reset(pair), loginPerAccount.undo(account)]);
    if (!user.activated) return res.status(409).json({ message: AUTH_MESSAGES.notActivated, activationAvailable: true }) as never;
    await users.updateOne({ _id: user._id }, { $set: { lastActiveAt: new Date() } });
    // A hash made with an older cost is renewed, but only over the hash just checked: a password
    // change landing in between must win.
    if (check.rehash) await users.updateOne({ _id: user._id, passwordHash: user.passwordHash }, { $set: { passwordHash: await passwords.hash(body.password) } });
    // The access token in the answer as before; the refresh token only in its httpOnly cookie.
    return { token: await ctx.sessions.begin(req, res, user), user: toSessionUser(user) };
  });

  api.handle(authRoutes.verify, async ({ principal }) => {
    const user = await users.findOne({ _id: principal.userId, ...NOT_BEING_DELETED }).lean();
    if (!user) throw unauthorized();
    const now = Date.now();
    if (now - user.lastActiveAt.getTime() > ACTIVITY_RESOLUTION_MS) {
      await users.updateOne({ _id: user._id, lastActiveAt: user.lastActiveAt }, { $set: { lastActiveAt: new Date(now) } });
    }
    return { user: toSessionUser(user) };
  });

  api.handle(authRoutes.refresh, async ({ req, res }) => ctx.sessions.refresh(req, res));

  api.handle(authRoutes.logout, async ({ principal, req, res }) => {
    await revokeTokens(redis, principal.userId, users);
    await ctx.sessions.end(req, res, principal.userId);
    return { message: AUTH_MESSAGES.loggedOut };
  });

  api.handle(authRoutes.requestPasswordReset, async ({ body: email, req, res }) => {
    await mailLimits(req, res, email);
    const user = await users.findOne({ email }, { firstName: 1 }).lean();
    if (user) {
      const reset = linkToken(RESET_MINUTES * 60_000);
      await users.updateOne({ _id: user._id }, { $set: { passwordReset: reset.stored } });
      sendLater(resetMail(email, user.firstName, link('change-password', reset.token), RESET_MINUTES), 'password reset');
    }
    return plainText(res, AUTH_MESSAGES.resetRequested);
  });

  api.handle(authRoutes.changePassword, async ({ body, res }) => {
    const tokenHash = sha256(body.token);
    const user = await users.findOne({ 'passwordReset.tokenHash': tokenHash, 'passwordReset.expiresAt': { $gt: new Date() } }, { email: 1 }).lean();
    if (!user) throw badRequest(AUTH_MESSAGES.resetTokenInvalid);
    // The old sessions are revoked in Redis: without it, a new password would leave them valid
    // and the link spent. Refuse before anything is written, as token checks do (tokens.ts).
    if (!redis.isReady) throw new HttpError(503, MESSAGES.unavailable);
    const passwordHash = await passwords.hash(body.newPassword);
    const done = await users.updateOne({ _id: user._id, 'passwordReset.tokenHash': tokenHash }, { $set: { passwordHash }, $unset: { passwordReset: '' } });
    if (done.modifiedCount !== 1) throw badRequest(AUTH_MESSAGES.resetTokenInvalid);
    // Whoever knew the old password is logged out everywhere; the owner may log in again at once.
    await revokeTokens(redis, user._id.toString(), users);
    await loginPerAccount.reset(addressKey(user.email));
    return plainText(res, AUTH_MESSAGES.passwordChanged);
  });
}
