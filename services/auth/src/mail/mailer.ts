import { isLoopback, MESSAGES, type Connection, type Logger } from '@ruilplein/service-kit';
import type { Router } from 'express';
import nodemailer from 'nodemailer';
import { escapeHtml } from './templates.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** Real mail through an SMTP server (`smtp://user:pass@host:587`, `smtps://…`). */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
  };
}

interface StoredMail extends Mail {
  sentAt: Date;
}

const OUTBOX = 'dev_mail';

/**
 * Local mode's stand-in for SMTP: every mail is kept in the service's database (so it survives a
 * restart and every replica sees it) and shown at /dev/mail.
 */
export function devOutboxMailer(db: Connection): Mailer {
  return {
    async send(mail) {
      await db.collection<StoredMail>(OUTBOX).insertOne({ ...mail, sentAt: new Date() });
    },
  };
}

/** /dev/mail (a page) and /dev/mail/messages.json (the same list): newest first. Local mode only. */
export function devMailRoutes(router: Router, db: Connection, logger: Logger) {
  const latest = async () => {
    const docs = await db.collection<StoredMail>(OUTBOX).find({}, { projection: { _id: 0 } }).sort({ sentAt: -1 }).limit(200).toArray();
    return docs.map((m) => ({ to: m.to, subject: m.subject, text: m.text, html: m.html, sentAt: m.sentAt.toISOString() }));
  };
  // Every member's links are in here: only for this machine, by the connection's own address (not a header).
  router.use('/dev/mail', (req, res, next) => (isLoopback(req.socket.remoteAddress) ? next() : void res.status(404).json({ message: MESSAGES.notFound })));
  router.get('/dev/mail/messages.json', async (_req, res) => {
    res.setHeader('cache-control', 'no-store');
    res.json(await latest());
  });
  router.get('/dev/mail', async (_req, res) => {
    const mails = await latest();
    // Each mail in a sandboxed frame: its html is shown as a mail client would, links open on top.
    const items = mails
      .map(
        (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">Aan <strong>${escapeHtml(m.to)}</strong> · ${escapeHtml(new Date(m.sentAt).toLocaleString('nl-NL', { timeZone: 'Europe/Amsterdam' }))}</p>
  <iframe title="${escapeHtml(m.subject)}" sandbox="allow-top-navigation-by-user-activation allow-popups" srcdoc="${escapeHtml(m.html)}"></iframe>
</article>`,
      )
      .join('\n');
    res.setHeader('cache-control', 'no-store');
    res.type('html').send(`<!doctype html>
<html lang="nl"><head><meta charset="utf-8"><title>Ruilplein: verstuurde e-mails (lokaal)</title>
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}article{border:1px solid #ccc;border-radius:8px;padding:1rem;margin:1rem 0}iframe{width:100%;height:16rem;border:0}.meta{color:#555}</style>
</head><body>
<h1>Verstuurde e-mails</h1>
<p>Lokale modus: e-mails worden hier bewaard in plaats van verstuurd. Nieuwste bovenaan.</p>
${items || '<p>Nog geen e-mails.</p>'}
</body></html>`);
  });
  logger.info('local mode: mails are kept and shown at /dev/mail');
}
