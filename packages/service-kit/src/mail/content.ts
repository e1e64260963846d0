// What a mail is, before any transport: both parts, and the headers that follow from its kind.

/** A mail's addressee and content: a text part and an HTML part saying the same. */
export interface MailContent {
  to: string;
  subject: string;
  text: string;
  /** Build it with the `html` template tag: every interpolated value is escaped. */
  html: string;
}

/**
 * Transactional mail (activation, password reset, notices about the member's own account) goes
 * out whatever the member chose; any other mail must be one click away from stopping (RFC 8058),
 * so it cannot be queued without the caller's unsubscribe URL.
 */
export type Mail = MailContent & ({ transactional: true } | { transactional: false; unsubscribeUrl: string });

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** HTML that is already safe: made by the `html` tag. */
export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

type HtmlValue = SafeHtml | string | number | readonly HtmlValue[];

const render = (value: HtmlValue): string =>
  value instanceof SafeHtml ? value.value : Array.isArray(value) ? value.map(render).join('') : escapeHtml(String(value));

/**
 * Template tag for mail HTML: interpolated strings and numbers are escaped, nested `html`
 * fragments (and arrays of them) are kept, so a member's name can never become markup.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  return new SafeHtml(strings.reduce((out, part, i) => out + part + (i < values.length ? render(values[i]!) : ''), ''));
}

/** Refuses a mail no transport should carry (a programming error, thrown where it is queued). */
export function checkMail(mail: Mail): void {
  for (const field of ['to', 'subject', 'text', 'html'] as const) {
    if (typeof mail[field] !== 'string' || mail[field] === '') throw new Error(`mail: ${field} is empty`);
  }
  // A header line break would let a value add headers of its own.
  if (/[\r\n]/.test(mail.to) || /[\r\n]/.test(mail.subject)) throw new Error('mail: a line break in to or subject');
  if (!mail.transactional) {
    let url: URL | undefined;
    try {
      url = new URL(mail.unsubscribeUrl);
    } catch {
      url = undefined;
    }
    if (!url || !['https:', 'http:'].includes(url.protocol) || /[\s<>]/.test(mail.unsubscribeUrl)) {
      throw new Error('mail: a mail that is not transactional needs an http(s) unsubscribeUrl');
    }
  }
}

/**
 * The headers a mail's kind adds: for mail that is not transactional, one-click unsubscribe
 * (RFC 8058: the URL in `List-Unsubscribe`, and `List-Unsubscribe-Post` telling the mail client
 * it may POST to it without a page in between). Transactional mail has none.
 */
export function mailHeaders(mail: Mail): Record<string, string> {
  if (mail.transactional) return {};
  return { 'List-Unsubscribe': `<${mail.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}
