import type { MailPreference, Notification, NotificationKind } from '@ruilplein/contracts';
import { blockProjection, collection, memberProjection, type BlockProjection, type Connection, type Logger, type MailRelay, type MemberProjection } from '@ruilplein/service-kit';
import type { mongo } from 'mongoose';

/**
 * One notification. `_id` is `<userId>:<time>:<source>` (notifications/keys.ts): the time is the
 * event's, the source names the event, so a redelivered event makes the same id and its insert
 * changes nothing.
 */
export interface NotificationDoc {
  _id: string;
  userId: string;
  kind: NotificationKind;
  title: string;
  body: string;
  link: string;
  createdAt: Date;
  readAt: Date | null;
  /** The member whose doing it is (the sender of an offer or message): a block removes it while unread. */
  cause?: string;
}

/** A conversation's one unread chat notification and its mail throttle (inbox `chats.<offerId>`). */
interface ChatThread {
  /** The newest message applied (applyIfNewer's version): an older or repeated one changes nothing. */
  m: number;
  /** The conversation's current notification. */
  id?: string;
  /** Messages it stands for while unread. */
  n?: number;
  /** The last mail about this conversation (at most one per CHAT_MAIL_THROTTLE_MINUTES). */
  mailedAt?: Date;
}

/**
 * A member's inbox, read by `_id` only (FerretDB indexes nothing else): the ids of their
 * notifications (the list reads them in id order, newest first, and the documents by `$in`), the
 * unread ones (the count is its length, never a counter that can drift), and their chat threads.
 */
export interface InboxDoc {
  _id: string;
  ids: string[];
  unread: string[];
  chats?: Record<string, ChatThread>;
}

/** What a member chose; kinds they never chose take contracts' defaults. */
export interface PreferencesDoc {
  _id: string;
  kinds: Partial<Record<NotificationKind, MailPreference>>;
}

/** A mail waiting in the kit's mail outbox: a direct one (`_id` the notification's) or a digest (`digest:<userId>:<day>`). */
export interface MailDoc {
  _id: string;
  userId: string;
  at: Date;
}

/**
 * Ids waiting for something on a day, sharded by member so no document grows past a few hundred
 * kilobytes: the digest of that day (`digest:<day>:<shard>`, `ids`), or the deletion of what
 * expires that day (`expire:<day>:<shard>`, `notifications`: read 90 days before; `mails`: sent
 * mails' documents). Both are read by `_id` (`$in` over the day's shards).
 */
export interface BucketDoc {
  _id: string;
  ids?: string[];
  notifications?: string[];
  mails?: string[];
}

/** A Premium that will not renew (cancelled, renewal failed): the periodic scan tells the member 3 days before it ends. */
export interface EndingDoc {
  _id: string;
  version: number;
  /** Absent: it renews (or ended); nothing to tell. */
  paidUntil?: Date;
  /** The paidUntil the member was told about. */
  toldFor?: Date;
}

export const COLLECTIONS = {
  notifications: 'notifications',
  inboxes: 'inboxes',
  preferences: 'preferences',
  mails: 'mails',
  buckets: 'buckets',
  endings: 'premium_endings',
  members: 'members',
  blocks: 'blocks',
} as const;

export const MEMBER_FIELDS = ['firstName'] as const;

/** What pushes to a member's open pages (the hub, live/hub.ts); a no-op before it is wired. */
export interface LivePush {
  push(userId: string, notification: Notification): void;
  count(userId: string, count: number): void;
}

export interface NotificationContext {
  notifications: mongo.Collection<NotificationDoc>;
  inboxes: mongo.Collection<InboxDoc>;
  preferences: mongo.Collection<PreferencesDoc>;
  mails: mongo.Collection<MailDoc>;
  buckets: mongo.Collection<BucketDoc>;
  endings: mongo.Collection<EndingDoc>;
  members: MemberProjection<(typeof MEMBER_FIELDS)[number]>;
  blocks: BlockProjection;
  live: LivePush;
  mail: Pick<MailRelay, 'kick'>;
  /** The members' mail addresses (auth's `rpc.auth.member.contacts`), by id. */
  contacts(ids: string[]): Promise<Map<string, string>>;
  /** The site's origin (links in mails). */
  publicUrl: string;
  /** Signs and checks unsubscribe tokens. */
  unsubscribeKey: string;
  logger: Logger;
}

export function notificationCollections(db: Connection) {
  return {
    notifications: collection<NotificationDoc>(db, COLLECTIONS.notifications),
    inboxes: collection<InboxDoc>(db, COLLECTIONS.inboxes),
    preferences: collection<PreferencesDoc>(db, COLLECTIONS.preferences),
    mails: collection<MailDoc>(db, COLLECTIONS.mails),
    buckets: collection<BucketDoc>(db, COLLECTIONS.buckets),
    endings: collection<EndingDoc>(db, COLLECTIONS.endings),
    members: memberProjection(db, { fields: MEMBER_FIELDS, collection: COLLECTIONS.members }),
    blocks: blockProjection(db, { collection: COLLECTIONS.blocks }),
  };
}
