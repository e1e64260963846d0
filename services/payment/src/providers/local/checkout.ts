import { formatEuros, PAYMENT_MESSAGES } from '@ruilplein/contracts';
import { notFound, type HandlerPart } from '@ruilplein/service-kit';
import type { LocalProvider } from './provider.ts';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const OUTCOMES = [
  ['paid', 'Betaald'],
  ['failed', 'Mislukt'],
  ['canceled', 'Geannuleerd'],
  ['expired', 'Verlopen'],
] as const;

/** A plain page: no script (the site's CSP allows none inline) and no inline style; buttons in one form. */
function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="nl">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)} | Ruilplein testbetaling</title></head>
<body>
<main>
<h1>${escape(title)}</h1>
${body}
</main>
</body>
</html>`;
}

/**
 * The local checkout's hosted page (Mollie's test mode): the payment's description and amount, and a
 * button per outcome. Choosing one settles the payment (once), calls the webhook, and sends the
 * member back to the redirect URL.
 */
export function checkoutHandlers(provider: LocalProvider | undefined) {
  return {
    payment: {
      checkoutPage: async ({ params, res }) => {
        const doc = provider && (await provider.store.payments.findOne({ _id: params.id }));
        if (!provider || !doc) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
        const current = await provider.getPayment(params.id); // an open payment past its time is expired now
        const open = current?.status === 'open';
        const back = doc.redirectUrl ? `<p><a href="${escape(doc.redirectUrl)}">Terug naar Ruilplein</a></p>` : '';
        const html = open
          ? page(
              'Testbetaling',
              `<p>${escape(doc.description)}: <strong>${escape(formatEuros(doc.amountCents))}</strong></p>
    <p>Dit is de betaalpagina van de lokale testomgeving: er wordt geen geld afgeschreven. Kies hoe de betaling afloopt.</p>
    <form method="post" action="/api/payment/checkout/${escape(doc._id)}">
    ${OUTCOMES.map(([value, label]) => `<button type="submit" name="outcome" value="${value}">${label}</button>`).join('\n')}
    </form>`,
            )
          : page('Betaling afgerond', `<p>${escape(PAYMENT_MESSAGES.checkoutClosed)}</p>${back}`);
        res.status(200).type('html').setHeader('cache-control', 'no-store');
        res.send(html);
        return undefined as never;
      },
      checkoutOutcome: async ({ params, body, res }) => {
        const doc = provider && (await provider.store.payments.findOne({ _id: params.id }));
        if (!provider || !doc) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
        await provider.settle(doc._id, body.outcome);
        // A 303 with a page of its own (HTML, as declared) for a browser that does not follow it.
        const back = doc.redirectUrl ?? '/';
        res.status(303).location(back).type('html').setHeader('cache-control', 'no-store');
        res.send(page('Terug naar Ruilplein', `<p><a href="${escape(back)}">Terug naar Ruilplein</a></p>`));
        return undefined as never;
      },
    },
  } satisfies HandlerPart<'payment'>;
}
