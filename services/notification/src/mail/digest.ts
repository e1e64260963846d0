// The daily digest at 08:00 Dutch time: per member one mail listing the notifications they chose to
// get in the digest since the last one. Built for 100,000 members with 1,000,000 notifications: the
// day's ids wait in 256 shard documents (by member), and each shard is one batch: its
// notifications, preferences, names and addresses read by `$in` / one query per 500, its mails
// written with one bulk write. Nothing is read or written per notification.
import { DIGEST_HOUR } from '@ruilplein/contracts';
import { byIds, mailFields, now, type Round } from '@ruilplein/service-kit';
import type { mongo } from 'mongoose';
import type { BucketDoc, MailDoc, NotificationContext, NotificationDoc } from '../context.ts';

type AnyBulkWriteOperation<T extends mongo.BSON.Document> = mongo.AnyBulkWriteOperation<T>;
import { addDays, dutchDayAndHour, SHARD_NAMES, utcDay } from '../notifications/keys.ts';
import { expireOn, SENT_MAIL_DAYS } from '../notifications/store.ts';
import { preferencesOfMany } from '../preferences/model.ts';
import { digestMail } from './templates.ts';

/** Days back a run also looks, for buckets a missed run (the service down at 08:00) left. */
const CATCH_UP_DAYS = 7;
const IDS_PER_READ = 500;

export interface DigestResult {
  /** The Dutch day of the run (YYYY-MM-DD). */
  day: string;
  members: number;
  notifications: number;
  mails: number;
}

/** The digest day due now: today's, from 08:00 Dutch time; undefined before then. */
export function dueDigestDay(at: Date): string | undefined {
  const { day, hour } = dutchDayAndHour(at);
  return hour >= DIGEST_HOUR ? day : undefined;
}

const chunks = <T>(list: T[], size: number) => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

/** One shard: a mail per member with items, counted in `result`. Its mails are keyed `digest:<userId>:<day>`, so a repeat adds none. */
async function digestShard(ctx: NotificationContext, day: string, ids: string[], result: DigestResult): Promise<void> {
  const docs: NotificationDoc[] = [];
  for (const part of chunks([...new Set(ids)], IDS_PER_READ)) docs.push(...(await byIds(ctx.notifications, part)));
  const byMember = new Map<string, NotificationDoc[]>();
  for (const doc of docs) {
    const list = byMember.get(doc.userId) ?? [];
    list.push(doc);
    byMember.set(doc.userId, list);
  }
  const members = [...byMember.keys()];
  for (const batch of chunks(members, IDS_PER_READ)) {
    const [preferences, names, addresses] = await Promise.all([preferencesOfMany(ctx, batch), ctx.members.byIds(batch), ctx.contacts(batch)]);
    const at = now();
    const mails: AnyBulkWriteOperation<MailDoc>[] = [];
    for (const userId of batch) {
      const to = addresses.get(userId);
      const choice = preferences.get(userId);
      // A kind turned off since it was queued is left out.
      const items = (byMember.get(userId) ?? []).filter((n) => choice?.[n.kind] !== 'off').sort((a, b) => (a._id < b._id ? 1 : -1));
      const member = names.get(userId);
      if (!to || !items.length || member?.deleted) continue;
      result.members++;
      result.notifications += items.length;
      // The kit's mail outbox is `$setOnInsert` fields: one upsert per member, all in one bulk write.
      mails.push({ updateOne: { filter: { _id: `digest:${userId}:${day}` }, update: { $setOnInsert: { userId, at, ...mailFields(digestMail(ctx, to, userId, member?.firstName, items)) } }, upsert: true } });
    }
    if (!mails.length) continue;
    await ctx.mails.bulkWrite(mails, { ordered: false });
    // One shard of members: one shard of the expiry bucket.
    await expireOn(ctx, addDays(utcDay(at), SENT_MAIL_DAYS), batch[0]!, 'mails', mails.map((m) => ('updateOne' in m ? String(m.updateOne.filter._id) : '')));
    result.mails += mails.length;
  }
}

/**
 * The digest of `day`, with what the days before it left (a missed run, an id queued in the last
 * instant before a run had passed its shard): one mail per member. Exported for the benchmark
 * (`npm run bench:notify`), which calls it directly. A shard's ids of every day are mailed together
 * and only then taken out of their buckets; a crash in between writes the same mails again under
 * the same ids, which changes nothing.
 */
export async function runDigest(ctx: NotificationContext, day: string, round?: Round): Promise<DigestResult> {
  const result: DigestResult = { day, members: 0, notifications: 0, mails: 0 };
  const days = Array.from({ length: CATCH_UP_DAYS + 1 }, (_, i) => addDays(day, -i));
  // Every day of a group of shards in one read by `_id`.
  for (const group of chunks([...SHARD_NAMES], Math.floor(IDS_PER_READ / days.length))) {
    const buckets: BucketDoc[] = await byIds(
      ctx.buckets,
      group.flatMap((shard) => days.map((d) => `digest:${d}:${shard}`)),
    );
    for (const shard of group) {
      if (round?.stopped) return result;
      const mine = buckets.filter((b) => b._id.endsWith(`:${shard}`) && b.ids?.length);
      if (!mine.length) continue;
      await digestShard(ctx, day, mine.flatMap((b) => b.ids ?? []), result);
      for (const bucket of mine) {
        // Only what was mailed leaves: an id added meanwhile waits for the next run.
        await ctx.buckets.updateOne({ _id: bucket._id }, { $pullAll: { ids: bucket.ids ?? [] } });
        await ctx.buckets.deleteOne({ _id: bucket._id, ids: { $size: 0 } });
      }
      await round?.pace();
    }
  }
  if (result.mails) ctx.mail.kick();
  return result;
}
