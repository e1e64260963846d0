// The notification mails, in Dutch: one notification at once, or the daily digest of several. Never
// transactional: each carries one-click unsubscribe (the kit's mail adds the headers).
import { NOTIFICATION_KINDS, NOTIFICATIONS_PAGE } from '@ruilplein/contracts';
import { html, type Mail } from '@ruilplein/service-kit';
import type { NotificationDoc } from '../context.ts';
import { unsubscribeToken, type UnsubscribeScope } from './tokens.ts';

export interface MailSite {
  publicUrl: string;
  unsubscribeKey: string;
}

const unsubscribeUrl = (site: MailSite, userId: string, scope: UnsubscribeScope) =>
  `${site.publicUrl}/api/notification/unsubscribe?token=${encodeURIComponent(unsubscribeToken(site.unsubscribeKey, userId, scope))}`;

const footer = (site: MailSite, unsubscribe: string, what: string) => ({
  text: `\n\nJe krijgt deze e-mail omdat je ${what} aan hebt staan. Afmelden: ${unsubscribe}\nInstellingen: ${site.publicUrl}${NOTIFICATIONS_PAGE}`,
  html: html`<p style="color:#666;font-size:12px">Je krijgt deze e-mail omdat je ${what} aan hebt staan. <a href="${unsubscribe}">Afmelden</a> · <a href="${site.publicUrl}${NOTIFICATIONS_PAGE}">Instellingen</a></p>`,
});

/** One notification by mail, at once. */
export function directMail(site: MailSite, to: string, n: Pick<NotificationDoc, 'userId' | 'kind' | 'title' | 'body' | 'link'>): Mail {
  const unsubscribe = unsubscribeUrl(site, n.userId, n.kind);
  const link = `${site.publicUrl}${n.link}`;
  const what = `e-mail over "${NOTIFICATION_KINDS[n.kind].label}"`;
  const foot = footer(site, unsubscribe, what);
  return {
    to,
    subject: n.title,
    text: `${n.title}\n\n${n.body}\n\nBekijk het op Ruilplein: ${link}${foot.text}`,
    html: html`<h1 style="font-size:18px">${n.title}</h1><p>${n.body}</p><p><a href="${link}">Bekijk het op Ruilplein</a></p>${foot.html}`.value,
    transactional: false,
    unsubscribeUrl: unsubscribe,
  };
}

/** The daily digest: every notification of the member since the last one, newest first. */
export function digestMail(site: MailSite, to: string, userId: string, firstName: string | undefined, items: Pick<NotificationDoc, 'title' | 'body' | 'link'>[]): Mail {
  const unsubscribe = unsubscribeUrl(site, userId, 'digest');
  const foot = footer(site, unsubscribe, 'het dagelijkse overzicht');
  const greeting = firstName ? `Hoi ${firstName},` : 'Hoi,';
  const intro = items.length === 1 ? 'Er is 1 nieuwe melding voor je op Ruilplein.' : `Er zijn ${items.length} nieuwe meldingen voor je op Ruilplein.`;
  return {
    to,
    subject: items.length === 1 ? 'Je dagelijkse overzicht: 1 melding' : `Je dagelijkse overzicht: ${items.length} meldingen`,
    text: `${greeting}\n\n${intro}\n\n${items.map((n) => `- ${n.title}\n  ${n.body}\n  ${site.publicUrl}${n.link}`).join('\n\n')}${foot.text}`,
    html: html`<p>${greeting}</p><p>${intro}</p><ul>${items.map((n) => html`<li><a href="${site.publicUrl}${n.link}">${n.title}</a><br>${n.body}</li>`)}</ul>${foot.html}`.value,
    transactional: false,
    unsubscribeUrl: unsubscribe,
  };
}
