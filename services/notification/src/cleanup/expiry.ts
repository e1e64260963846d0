// Deleting what expires: read notifications READ_NOTIFICATION_DAYS after they were read, sent mails'
// documents a week after they were queued. Each is entered, when it is read or queued, into the
// shards of the day it expires (`expire:<day>:<shard>`); a pass reads the shards of the days up to
// today by `_id` and deletes by `$in`, so nothing scans the collections and no write touches a
// whole collection (docs/decisions.md "How do read notifications go after 90 days").
import { byIds, MAIL_PENDING, now, type Round } from '@ruilplein/service-kit';
import type { BucketDoc, NotificationContext } from '../context.ts';
import { addDays, ownerOf, shardIds, utcDay } from '../notifications/keys.ts';

/** Days back a pass looks: what a stopped service left behind is still found. */
const LOOK_BACK_DAYS = 14;

export interface ExpiryResult {
  notifications: number;
  mails: number;
}

export async function expireOld(ctx: Pick<NotificationContext, 'buckets' | 'notifications' | 'inboxes' | 'mails'>, round?: Round): Promise<ExpiryResult> {
  const result: ExpiryResult = { notifications: 0, mails: 0 };
  const today = utcDay(now());
  for (let back = LOOK_BACK_DAYS; back >= 0; back--) {
    const ids = shardIds(`expire:${addDays(today, -back)}`);
    for (let i = 0; i < ids.length; i += 500) {
      const buckets: BucketDoc[] = await byIds(ctx.buckets, ids.slice(i, i + 500));
      for (const bucket of buckets) {
        if (round?.stopped) return result;
        const notifications = bucket.notifications ?? [];
        for (let j = 0; j < notifications.length; j += 500) {
          const part = notifications.slice(j, j + 500);
          // Only read ones: the bucket was filled when they were read.
          result.notifications += (await ctx.notifications.deleteMany({ _id: { $in: part }, readAt: { $ne: null } })).deletedCount;
          const byMember = new Map<string, string[]>();
          for (const id of part) byMember.set(ownerOf(id), [...(byMember.get(ownerOf(id)) ?? []), id]);
          for (const [userId, gone] of byMember) await ctx.inboxes.updateOne({ _id: userId }, { $pullAll: { ids: gone } });
        }
        const mails = bucket.mails ?? [];
        for (let j = 0; j < mails.length; j += 500) {
          // A mail still waiting (the server away for days) stays until it is sent or parked.
          result.mails += (await ctx.mails.deleteMany({ _id: { $in: mails.slice(j, j + 500) }, mailOutboxPending: { $ne: MAIL_PENDING.mailOutboxPending } })).deletedCount;
        }
        await ctx.buckets.deleteOne({ _id: bucket._id });
        await round?.pace();
      }
    }
  }
  return result;
}
