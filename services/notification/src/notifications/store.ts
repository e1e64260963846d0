// Making, listing and reading notifications. Every read is by `_id` (one member's inbox, then the
// notifications by `$in`); every write is one single-document update that is safe to repeat, so a
// redelivered event or a crash between two steps never shows or mails a notification twice.
import { CHAT_MAIL_THROTTLE_MINUTES, FORMER_MEMBER, READ_NOTIFICATION_DAYS, type MailPreference, type Notification, type NotificationKind } from '@ruilplein/contracts';
import { applyIfNewer, byIds, mailFields, now, type Member } from '@ruilplein/service-kit';
import type { InboxDoc, NotificationContext, NotificationDoc } from '../context.ts';
import { directMail } from '../mail/templates.ts';
import { preferencesOf } from '../preferences/model.ts';
import { addDays, digestDayOf, memberKey, notificationId, ownerOf, shardOf, utcDay } from './keys.ts';

/** Days a mail's document is kept after it was queued (then the expiry buckets delete it): a repeated digest run finds it meanwhile. */
export const SENT_MAIL_DAYS = 2;

export function answerOf(doc: NotificationDoc): Notification {
  return {
    id: doc._id,
    kind: doc.kind,
    title: doc.title,
    body: doc.body,
    link: doc.link,
    createdAt: new Date(doc.createdAt).toISOString(),
    readAt: doc.readAt ? new Date(doc.readAt).toISOString() : null,
  };
}

/** A member's first name as a notification says it; a member whose account is gone is 'Voormalig lid'. */
export async function nameOf(ctx: Pick<NotificationContext, 'members'>, userId: string): Promise<string> {
  const member: Member<'firstName'> | null = await ctx.members.byId(userId);
  if (!member || member.deleted || !member.firstName) return `${FORMER_MEMBER.firstName} ${FORMER_MEMBER.lastName}`;
  return member.firstName;
}

export interface NewNotification {
  userId: string;
  kind: NotificationKind;
  /** Names the event (with `at`, the id): the same event always gives the same notification. */
  source: string;
  /** The event's time (not the handling's): a redelivery makes the same id. */
  at: Date;
  title: string;
  body: string;
  link: string;
  /** The member whose doing it is: nothing when either blocked the other. */
  cause?: string;
}

interface NotifyOptions {
  /** Chat: at most one mail per conversation in a while. */
  throttleThread?: string;
  /** How to mail this one instead of the member's preference for the kind (a saved search's own alert choice); 'off' in the settings still wins. */
  mail?: MailPreference;
}

/** Enters expiring ids into the day's shard of `userId` (a repeat adds nothing). */
export async function expireOn(ctx: Pick<NotificationContext, 'buckets'>, day: string, userId: string, field: 'notifications' | 'mails', ids: string[]) {
  if (!ids.length) return;
  await ctx.buckets.updateOne({ _id: `expire:${day}:${shardOf(userId)}` }, { $addToSet: { [field]: { $each: ids } } }, { upsert: true });
}

/** The member's unread count after a change (the length of the unread list). */
async function unreadCount(ctx: Pick<NotificationContext, 'inboxes'>, userId: string): Promise<number> {
  const inbox = await ctx.inboxes.findOne({ _id: memberKey(userId) }, { projection: { unread: 1 } });
  return inbox?.unread?.length ?? 0;
}

/** Queues the mail a new notification asks for by the member's preference: at once, in the next digest, or none. */
async function queueMail(ctx: NotificationContext, doc: NotificationDoc, options: NotifyOptions = {}): Promise<void> {
  const chosen = (await preferencesOf(ctx, doc.userId))[doc.kind];
  // A kind turned off (in the settings or by a mail's unsubscribe link) stays off whatever the event asks.
  const preference = chosen === 'off' ? 'off' : (options.mail ?? chosen);
  if (preference === 'off') return;
  const at = now();
  if (preference === 'digest') {
    await ctx.buckets.updateOne({ _id: `digest:${digestDayOf(at)}:${shardOf(doc.userId)}` }, { $addToSet: { ids: doc._id } }, { upsert: true });
    return;
  }
  if (options.throttleThread) {
    // At most one mail per conversation per CHAT_MAIL_THROTTLE_MINUTES: taken by one conditional update.
    const field = `chats.${options.throttleThread}.mailedAt`;
    const since = new Date(at.getTime() - CHAT_MAIL_THROTTLE_MINUTES * 60_000);
    const taken = await ctx.inboxes.updateOne({ _id: doc.userId, $or: [{ [field]: { $lt: since } }, { [field]: { $exists: false } }] }, { $set: { [field]: at } });
    if (taken.modifiedCount === 0) return;
  }
  const to = (await ctx.contacts([doc.userId])).get(doc.userId);
  if (!to) return; // not activated, or gone
  // Keyed by the notification: a second try finds the mail queued and adds none.
  const queued = await ctx.mails.updateOne(
    { _id: doc._id },
    { $setOnInsert: { userId: doc.userId, at, ...mailFields(directMail(ctx, to, doc)) } },
    { upsert: true },
  );
  if (queued.upsertedCount) {
    ctx.mail.kick(ctx.mails.collectionName, doc._id);
    await expireOn(ctx, addDays(utcDay(at), SENT_MAIL_DAYS), doc.userId, 'mails', [doc._id]);
  }
}

