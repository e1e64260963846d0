// Local mode's mail viewer: every mail any service of the platform sent through the local outbox.
import type { Router } from 'express';
import { isLoopback } from '../client.ts';
import { MESSAGES } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Connection } from '../mongo.ts';
import { escapeHtml } from './content.ts';
import { devMailCollection, type DevMail } from './transports.ts';

/** One mail as /dev/mail/messages.json lists it: the stored one without its id, the time as text. */
export type ListedDevMail = Omit<DevMail, '_id' | 'sentAt'> & { sentAt: string };

/**
 * /dev/mail (a page) and /dev/mail/messages.json (the same list; `?to=<address>` keeps one
 * addressee's): the newest 200, newest first, from every service. Local mode only, and only for
 * clients on this machine.
 */
export function devMailRoutes(router: Router, db: Connection, logger: Logger, options: { database?: string } = {}): void {
  const mails = devMailCollection(db, options.database);
  const latest = async (to?: string): Promise<ListedDevMail[]> => {
    const docs = await mails.find(to === undefined ? {} : { to }).sort({ sentAt: -1 }).limit(200).toArray();
    return docs.map((m) => ({ service: m.service, to: m.to, subject: m.subject, text: m.text, html: m.html, headers: m.headers ?? {}, sentAt: m.sentAt.toISOString() }));
  };
  // Every member's links are in here: only for this machine, by the connection's own address (not a header).
  router.use('/dev/mail', (req, res, next) => (isLoopback(req.socket.remoteAddress) ? next() : void res.status(404).json({ message: MESSAGES.notFound })));
  router.get('/dev/mail/messages.json', async (req, res) => {
    res.setHeader('cache-control', 'no-store');
    res.json(await latest(typeof req.query.to === 'string' ? req.query.to : undefined));
  });
  router.get('/dev/mail', async (_req, res) => {
    const list = await latest();
    // Each mail in a sandboxed frame: its html is shown as a mail client would, links open on top.
    const items = list
      .map(
        (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">Van <strong>${escapeHtml(m.service)}</strong> aan <strong>${escapeHtml(m.to)}</strong> · ${escapeHtml(new Date(m.sentAt).toLocaleString('nl-NL', { timeZone: 'Europe/Amsterdam' }))}</p>
  ${Object.entries(m.headers)
    .map(([name, value]) => `<p class="meta"><code>${escapeHtml(name)}: ${escapeHtml(value)}</code></p>`)
    .join('\n  ')}
  <iframe title="${escapeHtml(m.subject)}" sandbox="allow-top-navigation-by-user-activation allow-popups" srcdoc="${escapeHtml(m.html)}"></iframe>
  <details><summary>Tekstversie</summary><pre>${escapeHtml(m.text)}</pre></details>
</article>`,
      )
      .join('\n');
    res.setHeader('cache-control', 'no-store');
    res.type('html').send(`<!doctype html>
<html lang="nl"><head><meta charset="utf-8"><title>Ruilplein: verstuurde e-mails (lokaal)</title>
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}article{border:1px solid #ccc;border-radius:8px;padding:1rem;margin:1rem 0}iframe{width:100%;height:16rem;border:0}.meta{color:#555}pre{white-space:pre-wrap}</style>
</head><body>
<h1>Verstuurde e-mails</h1>
<p>Lokale modus: e-mails van alle diensten worden hier bewaard in plaats van verstuurd. Nieuwste bovenaan.</p>
${items || '<p>Nog geen e-mails.</p>'}
</body></html>`);
  });
  logger.info('local mode: mails of every service are kept and shown at /dev/mail');
}
