// The mails auth sends, in Dutch. All are transactional: they answer the member's own request.
import { html, type Mail } from '@ruilplein/service-kit';

function mail(to: string, subject: string, greetingName: string, lines: string[], action: { label: string; url: string }, closing: string): Mail {
  const text = [`Hoi ${greetingName},`, '', ...lines, '', `${action.label}: ${action.url}`, '', closing, '', 'Groeten,', 'Ruilplein'].join('\n');
  const body = html`<!doctype html><html lang="nl"><body style="font-family:system-ui,sans-serif;line-height:1.5">
<p>Hoi ${greetingName},</p>
${lines.map((l) => html`<p>${l}</p>\n`)}<p><a href="${action.url}" target="_top">${action.label}</a></p>
<p style="color:#555">Werkt de knop niet? Kopieer dan deze link: ${action.url}</p>
<p>${closing}</p>
<p>Groeten,<br>Ruilplein</p>
</body></html>`;
  return { to, subject, text, html: body.value, transactional: true };
}

export function activationMail(to: string, firstName: string, url: string, validHours: number): Mail {
  return mail(
    to,
    'Activeer je Ruilplein-account',
    firstName,
    ['Welkom bij Ruilplein! Bevestig je e-mailadres om je account te activeren.', `De link is ${validHours} uur geldig en werkt één keer.`],
    { label: 'Account activeren', url },
    'Heb jij je niet aangemeld? Dan kun je deze e-mail negeren.',
  );
}

export function resetMail(to: string, firstName: string, url: string, validMinutes: number): Mail {
  return mail(
    to,
    'Stel een nieuw wachtwoord in voor Ruilplein',
    firstName,
    ['Je hebt gevraagd om je wachtwoord te wijzigen.', `De link is ${validMinutes} minuten geldig en werkt één keer. Na het wijzigen word je overal uitgelogd.`],
    { label: 'Nieuw wachtwoord instellen', url },
    'Heb jij dit niet gevraagd? Dan kun je deze e-mail negeren; je wachtwoord blijft hetzelfde.',
  );
}
