// A new member's first steps (issue 27, "First visit and first steps" and the dashboard notice of
// "Moderation as members see it"): the landing page's search box and 'Begin met ruilen' to
// registration; a first dashboard on Schiermonnikoog, where nothing is within 5 km but a
// neighbour in Lauwersoog (about 10 km) offers something: the dashboard looks as far as 25 km and
// says so; the checklist for a new member until every step is done; and a moderator's warning
// as a notice on the dashboard until the member marks it read.
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Category, Notification } from '@ruilplein/contracts/browser';
import { DEMO_ADMIN_EMAIL, DEMO_PASSWORD } from '@ruilplein/contracts/demo';
import { account, call, createListing, json, openCategory, png, setPlace, signIn, type Account } from './api.ts';
import { describeLesserFindings, expectAccessible, lesserFindings } from './axe.ts';
import { explainFailure, launchBrowser, openPage } from './browser.ts';
import { logInWithForm } from './members.ts';

const tag = randomUUID().slice(0, 6);
/** For the closing note: what each step looks like (not compared; the assertions are the test). */
const shot = async (name: string) => {
  await mkdir('/tmp/h27/shots', { recursive: true });
  await page.screenshot({ path: `/tmp/h27/shots/${name}.png` });
};
const SCHIERMONNIKOOG = { city: 'Schiermonnikoog', latitude: 53.4806, longitude: 6.1619 };
const LAUWERSOOG = { city: 'Lauwersoog', latitude: 53.4069, longitude: 6.2089 };

let browser: Browser;
let page: Page;
let category: Category;
let pien: Account;
let wout: Account;
let woutsListing: string;

beforeAll(async () => {
  browser = await launchBrowser();
  category = await openCategory();
  [pien, wout] = (await Promise.all([account('Pien'), account('Wout')])) as [Account, Account];
  await setPlace(pien, SCHIERMONNIKOOG);
  await setPlace(wout, LAUWERSOOG);
  woutsListing = await createListing(null, category, wout, `Zeilboot ${tag}`);
  ({ page } = await openPage(browser));
});
afterAll(async () => {
  await browser?.close();
  if (lesserFindings.size > 0) console.log(`[e2e] moderate and minor accessibility findings (not failed on):\n${describeLesserFindings()}`);
});
beforeEach((test) => explainFailure(test, () => page));

describe('the first visit', () => {
  it('the landing page has its search box, and "Begin met ruilen" opens registration', async () => {
    await page.goto('/');
    await page.getByRole('search', { name: 'Zoek in het aanbod bij jou in de buurt' }).getByRole('combobox').waitFor();
    await page.getByTestId('hero').getByRole('link', { name: 'Begin met ruilen' }).click();
    await page.waitForURL('**/register');
    await page.getByRole('heading', { level: 1, name: 'Registreren' }).waitFor();
  });
});

describe('the first dashboard', () => {
  it('nothing within 5 km: it shows what is within 25 km, with a note saying so', async () => {
    await logInWithForm(page, pien);
    const note = page.getByTestId('trending-widened');
    await note.waitFor();
    expect(await note.innerText()).toBe('Binnen 5 km wordt nog niets aangeboden. Daarom zie je hier het aanbod tot 25 km van je woonplaats.');
    const card = page.getByTestId('trending-card').filter({ hasText: `Zeilboot ${tag}` });
    await card.waitFor();
    expect(await card.innerText()).toMatch(/\b([6-9]|1\d) km · Lauwersoog/);
    expect(await page.getByRole('radio', { name: '25 km' }).isChecked()).toBe(true);
    await expectAccessible(page, '/dashboard, widened to 25 km');
    await shot('dashboard-widened');

    // A radius the member picks is kept as it is, empty or not: 5 km says so, without the note.
    await page.getByRole('radio', { name: '5 km', exact: true }).check();
    await page.getByText('Er zijn nog geen aanbevelingen in je buurt. Zodra buren iets aanbieden, zie je het hier.').waitFor();
    expect(await note.count()).toBe(0);
    await page.getByRole('radio', { name: '25 km' }).check();
    await card.waitFor();
  });

  it('the checklist for a new member shows what is still to do, and goes once every step is done', async () => {
    await page.goto('/dashboard');
    const steps = page.getByTestId('first-steps');
    await steps.waitFor();
    const done = async () =>
      Object.fromEntries(await Promise.all(['photo', 'place', 'listing', 'wish'].map(async (key) => [key, await steps.locator(`[data-step="${key}"]`).getAttribute('data-done')] as const)));
    expect(await done()).toEqual({ photo: 'false', place: 'true', listing: 'false', wish: 'false' });
    expect(await steps.innerText()).toContain('1 van de 4 gedaan');
    await expectAccessible(page, '/dashboard with the checklist');
    await shot('dashboard-checklist');
    // Each open step links to where it is done.
    await steps.getByRole('link', { name: /^Aanbod plaatsen/ }).click();
    await page.waitForURL('**/dashboard/add-listing');

    await createListing(null, category, pien, `Vlieger ${tag}`);
    expect((await call(`/api/wishlist/add/${woutsListing}`, { method: 'POST', token: pien.token })).status).toBeLessThan(300);
    await page.goto('/dashboard');
    await steps.waitFor();
    await expect.poll(done).toEqual({ photo: 'false', place: 'true', listing: 'true', wish: 'true' });

    await setPlace(pien, SCHIERMONNIKOOG, { file: new Blob([new Uint8Array(png(64, 64, [200, 120, 40]))], { type: 'image/png' }), name: 'pien.png' });
    await page.goto('/dashboard');
    await page.getByTestId('trending-card').first().waitFor();
    await expect.poll(() => steps.count()).toBe(0);
  });
});

describe("a moderator's warning", () => {
  it('stands on the dashboard until the member marks it read', async () => {
    const admin = await signIn({ email: DEMO_ADMIN_EMAIL, password: DEMO_PASSWORD });
    await page.goto('/dashboard');
    await page.getByRole('heading', { level: 1, name: `Welkom, ${pien.firstName}!` }).waitFor();
    const text = `Je biedt spullen aan die je niet hebt (${tag}).`;
    const warned = await call('/api/warning/create', { ...json({ userID: pien.id, adminID: admin.id, message: text }), token: admin.token });
    expect(warned.status, JSON.stringify(warned.body)).toBe(201);

    // The open dashboard hears of it through the notification hub: no reload.
    const notice = page.getByTestId('warning-notice');
    await notice.getByText(text).waitFor();
    expect(await notice.getByRole('heading', { level: 2 }).innerText()).toContain('Je hebt een waarschuwing gekregen');
    await expectAccessible(page, '/dashboard with a warning');
    await shot('dashboard-warning');
    // Still there on the next visit, until marked read.
    await page.reload();
    await notice.getByText(text).waitFor();
    await notice.getByRole('button', { name: 'Gelezen' }).click();
    await expect.poll(() => notice.count()).toBe(0);
    const list = (await call<Notification[]>('/api/notification?take=50', { token: pien.token })).body;
    expect(list.find((n) => n.kind === 'warning' && n.body === text)?.readAt).toBeTruthy();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: `Welkom, ${pien.firstName}!` }).waitFor();
    await page.getByTestId('trending-card').first().waitFor();
    expect(await notice.count()).toBe(0);
  });
});
