// Where the relay hands a mail: a real SMTP server, or local mode's outbox that every service of
// the platform writes to and /dev/mail shows.
import nodemailer from 'nodemailer';
import { z } from 'zod';
import { now } from '../clock.ts';
import { ConfigError } from '../config.ts';
import type { Connection } from '../mongo.ts';
import { checkMail, mailHeaders, type Mail } from './content.ts';

/** Variables of a service that sends mail (README "Environment"). */
export const mailConfigSchema = z.object({
  SMTP_URL: z.string().regex(/^smtps?:\/\/.+/, 'expected smtp://… or smtps://…').optional(),
  MAIL_FROM: z.string().min(3).default('Ruilplein <noreply@ruilplein.nl>'),
});
export type MailConfig = z.output<typeof mailConfigSchema>;

export interface MailTransport {
  /** For logs: `smtp` or `local`. */
  readonly kind: string;
  /** Hands one mail over; `id` is the outbox entry's, the same on every try. Throws when it was not taken. */
  send(id: string, mail: Mail): Promise<void>;
  close?(): void;
}

/**
 * A refusal that trying again will not change (an SMTP 5xx answer: no such mailbox, refused
 * content); the relay parks such a mail at once.
 */
export function isPermanentMailFailure(err: unknown): boolean {
  const code = (err as { responseCode?: unknown } | undefined)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** The domain of the sender's address, for Message-IDs (`Ruilplein <noreply@ruilplein.nl>` → ruilplein.nl). */
const domainOf = (from: string) => /@([^>\s]+)/.exec(from)?.[1] ?? 'ruilplein.nl';

/**
 * Real mail through an SMTP server (`smtp://user:pass@host:587`, `smtps://…`). The Message-ID comes
 * from the outbox entry, so a mail sent again after a crash carries the same one and mail systems
 * can tell it is a copy. Timeouts stay well below the relay's claim on an entry.
 */
export function smtpTransport(url: string, from: string): MailTransport {
  const transport = nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  const domain = domainOf(from);
  return {
    kind: 'smtp',
    async send(id, mail) {
      checkMail(mail);
      await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: `<${id}@${domain}>`,
        headers: mailHeaders(mail),
      });
    },
    close: () => transport.close(),
  };
}

/** Local mode's mail store: one database every service of the platform writes to, whatever its own. */
export const DEV_MAIL_DATABASE = 'devmail';
const DEV_MAIL_COLLECTION = 'mails';

/** A mail in the local outbox, as /dev/mail shows it. */
export interface DevMail {
  /** The outbox entry's id: a mail tried twice is kept once. */
  _id: string;
  /** The service that sent it. */
  service: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  sentAt: Date;
}

/** The local outbox's collection (tests name another database, so parallel runs keep apart). */
export const devMailCollection = (db: Connection, database = DEV_MAIL_DATABASE) =>
  db.useDb(database, { useCache: true }).collection<DevMail>(DEV_MAIL_COLLECTION);

/**
 * Local mode's stand-in for SMTP: the mail is kept (it survives restarts, every replica and every
 * service sees it) and shown at /dev/mail. Keyed by the entry's id, so it is delivered once.
 */
export function localMailTransport(db: Connection, service: string, options: { database?: string } = {}): MailTransport {
  const mails = devMailCollection(db, options.database);
  return {
    kind: 'local',
    async send(id, mail) {
      checkMail(mail);
      try {
        await mails.insertOne({ _id: id, service, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, headers: mailHeaders(mail), sentAt: now() });
      } catch (err) {
        // Kept already by an earlier try whose clearing was lost: that is delivery.
        if ((err as { code?: number }).code !== 11000) throw err;
      }
    },
  };
}

/**
 * SMTP when `SMTP_URL` is set; otherwise, in local mode only, the local outbox. Outside local mode a
 * service that sends mail does not start without a mail server.
 */
export function mailTransportFor(options: { config: MailConfig; local: boolean; db: Connection; service: string }): MailTransport {
  const { config } = options;
  if (config.SMTP_URL) return smtpTransport(config.SMTP_URL, config.MAIL_FROM);
  if (options.local) return localMailTransport(options.db, options.service);
  throw new ConfigError('config: SMTP_URL is missing (required unless RUILPLEIN_MODE=local)');
}
