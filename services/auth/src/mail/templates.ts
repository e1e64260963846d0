import type { Mail } from './mailer.ts';

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function mail(to: string, subject: string, greetingName: string, lines: string[], action: { label: string; url: string }, closing: string): Mail {
  const text = [`Hoi ${greetingName},`, '', ...lines, '', `${action.label}: ${action.url}`, '', closing, '', 'Groeten,', 'Ruilplein'].join('\n');
  const html = `<!doctype html><html lang="nl"><body style="font-family:system-ui,sans-serif;line-height:1.5">
<p>Hoi ${escapeHtml(greetingName)},</p>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(action.url)}" target="_top">${escapeHtml(action.label)}</a></p>
<p style="color:#555">Werkt de knop niet? Kopieer dan deze link: ${escapeHtml(action.url)}</p>
<p>${escapeHtml(closing)}</p>
<p>Groeten,<br>Ruilplein</p>
</body></html>`;
  return { to, subject, text, html };
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
