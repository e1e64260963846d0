// The member's mails about Premium (issue 27): a receipt after each paid payment (the first and
// every renewal) and a confirmation after cancelling. A change that calls for a mail notes it in
// the membership document, in the same conditional update as the change and its event
// (`mailsDue`, lifecycle.ts); this module turns each note into a mail in the document's mail
// outbox once auth has said where to send it (auth's events never carry addresses:
// `rpc.auth.member.contacts`), and the kit's relay sends it. So the payment never waits for auth
// or the mail server, and a note survives a restart: the sweep composes what a kick missed.
import { CONTACTS_PER_QUERY, formatEuros, PAYMENT_MESSAGES, PREMIUM_PRICE_CENTS, premiumAfterCancel } from '@ruilplein/contracts';
import { html, mailFields, type Mail } from '@ruilplein/service-kit';
import type { DueMail, PaymentContext } from '../context.ts';

/** The events a member is mailed about. */
export const MAILED_EVENTS = ['payment.subscription.activated', 'payment.subscription.renewed', 'payment.subscription.cancelled'] as const;
export type MailedEvent = (typeof MAILED_EVENTS)[number];
export const isMailed = (event: string | undefined): event is MailedEvent => (MAILED_EVENTS as readonly string[]).includes(event ?? '');

/** How many documents one pass composes mails for (one contacts question). */
const BATCH = Math.min(100, CONTACTS_PER_QUERY);

const dutchDate = new Intl.DateTimeFormat('nl-NL', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Amsterdam' });
const dutchDateTime = new Intl.DateTimeFormat('nl-NL', { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Amsterdam' });
const dateOf = (at: Date | string | null | undefined) => (at ? dutchDate.format(new Date(at)) : 'onbekend');

/** The mail for one note: both parts say the same; every mail here is about the member's own account (transactional). */
export function membershipMail(publicUrl: string, to: string, userId: string, due: DueMail): Mail {
  const membership = `${publicUrl}/dashboard/membership`;
  const until = dateOf(due.paidUntil);
  if (due.event === 'payment.subscription.cancelled') {
    const lines = [PAYMENT_MESSAGES.cancelled, premiumAfterCancel(until)];
    return {
      to,
      subject: 'Je Premium-abonnement is opgezegd',
      text: ['Hallo,', '', ...lines, '', `Je lidmaatschap bekijken: ${membership}`, '', 'Groeten van Ruilplein'].join('\n'),
      html: html`<p>Hallo,</p>${lines.map((line) => html`<p>${line}</p>`)}<p><a href="${membership}">Bekijk je lidmaatschap</a></p><p>Groeten van Ruilplein</p>`.value,
      transactional: true,
    };
  }
  const renewal = due.event === 'payment.subscription.renewed';
  const amount = formatEuros(PREMIUM_PRICE_CENTS);
  const receipt: [string, string][] = [
    ['Omschrijving', renewal ? 'Ruilplein Premium, verlenging (1 maand)' : 'Ruilplein Premium, eerste maand'],
    ['Bedrag', `${amount} (incl. btw)`],
    ['Betaald op', dutchDateTime.format(new Date(due.at))],
    ['Premium tot', until],
    ['Kenmerk', `RP-${userId.slice(-8)}-${due.version}`],
  ];
  const intro = renewal
    ? `Je Premium is verlengd. Bedankt voor je betaling van ${amount}.`
    : `Welkom bij Premium! Bedankt voor je betaling van ${amount}.`;
  const outro = 'Je abonnement wordt elke maand automatisch verlengd. Opzeggen kan altijd via je lidmaatschap; je houdt Premium dan tot het einde van de betaalde periode.';
  return {
    to,
    subject: renewal ? 'Betaalbewijs: verlenging Ruilplein Premium' : 'Betaalbewijs: Ruilplein Premium',
    text: ['Hallo,', '', intro, '', ...receipt.map(([k, v]) => `${k}: ${v}`), '', outro, `Je lidmaatschap: ${membership}`, '', 'Groeten van Ruilplein'].join('\n'),
    html: html`<p>Hallo,</p><p>${intro}</p><table>${receipt.map(([k, v]) => html`<tr><th align="left">${k}</th><td>${v}</td></tr>`)}</table><p>${outro}</p><p><a href="${membership}">Bekijk je lidmaatschap</a></p><p>Groeten van Ruilplein</p>`.value,
    transactional: true,
  };
}

/**
 * Turns the noted mails (of one member, or of everyone with any) into outbox mails: each note is
 * removed in the same update that queues its mail, on the condition that it is still there, so two
 * passes never mail twice. A member auth has no address for (deleted) gets none; the note goes.
 * Answers how many mails were queued.
 */
export async function composeDueMails(ctx: PaymentContext, userId?: string): Promise<number> {
  const docs = await ctx.memberships.find(userId ? { _id: userId, mailsDuePending: true } : { mailsDuePending: true }).limit(BATCH).toArray();
  if (docs.length === 0) return 0;
  const addresses = await ctx.contacts(docs.map((doc) => doc._id));
  let queued = 0;
  for (const doc of docs) {
    const to = addresses.get(doc._id);
    for (const [key, due] of Object.entries(doc.mailsDue ?? {})) {
      const note = `mailsDue.${key}`;
      const done = await ctx.memberships.updateOne(
        { _id: doc._id, [note]: { $exists: true } },
        { $unset: { [note]: '' }, ...(to && { $set: mailFields(membershipMail(ctx.publicUrl, to, doc._id, due)) }) },
      );
      if (done.modifiedCount === 1 && to) queued++;
      else if (!to) ctx.logger.warn({ userId: doc._id, event: due.event }, 'no address for a Premium mail: not sent');
    }
    // No change since it was read: no note came in after these.
    await ctx.memberships.updateOne({ _id: doc._id, version: doc.version }, { $unset: { mailsDuePending: '' } });
    if (to) ctx.mail.kick(ctx.memberships.collectionName, doc._id);
  }
  return queued;
}
