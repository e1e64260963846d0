// The ids the store is read by: FerretDB indexes only `_id`, so every key says what it is for.
import { DIGEST_HOUR, DIGEST_TIME_ZONE } from '@ruilplein/contracts';

/** Shards per day bucket: a day's ids spread over this many documents (see BucketDoc). */
export const SHARDS = 256;
/** Every shard's name, '000' to '255'. */
export const SHARD_NAMES: readonly string[] = Array.from({ length: SHARDS }, (_, i) => String(i).padStart(3, '0'));

/** Milliseconds in base 36, 9 digits: sorts as text in time order until the year 5188. */
const time36 = (at: Date) => at.getTime().toString(36).padStart(9, '0');

/** auth's ids are lowercase hex; kept under that spelling everywhere. */
export const memberKey = (userId: string) => userId.toLowerCase();

/**
 * `<userId>:<time>:<source>`: a member's notifications sort by time as text, and the same event
 * (same time, same source) always makes the same id.
 */
export const notificationId = (userId: string, at: Date, source: string) => `${memberKey(userId)}:${time36(at)}:${source}`;

/** The member a notification id belongs to. */
export const ownerOf = (id: string) => id.slice(0, id.indexOf(':'));

/** The bucket shard of a member: their ids of a day stay in one document. */
export function shardOf(userId: string): string {
  let h = 0x811c9dc5;
  for (const c of memberKey(userId)) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return SHARD_NAMES[h % SHARDS]!;
}

/** Every shard's `_id` of one bucket (`expire:<day>`). */
export const shardIds = (prefix: string) => SHARD_NAMES.map((shard) => `${prefix}:${shard}`);

const dutch = new Intl.DateTimeFormat('en-CA', { timeZone: DIGEST_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hourCycle: 'h23' });

/** The Dutch calendar day (YYYY-MM-DD) and hour of a moment. */
export function dutchDayAndHour(at: Date): { day: string; hour: number } {
  const parts = Object.fromEntries(dutch.formatToParts(at).map((p) => [p.type, p.value]));
  return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
}

/** The calendar day `days` after `day` (YYYY-MM-DD). */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The digest a notification made now goes in: today's 08:00 (Dutch time) when that is still to come, else tomorrow's. */
export function digestDayOf(at: Date): string {
  const { day, hour } = dutchDayAndHour(at);
  return hour < DIGEST_HOUR ? day : addDays(day, 1);
}

/** The UTC calendar day of a moment (expiry buckets). */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);
