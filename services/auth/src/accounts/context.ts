import type { Bus, Connection, Logger, MailRelay, OutboxRelay } from '@ruilplein/service-kit';
import type { RedisClientType } from 'redis';
import type { AuthLimits, LimitIds } from './limits.ts';
import type { UserCollection } from './model.ts';
import type { Passwords } from './passwords.ts';
import type { Sessions } from './refresh.ts';
import type { TokenIssuer } from './tokens.ts';

/** What every capability of the auth service is built from (app.ts makes one). */
export interface AuthContext {
  db: Connection;
  bus: Bus;
  redis: RedisClientType;
  logger: Logger;
  users: UserCollection;
  /** Publishes the users' outboxes; `kick()` after a write that queued an event. */
  relay: OutboxRelay;
  tokens: TokenIssuer;
  /** Refresh-token sessions: login starts one, refresh rotates it, logout ends it (refresh.ts). */
  sessions: Sessions;
  passwords: Passwords;
  /** Sends the users' queued mails; `kick(collection, id)` after a write that queued one. */
  mail: MailRelay;
  limits: AuthLimits;
  /** Keys of the limiters: HMACs of addresses under AUTH_LIMIT_KEY. */
  limitIds: LimitIds;
  /** The browser's origin, for links in mails (`<publicUrl>/verify-email?token=…`). */
  publicUrl: string;
  /** Lowercased; these accounts get the Beheerder role (the first admin of a cluster). */
  adminEmails: ReadonlySet<string>;
}
