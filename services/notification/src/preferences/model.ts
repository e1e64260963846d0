import { DEFAULT_MAIL_PREFERENCES, type MailPreference, type NotificationKind } from '@ruilplein/contracts';
import { byIds } from '@ruilplein/service-kit';
import type { NotificationContext } from '../context.ts';
import { memberKey } from '../notifications/keys.ts';

export type Preferences = Record<NotificationKind, MailPreference>;

/** Every kind: the member's choice, else the default. */
export const withDefaults = (kinds: Partial<Preferences> | undefined): Preferences => ({ ...DEFAULT_MAIL_PREFERENCES, ...kinds });

export async function preferencesOf(ctx: Pick<NotificationContext, 'preferences'>, userId: string): Promise<Preferences> {
  return withDefaults((await ctx.preferences.findOne({ _id: memberKey(userId) }))?.kinds);
}

/** Many members' preferences at once (the digest), by id. */
export async function preferencesOfMany(ctx: Pick<NotificationContext, 'preferences'>, userIds: string[]): Promise<Map<string, Preferences>> {
  const docs = await byIds(ctx.preferences, userIds);
  const found = new Map(docs.map((d) => [d._id, d.kinds]));
  return new Map(userIds.map((id) => [id, withDefaults(found.get(id))]));
}

/** Sets some kinds (one update of the member's document); answers every kind. */
export async function setPreferences(ctx: Pick<NotificationContext, 'preferences'>, userId: string, change: Partial<Preferences>): Promise<Preferences> {
  const set = Object.fromEntries(Object.entries(change).map(([kind, pref]) => [`kinds.${kind}`, pref]));
  if (Object.keys(set).length) await ctx.preferences.updateOne({ _id: memberKey(userId) }, { $set: set }, { upsert: true });
  return preferencesOf(ctx, userId);
}