/** Whether the notification may reach the member at all: they exist, and neither blocked the cause. */
async function mayReach(ctx: NotificationContext, userId: string, cause: string | undefined): Promise<boolean> {
  const member = await ctx.members.byId(userId);
  if (member?.deleted) return false;
  if (cause && memberKey(cause) === memberKey(userId)) return false;
  return !(cause && (await ctx.blocks.blockedEitherWay(userId, cause)));
}

/** Stores a notification, adds it to the inbox, pushes it live and queues its mail. Answers whether it was new. */
export async function notify(ctx: NotificationContext, n: NewNotification, options: NotifyOptions = {}): Promise<boolean> {
  const userId = memberKey(n.userId);
  if (!(await mayReach(ctx, userId, n.cause))) return false;
  const doc: NotificationDoc = {
    _id: notificationId(userId, n.at, n.source),
    userId,
    kind: n.kind,
    title: n.title,
    body: n.body,
    link: n.link,
    createdAt: n.at,
    readAt: null,
    ...(n.cause && { cause: memberKey(n.cause) }),
  };
  let fresh = true;
  try {
    await ctx.notifications.insertOne(doc);
  } catch (err) {
    if ((err as { code?: number }).code !== 11000) throw err;
    fresh = false;
  }
  const stored = fresh ? doc : await ctx.notifications.findOne({ _id: doc._id });
  if (!stored) return false; // made and deleted meanwhile (read-all, account deletion)
  // Also on a redelivery: finishes what a crash left half done; a repeat adds nothing.
  await ctx.inboxes.updateOne({ _id: userId }, { $addToSet: stored.readAt ? { ids: doc._id } : { ids: doc._id, unread: doc._id } }, { upsert: true });
  if (fresh) {
    ctx.live.push(userId, answerOf(doc));
    ctx.live.count(userId, await unreadCount(ctx, userId));
  }
  await queueMail(ctx, stored, options);
  return fresh;
}

/**
 * A chat message: one unread notification per conversation, replaced by the newest (the count of
 * messages it stands for kept), never one per message. Messages are applied in order per
 * conversation (their number): an older or repeated one changes nothing.
 */
export async function notifyChat(
  ctx: NotificationContext,
  m: { userId: string; offerId: number; messageId: number; senderId: string; senderName: string; preview: string; at: Date },
): Promise<boolean> {
  const userId = memberKey(m.userId);
  if (!(await mayReach(ctx, userId, m.senderId))) return false;
  const thread = String(m.offerId);
  const before = await ctx.inboxes.findOne({ _id: userId }, { projection: { [`chats.${thread}`]: 1 } });
  const current = before?.chats?.[thread];
  if (current && current.m >= m.messageId) return false;
  const previous = current?.id ? await ctx.notifications.findOne({ _id: current.id }) : null;
  const count = previous && !previous.readAt ? (current?.n ?? 1) + 1 : 1;
  const id = notificationId(userId, m.at, `c${m.offerId}m${m.messageId}`);
  if (!(await applyIfNewer(ctx.inboxes, userId, m.messageId, { [`chats.${thread}.id`]: id, [`chats.${thread}.n`]: count }, { field: `chats.${thread}.m` }))) return false;
  const made = await notify(
    ctx,
    {
      userId,
      kind: 'chat-message',
      source: `c${m.offerId}m${m.messageId}`,
      at: m.at,
      title: count === 1 ? `Nieuw bericht van ${m.senderName}` : `${count} nieuwe berichten van ${m.senderName}`,
      body: m.preview,
      link: `/dashboard/tradeoffer/${m.offerId}`,
      cause: m.senderId,
    },
    { throttleThread: thread },
  );
  // The conversation's earlier unread notification gives way to this one.
  if (previous && !previous.readAt && previous._id !== id) await removeNotifications(ctx, userId, [previous._id]);
  if (made && previous && !previous.readAt) ctx.live.count(userId, await unreadCount(ctx, userId));
  return made;
}

/** Deletes some of one member's notifications (and their queued mails) and takes them out of the inbox. */
export async function removeNotifications(ctx: Pick<NotificationContext, 'notifications' | 'inboxes' | 'mails'>, userId: string, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await ctx.inboxes.updateOne({ _id: memberKey(userId) }, { $pullAll: { ids, unread: ids } });
  await ctx.notifications.deleteMany({ _id: { $in: ids } });
}

