// Unsubscribe links that need no login (RFC 8058): the member and what to turn off, signed with
// HMAC-SHA256 under NOTIFICATION_UNSUBSCRIBE_KEY. No expiry: a link in an old mail still works.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { NOTIFICATION_KIND_NAMES, type NotificationKind } from '@ruilplein/contracts';

/** A kind, or `digest`: every kind the member gets in the daily digest (the digest mail's link). */
export type UnsubscribeScope = NotificationKind | 'digest';

const sign = (key: string, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

/** `<base64url(userId:scope)>.<signature>`. */
export function unsubscribeToken(key: string, userId: string, scope: UnsubscribeScope): string {
  const payload = Buffer.from(`${userId}:${scope}`).toString('base64url');
  return `${payload}.${sign(key, payload)}`;
}

/** The member and scope of a token, or undefined when it is not one of ours (tampered, cut off). */
export function readUnsubscribeToken(key: string, token: string): { userId: string; scope: UnsubscribeScope } | undefined {
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length) return undefined;
  const expected = Buffer.from(sign(key, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  const [userId, scope, ...more] = Buffer.from(payload, 'base64url').toString('utf8').split(':');
  if (!userId || !/^[0-9a-f]{24}$/.test(userId) || more.length) return undefined;
  if (scope !== 'digest' && !(NOTIFICATION_KIND_NAMES as string[]).includes(scope ?? '')) return undefined;
  return { userId, scope: scope as UnsubscribeScope };
}
