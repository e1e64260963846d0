import { NOTIFICATION_KINDS, NOTIFICATION_MESSAGES } from '@ruilplein/contracts';
import { badRequest, escapeHtml, type HandlerPart } from '@ruilplein/service-kit';
import type { Response } from 'express';
import type { NotificationContext } from '../context.ts';
import { readUnsubscribeToken, type UnsubscribeScope } from '../mail/tokens.ts';
import { preferencesOf, setPreferences, type Preferences } from './model.ts';

const page = (res: Response, title: string, content: string) => {
  res.status(200).type('html').setHeader('cache-control', 'no-store');
  res.send(`<!doctype html>
<html lang="nl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} | Ruilplein</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}button{font-size:1rem;padding:.6rem 1.2rem}</style>
</head><body><h1>${escapeHtml(title)}</h1>${content}</body></html>`);
  return '';
};

const whatOf = (scope: UnsubscribeScope) => (scope === 'digest' ? 'het dagelijkse overzicht' : `e-mail over "${NOTIFICATION_KINDS[scope].label}"`);

export function preferenceHandlers(ctx: NotificationContext) {
  const checked = (token: string) => {
    const read = readUnsubscribeToken(ctx.unsubscribeKey, token);
    if (!read) throw badRequest(NOTIFICATION_MESSAGES.invalidToken);
    return read;
  };
  return {
    notification: {
      preferences: ({ principal }) => preferencesOf(ctx, principal.userId),
      setPreferences: ({ principal, body }) => setPreferences(ctx, principal.userId, body as Partial<Preferences>),
      unsubscribePage: ({ query, res }) => {
        const { scope } = checked(query.token);
        const action = `/api/notification/unsubscribe?token=${encodeURIComponent(query.token)}`;
        return page(
          res,
          'Afmelden',
          `<p>Wil je geen ${escapeHtml(whatOf(scope))} meer ontvangen?</p><form method="post" action="${escapeHtml(action)}"><button type="submit">Afmelden</button></form><p>In de app zie je je meldingen gewoon nog.</p>`,
        );
      },
      unsubscribe: async ({ query, res }) => {
        const { userId, scope } = checked(query.token);
        // A gone account has nothing left to turn off (and gets no mail): the same answer, nothing kept.
        if ((await ctx.members.byId(userId))?.deleted) return page(res, 'Afgemeld', `<p>${escapeHtml(NOTIFICATION_MESSAGES.unsubscribed)}</p>`);
        const current = await preferencesOf(ctx, userId);
        // The digest's link: every kind that went in the digest.
        const kinds = scope === 'digest' ? (Object.keys(current) as (keyof Preferences)[]).filter((k) => current[k] === 'digest') : [scope];
        await setPreferences(ctx, userId, Object.fromEntries(kinds.map((k) => [k, 'off'])));
        return page(res, 'Afgemeld', `<p>${escapeHtml(NOTIFICATION_MESSAGES.unsubscribed)}</p><p>Je kunt dit altijd weer aanzetten bij je meldingen op Ruilplein.</p>`);
      },
    },
  } satisfies HandlerPart<'notification'>;
}
