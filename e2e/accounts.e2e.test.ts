// Accounts in Chromium against the whole platform: registration, activation by mail, login, the
// dashboard, the own profile, password reset, logout and the suspension screen /geblokkeerd (spec 1).
import { mkdir } from 'node:fs/promises';
import { MongoClient } from 'mongodb';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_EMAIL, DEMO_PASSWORD } from '@ruilplein/contracts/demo';
import { explainFailure, launchBrowser, openPage } from './browser.ts';
import { linkIn, logInWithForm, mailsTo, newestMailTo, newMember, registerMember, type Member } from './members.ts';
import { get, platform } from './platform.ts';

let browser: Browser;
let context: BrowserContext;
let page: Page;
let mongo: MongoClient;

beforeAll(async () => {
  browser = await launchBrowser();
  mongo = await MongoClient.connect(platform().mongoUrl);
});
afterAll(async () => {
  await browser?.close();
  await mongo?.close();
});
// Each test in a fresh context; the last one stays open until a failed test has been explained.
beforeEach(async (test) => {
  await context?.close();
  ({ context, page } = await openPage(browser));
  explainFailure(test, () => page);
});

// A 1×1 PNG: the auth service re-encodes whatever it is sent, so size does not matter.
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

const header = () => page.getByRole('banner');
const footer = () => page.getByRole('contentinfo');
const storedToken = () => page.evaluate(() => localStorage.getItem('ruilplein.token'));

/** Sets a member's suspension in the auth service's own store (moderation's events do it on the platform). */
async function suspend(email: string, value: { reason: 'ban' | 'warnings'; endsAt?: Date }) {
  const done = await mongo.db('auth').collection('users').updateOne({ email }, { $set: { suspension: value } });
  expect(done.matchedCount, `user ${email} in auth.users`).toBe(1);
}

async function fillRegistration(member: Member) {
  await page.getByLabel('Voornaam').fill(member.firstName);
  await page.getByLabel('Achternaam').fill(member.lastName);
  await page.getByLabel('E-mailadres').fill(member.email);
  await page.getByLabel('Wachtwoord', { exact: true }).fill(member.password);
  await page.getByLabel('Bevestig wachtwoord').fill(member.password);
}

/** Types into a place search and picks the suggestion that starts with `name`. */
async function choosePlace(label: string, typed: string, name: string) {
  const field = page.getByRole('combobox', { name: label });
  await field.fill(typed);
  await page.getByRole('option', { name: new RegExp(`^${name}\\b`) }).first().click();
  expect(await field.inputValue()).toBe(name);
}