/** The member's page of notifications, newest first, after `before` (an id of theirs). */
export async function listNotifications(ctx: NotificationContext, userId: string, take: number, before?: string): Promise<Notification[]> {
  const inbox = await ctx.inboxes.findOne({ _id: memberKey(userId) }, { projection: { ids: 1 } });
  const ids = [...(inbox?.ids ?? [])].sort().reverse();
  let from = before ? ids.findIndex((id) => id < before) : 0;
  if (from < 0) return [];
  const page: NotificationDoc[] = [];
  // Ids whose notification is gone (expired meanwhile) are skipped: read on until the page is full.
  while (page.length < take && from < ids.length) {
    const want = ids.slice(from, from + take - page.length);
    from += want.length;
    const docs = new Map((await byIds(ctx.notifications, want)).map((d) => [d._id, d]));
    for (const id of want) {
      const doc = docs.get(id);
      if (doc) page.push(doc);
    }
  }
  return page.map(answerOf);
}

export const countUnread = (ctx: Pick<NotificationContext, 'inboxes'>, userId: string) => unreadCount(ctx, userId);

/** Marks read (once: the update matches an unread one only), and schedules its deletion in READ_NOTIFICATION_DAYS. */
async function markRead(ctx: NotificationContext, userId: string, ids: string[]): Promise<void> {
  const at = now();
  const chunk = 500;
  for (let i = 0; i < ids.length; i += chunk) {
    const part = ids.slice(i, i + chunk);
    await ctx.notifications.updateMany({ _id: { $in: part }, userId, readAt: null }, { $set: { readAt: at } });
    await expireOn(ctx, addDays(utcDay(at), READ_NOTIFICATION_DAYS), userId, 'notifications', part);
    await ctx.inboxes.updateOne({ _id: userId }, { $pullAll: { unread: part } });
  }
  ctx.live.count(userId, await unreadCount(ctx, userId));
}

/** One of the member's own notifications read; false when they have no such notification. */
export async function readOne(ctx: NotificationContext, userId: string, id: string): Promise<boolean> {
  const me = memberKey(userId);
  if (ownerOf(id) !== me) return false;
  const doc = await ctx.notifications.findOne({ _id: id }, { projection: { readAt: 1 } });
  if (!doc) return false;
  if (!doc.readAt) await markRead(ctx, me, [id]);
  return true;
}

export async function readAll(ctx: NotificationContext, userId: string): Promise<void> {
  const me = memberKey(userId);
  const inbox: Pick<InboxDoc, 'unread'> | null = await ctx.inboxes.findOne({ _id: me }, { projection: { unread: 1 } });
  if (inbox?.unread?.length) await markRead(ctx, me, inbox.unread);
}

/**
 * A block (either way): the unread notifications one caused the other go, with their mails not yet
 * sent. A notification made from an event handled just before the block was known (trade cancels
 * their offers on the same block) is taken back this way too.
 */
export async function forgetBetween(ctx: NotificationContext, a: string, b: string): Promise<void> {
  for (const [userId, other] of [[memberKey(a), memberKey(b)], [memberKey(b), memberKey(a)]] as const) {
    const inbox = await ctx.inboxes.findOne({ _id: userId }, { projection: { unread: 1 } });
    if (!inbox?.unread?.length) continue;
    const docs = await byIds(ctx.notifications, inbox.unread, { cause: other });
    if (!docs.length) continue;
    const ids = docs.map((d) => d._id);
    await ctx.mails.deleteMany({ _id: { $in: ids }, mailOutboxPending: true });
    await removeNotifications(ctx, userId, ids);
    ctx.live.count(userId, await unreadCount(ctx, userId));
  }
}

/** Days back a deleted member's digest mails may still wait to be sent. */
const PENDING_DIGEST_DAYS = 8;

/** A deleted account: its notifications, inbox, preferences and queued mails go. Safe to repeat. */
export async function forgetMember(ctx: NotificationContext, userId: string): Promise<void> {
  const me = memberKey(userId);
  const inbox = await ctx.inboxes.findOne({ _id: me });
  const ids = [...new Set([...(inbox?.ids ?? []), ...(inbox?.unread ?? [])])];
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    await ctx.notifications.deleteMany({ _id: { $in: part } });
    await ctx.mails.deleteMany({ _id: { $in: part } });
  }
  // Digests are keyed by member and day: those of the last days, sent or not.
  const today = utcDay(now());
  await ctx.mails.deleteMany({ _id: { $in: Array.from({ length: PENDING_DIGEST_DAYS }, (_, i) => `digest:${me}:${addDays(today, 1 - i)}`) } });
  await ctx.inboxes.deleteOne({ _id: me });
  await ctx.preferences.deleteOne({ _id: me });
  await ctx.endings.deleteOne({ _id: me });
}