describe('accounts in the browser', () => {
  it('sign-in screens render without the public header and footer; /verify-email with them', async () => {
    for (const path of ['/login', '/register', '/reset-password', '/change-password']) {
      await page.goto(path);
      await page.locator('h1').first().waitFor();
      expect(await header().count(), `${path}: header`).toBe(0);
      expect(await footer().count(), `${path}: footer`).toBe(0);
    }
    // The looping animation on login and registration: old (1200 ms), turning (1200 ms), new (800 ms).
    await page.goto('/login');
    const art = page.getByTestId('swap-animation');
    await expect.poll(() => art.getAttribute('data-phase'), { timeout: 3000 }).toBe('turning');
    await expect.poll(() => art.getAttribute('data-phase'), { timeout: 3000 }).toBe('new');

    // Without a reason in the navigation state /geblokkeerd goes to /login.
    await page.goto('/geblokkeerd');
    await page.waitForURL('**/login');

    await page.goto('/verify-email');
    await page.getByText('Geen e-mailadres opgegeven in de link.').waitFor();
    await header().waitFor();
    await footer().waitFor();
    await page.goto('/verify-email?token=nietsgeldigs');
    await page.getByText('Verificatie mislukt. Misschien is deze link al gebruikt of ongeldig.').waitFor();
  });

  it('the animation stands still for visitors who ask for reduced motion', async () => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/register');
    const art = page.getByTestId('swap-animation');
    expect(await art.getAttribute('data-phase')).toBe('new');
    await page.waitForTimeout(1500);
    expect(await art.getAttribute('data-phase')).toBe('new');
  });

  it('register → mail → activate → login → dashboard → profile with city and picture → map → logout', async () => {
    const member = newMember('Femke');
    await page.goto('/register');

    // Invalid submit: the general message and each field's own.
    await page.getByRole('button', { name: 'Registreren' }).click();
    await page.getByText('Controleer je gegevens.').waitFor();
    await page.getByText('Voornaam is verplicht.').waitFor();
    await page.getByText('Ongeldig e-mailadres.').waitFor();

    // Every password rule at once, ticked live (issue 27), and the strength indicator while typing.
    const password = page.getByLabel('Wachtwoord', { exact: true });
    const rules = page.getByTestId('password-rules').getByRole('listitem');
    const ticks = () => rules.allTextContents();
    expect(await rules.count()).toBe(3);
    expect(await ticks(), 'all shown before typing, none met').toEqual([
      '○ Minstens 6 tekens: nog niet',
      '○ Minstens één hoofdletter: nog niet',
      '○ Minstens één cijfer: nog niet',
    ]);
    expect(await password.getAttribute('aria-describedby')).toContain('register-password-rules');
    await password.fill('abc');
    expect(await page.getByTestId('password-strength').innerText()).toContain('Zwak');
    await password.fill('abcdef1');
    await expect.poll(ticks).toEqual(['✓ Minstens 6 tekens: in orde', '○ Minstens één hoofdletter: nog niet', '✓ Minstens één cijfer: in orde']);
    await mkdir('/tmp/h27/shots', { recursive: true });
    await page.screenshot({ path: '/tmp/h27/shots/register-password-rules.png' });
    expect(await page.getByTestId('password-strength').innerText()).toContain('Gemiddeld');
    // The mail warning shows for the providers the spec names, and blocks nothing.
    await page.getByLabel('E-mailadres').fill('femke@hotmail.com');
    await page.getByTestId('email-warning').waitFor();

    await fillRegistration(member);
    expect(await page.getByTestId('email-warning').count()).toBe(0);
    expect(await page.getByTestId('password-strength').innerText()).toContain('Sterk');
    await choosePlace('Woonplaats (optioneel)', 'utrec', 'Utrecht');
    await page.getByRole('button', { name: 'Registreren' }).click();
    await page.getByText('Registratie gelukt! Check je e-mail voor activatie. (De email kan ook in spam/ongewenst beland zijn.)').waitFor();
    expect(await page.getByLabel('Voornaam').inputValue(), 'the form is cleared').toBe('');

    // The activation mail's link, opened in the browser.
    await page.goto(linkIn(await newestMailTo(member.email), '/verify-email'));
    await page.getByText('Je e-mailadres is bevestigd en je account is geactiveerd.').waitFor();

    await logInWithForm(page, member);
    await page.getByRole('heading', { name: `Welkom, ${member.firstName}!` }).waitFor();
    await page.getByRole('heading', { name: 'Trending in je buurt' }).waitFor();
    const achievements = page.getByTestId('achievements');
    await achievements.waitFor();
    expect(await achievements.innerText()).toContain('Succesvolle ruilen');
    await page.getByRole('link', { name: 'Word Premium' }).waitFor();
    expect(await page.getByRole('link', { name: 'Adminpaneel' }).count(), 'no admin entry for a member').toBe(0);

    // Below 768 px the sidebar starts collapsed and opens with its button.
    await page.setViewportSize({ width: 600, height: 800 });
    await page.reload();
    const profileLink = page.getByRole('link', { name: 'Mijn profiel', exact: true });
    await page.getByRole('button', { name: 'Menu openen' }).waitFor();
    expect(await profileLink.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu openen' }).click();
    await profileLink.waitFor();
    await page.setViewportSize({ width: 1280, height: 720 });

    // The profile: the city chosen at registration is on the map.
    await page.getByRole('link', { name: 'Mijn profiel', exact: true }).click();
    await page.waitForURL('**/dashboard/profile');
    expect(await page.getByTestId('profile-city').innerText()).toBe('Utrecht');
    await page.getByTestId('profile-map').waitFor();

    // Cancel restores what was there.
    await page.getByRole('button', { name: 'Profiel bewerken' }).click();
    expect(await page.getByTestId('profile-map').count(), 'no map while editing').toBe(0);
    await page.getByLabel('Voornaam').fill('Iemand anders');
    await page.getByRole('button', { name: 'Annuleren' }).click();
    await page.getByRole('button', { name: 'Profiel bewerken' }).click();
    expect(await page.getByLabel('Voornaam').inputValue()).toBe(member.firstName);

    // A picture of the wrong kind is refused before sending.
    await page.getByLabel(/^Profielfoto/).setInputFiles({ name: 'foto.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await page.getByRole('button', { name: 'Opslaan' }).click();
    await page.getByText('Alleen JPG, PNG of WEBP afbeeldingen zijn toegestaan.').waitFor();

    // Save with another city and a picture.
    await choosePlace('Woonplaats', 'amersf', 'Amersfoort');
    await page.getByLabel(/^Profielfoto/).setInputFiles({ name: 'foto.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('button', { name: 'Opslaan' }).click();
    await page.getByText('Je profiel is opgeslagen.').waitFor();
    expect(await page.getByTestId('profile-city').innerText()).toBe('Amersfoort');

    // The map: round, 300 px, with its marker and the popup naming the city.
    const map = page.getByTestId('profile-map');
    await map.locator('.leaflet-marker-icon').waitFor();
    expect(await map.locator('.leaflet-popup-content').innerText()).toBe('Amersfoort');
    const box = await map.boundingBox();
    expect([Math.round(box!.width), Math.round(box!.height)]).toEqual([300, 300]);
    expect(await map.evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { borderRadius: string } }).getComputedStyle(el).borderRadius)).toBe('50%');

    // The new picture is served and shown, here and in the stored session.
    const avatar = page.getByRole('img', { name: `Profielfoto van ${member.firstName}` });
    const src = await avatar.getAttribute('src');
    expect(src).toMatch(/^\/uploads\/avatars\//);
    expect(src).not.toContain('default_avatar');
    await expect
      .poll(() =>
        avatar.evaluate((el) => {
          const img = el as unknown as { complete: boolean; naturalWidth: number };
          return img.complete && img.naturalWidth > 0;
        }),
      )
      .toBe(true);
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('ruilplein.user') ?? '{}').profilePicture)).toBe(src);

    // Logout revokes the token at the server and forgets it here.
    const token = await storedToken();
    await page.getByRole('button', { name: 'Uitloggen' }).click();
    await page.waitForURL('**/login');
    expect(await storedToken()).toBeNull();
    const verify = await get('/api/auth/verify', { headers: { authorization: `Bearer ${token}` } });
    expect(verify.status, 'the old token is revoked').toBe(401);
    await page.goto('/dashboard/profile');
    await page.waitForURL('**/login');
  });

  it('the forgot-password link is there from the start, and a wrong password shows the error', async () => {
    const member = await registerMember(newMember('Joris'));
    await page.goto('/login');
    const forgot = page.getByRole('link', { name: 'Wachtwoord vergeten?' });
    await forgot.waitFor();
    expect(await forgot.getAttribute('href')).toBe('/reset-password');
    await page.getByLabel('E-mailadres').fill(member.email);
    await page.getByLabel('Wachtwoord').fill('Verkeerd123');
    await page.getByRole('button', { name: 'Inloggen' }).click();
    await page.getByText(/^❌ /).waitFor();
    await forgot.click();
    await page.waitForURL('**/reset-password');
  });

  it('a not-activated login shows the resend link, and the resent mail activates', async () => {
    const member = await registerMember(newMember('Ilse'), { activate: false });
    await newestMailTo(member.email);
    await page.goto('/login');
    await page.getByLabel('E-mailadres').fill(member.email);
    await page.getByLabel('Wachtwoord').fill(member.password);
    await page.getByRole('button', { name: 'Inloggen' }).click();
    await page.getByText('Je account is nog niet geactiveerd.').waitFor();

    await page.getByRole('button', { name: 'Stuur de activatiemail opnieuw' }).click();
    await page.getByTestId('form-success').waitFor();
    const resent = await newestMailTo(member.email, 2);
    await page.goto(linkIn(resent, '/verify-email'));
    await page.getByText('Je e-mailadres is bevestigd en je account is geactiveerd.').waitFor();
    await logInWithForm(page, member);
  });

  it('reset-password → mail → change-password → login with the new password', async () => {
    const member = await registerMember(newMember('Daan'));
    const before = (await mailsTo(member.email)).length;

    // Without a token the form says so and cannot be used.
    await page.goto('/change-password');
    await page.getByText('Ongeldige of ontbrekende token.').waitFor();
    expect(await page.getByLabel('Nieuw wachtwoord', { exact: true }).isDisabled()).toBe(true);

    await page.goto('/reset-password');
    await page.getByLabel('E-mailadres').fill(member.email);
    await page.getByRole('button', { name: 'Stuur resetlink' }).click();
    // Nothing is sent before the dialog is confirmed.
    const dialog = page.getByRole('dialog', { name: 'Resetlink versturen?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Annuleren' }).click();
    await page.waitForTimeout(300);
    expect((await mailsTo(member.email)).length).toBe(before);
    await page.getByRole('button', { name: 'Stuur resetlink' }).click();
    await dialog.getByRole('button', { name: 'Versturen' }).click();
    await page.getByTestId('form-success').waitFor();

    await page.goto(linkIn(await newestMailTo(member.email, before + 1), '/change-password'));
    const newPassword = 'Nieuw2025!';
    await page.getByLabel('Nieuw wachtwoord', { exact: true }).fill(newPassword);
    await page.getByLabel('Bevestig nieuw wachtwoord').fill('Anders2025!');
    await page.getByRole('button', { name: 'Wachtwoord wijzigen' }).click();
    await page.getByText('Wachtwoorden komen niet overeen.').waitFor();
    await page.getByLabel('Bevestig nieuw wachtwoord').fill(newPassword);
    await page.getByRole('button', { name: 'Wachtwoord wijzigen' }).click();
    await page.getByTestId('form-success').waitFor();
    await page.getByRole('link', { name: 'Naar inloggen' }).click();
    await page.waitForURL('**/login');

    await logInWithForm(page, { ...member, password: newPassword });
  });

  it('an admin sees the Adminpaneel entry', async () => {
    await logInWithForm(page, { email: DEMO_ADMIN_EMAIL, password: DEMO_PASSWORD });
    await page.getByRole('link', { name: 'Adminpaneel' }).waitFor();
  });

  it('a refused access token is renewed silently through the refresh cookie; logout ends the renewal', async () => {
    const member = await registerMember(newMember('Noor'));
    await logInWithForm(page, member);
    const cookie = (await context.cookies()).find((c) => c.name === 'ruilplein_refresh');
    expect(cookie).toMatchObject({ path: '/api/auth', httpOnly: true, sameSite: 'Strict' });

    // A token the server refuses (as an expired one would be): the profile still loads, with a new token.
    // (Renewed within the same second, the new token may equal the first one: JWT times are in seconds.)
    const broken = `${(await storedToken())!.slice(0, -4)}${(await storedToken())!.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    await page.evaluate((token) => localStorage.setItem('ruilplein.token', token), broken);
    await page.goto('/dashboard/profile');
    await page.getByRole('heading', { name: 'Mijn profiel' }).waitFor();
    await page.waitForFunction((old) => {
      const now = localStorage.getItem('ruilplein.token');
      return now !== null && now !== old;
    }, broken);
    expect((await page.request.get('/api/auth/verify', { headers: { authorization: `Bearer ${await storedToken()}` } })).status()).toBe(200);
    expect(page.url()).toContain('/dashboard/profile');

    // After logout the cookie renews nothing: a refused token sends the member to the login.
    await page.getByRole('button', { name: 'Uitloggen' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/dashboard'));
    expect((await page.request.post('/api/auth/refresh')).status()).toBe(401);
  });

  it('a suspended account is sent to /geblokkeerd with the reason and the end date', async () => {
    const member = await registerMember(newMember('Bram'));
    await logInWithForm(page, member);

    await suspend(member.email, { reason: 'ban', endsAt: new Date('2030-06-15T10:00:00Z') });
    await page.goto('/dashboard');
    await page.waitForURL('**/geblokkeerd');
    await page.getByText('Je bent geblokkeerd door een admin.').waitFor();
    expect(await page.getByTestId('unblock-date').innerText()).toBe('15 juni 2030');
    expect(await header().count()).toBe(0);

    await suspend(member.email, { reason: 'warnings' });
    await page.goto('/dashboard/profile');
    await page.waitForURL('**/geblokkeerd');
    await page.getByText('Je hebt te veel waarschuwingen ontvangen in korte tijd.').waitFor();
    expect(await page.getByTestId('unblock-date').innerText()).toBe('onbekend');
    await page.getByRole('link', { name: 'Terug naar de homepage' }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });
});
