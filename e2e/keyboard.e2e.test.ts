// One journey with the keyboard only, every focus stop visible: from the homepage to signing in, a
// keyword search on /dashboard/search whose results follow the text, a result opened, an offer
// built from the member's own items and sent, and signing out. No mouse: Tab, Shift+Tab, typing,
// Enter and Space.
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Category } from '@ruilplein/contracts/browser';
import { account, call, eventually, placeEarlier, png, setPlace, signIn, type Account, type Placed } from './api.ts';
import { settle, trackRequests } from './axe.ts';
import { explainFailure, launchBrowser, openPage } from './browser.ts';
import { newMember, registerMember } from './members.ts';

const tag = randomUUID().slice(0, 6);
// Far out in the North Sea: the search's default 25 km reaches only this file's listings.
const HOME = { city: 'Toetsbank', latitude: 57.5, longitude: 2 };
const NEAR = { city: 'Toetsbank-Noord', latitude: 57.52, longitude: 2 };
const HORSE = `Hobbelpaard ${tag}`;
const CHAIR = `Schommelstoel ${tag}`;

async function createListing(owner: Account, category: Category, title: string): Promise<Placed> {
  const form = new FormData();
  form.set('title', title);
  form.set('description', `${title.split(' ')[0]}: netjes en compleet, op te halen in de buurt.`);
  form.set('initialValue', '25');
  form.set('isPremium', 'false');
  form.set('listingType', 'item');
  form.set('acceptsItems', 'false');
  form.append('CategoryIDs', category.id);
  form.append('images', new Blob([new Uint8Array(png(48, 36, [31, 122, 77]))], { type: 'image/png' }), 'foto.png');
  const { status, body } = await call<{ listing: Placed }>('/api/listing/create', { method: 'POST', body: form, token: owner.token });
  expect(status, `create ${title}: ${JSON.stringify(body)}`).toBe(201);
  return { ...body.listing, owner };
}

let browser: Browser;
let page: Page | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach((test) => explainFailure(test, () => page));

interface Stop {
  /** `a "Inloggen"`, `button "Gast"`, `input#login-email "E-mail"` (a field by its label). */
  name: string;
  /** The nearest `data-testid` around the focus (`inventory-mine`), or null. */
  within: string | null;
  /** Why the focus cannot be seen there, or null. */
  problem: string | null;
}

/**
 * Where the focus is and whether a sighted keyboard user sees it: an outline or a box-shadow ring,
 * inside the viewport. The ring may also be drawn around the box the element stands for (a result
 * card whose whole area is its title's link outlines the card): an outline on one of its three
 * nearest ancestors counts then (outlines, unlike shadows, are not left on boxes at rest).
 */
const focusStop = (p: Page): Promise<Stop> =>
  p.evaluate(`(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { name: '(body)', within: null, problem: 'nothing has focus' };
    const field = el.labels && el.labels.length > 0 ? el.labels[0].innerText : null;
    const label = (el.getAttribute('aria-label') ?? field ?? el.innerText ?? '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    const within = el.closest('[data-testid]')?.getAttribute('data-testid') ?? null;
    const name = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (label ? ' "' + label + '"' : '');
    const style = getComputedStyle(el);
    const outlined = (s) => s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
    let outline = outlined(style);
    for (let up = el.parentElement, n = 0; !outline && up && n < 3; up = up.parentElement, n++) outline = outlined(getComputedStyle(up));
    const ring = style.boxShadow !== 'none';
    const box = el.getBoundingClientRect();
    const inView = box.width > 0 && box.height > 0 && box.bottom > 0 && box.right > 0 && box.top < innerHeight && box.left < innerWidth;
    const problem = !outline && !ring ? 'no outline and no box-shadow' : !inView ? 'outside the viewport (' + Math.round(box.left) + ',' + Math.round(box.top) + ')' : null;
    return { name, within, problem };
  })()`);

/**
 * Presses `key` (Tab or Shift+Tab) until the focused element is `target`, at most `max` times,
 * checking at every stop that the focus is visible; fails with every stop seen.
 */
async function tabTo(p: Page, target: (stop: Stop) => boolean, what: string, { key = 'Tab', max = 40 } = {}): Promise<Stop[]> {
  const seen: Stop[] = [];
  for (let i = 0; i < max; i++) {
    await p.keyboard.press(key);
    const stop = await focusStop(p);
    seen.push(stop);
    const trail = () => seen.map((s, n) => `  ${n + 1}. ${s.name}${s.problem ? `  <- ${s.problem}` : ''}`).join('\n');
    if (stop.problem) throw new Error(`focus not visible at ${stop.name} on ${new URL(p.url()).pathname}: ${stop.problem}; stops:\n${trail()}`);
    if (target(stop)) return seen;
    if (i === max - 1) throw new Error(`${what} not reached with ${max} × ${key} on ${new URL(p.url()).pathname}; stops:\n${trail()}`);
  }
  return seen;
}

const named = (text: string) => (stop: Stop) => stop.name.includes(`"${text}`);
/** The titles of the result cards on the search page. */
const resultTitles = (p: Page) => p.getByTestId('listing-card').locator('h3').allInnerTexts();

describe('the keyboard alone', () => {
  it('signs in from the homepage, searches by keyword, opens a result, sends an offer and signs out, with the focus visible at every stop', async () => {
    const member = await registerMember(newMember('Toetsen'));
    // The member's place, and a neighbour's two listings placed seven hours ago (past the Premium head start).
    await setPlace({ ...member, token: (await signIn(member)).token }, HOME);
    const neighbour = await account('Buurvrouw');
    await setPlace(neighbour, NEAR);
    const category = (await call<Category[]>('/api/category')).body.find((c) => !c.isPremium)!;
    await placeEarlier(7, async (place) => {
      await place(() => createListing(neighbour, category, HORSE));
      await place(() => createListing(neighbour, category, CHAIR));
    });
    ({ page } = await openPage(browser));
    trackRequests(page);
    await page.goto('/');
    await settle(page);

    // The first stop skips the header.
    const [first] = await tabTo(page, () => true, 'the first stop');
    expect(first!.name, 'the first Tab stop').toContain('Naar de inhoud');

    // The account menu ('Gast') holds Inloggen.
    await tabTo(page, (stop) => named('Inloggen')(stop) || (stop.name.startsWith('button') && named('Gast')(stop)), "'Inloggen' or the account menu");
    if ((await focusStop(page)).name.startsWith('button')) {
      await page.keyboard.press('Enter');
      await tabTo(page, named('Inloggen'), "'Inloggen' in the account menu", { max: 5 });
    }
    await page.keyboard.press('Enter');
    await page.waitForURL('**/login');
    await settle(page);

    await tabTo(page, (stop) => stop.name.startsWith('input#login-email'), 'the e-mail field');
    await page.keyboard.type(member.email);
    await tabTo(page, (stop) => stop.name.startsWith('input#login-password'), 'the password field', { max: 3 });
    await page.keyboard.type(member.password);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/dashboard');
    await page.waitForFunction("localStorage.getItem('ruilplein.token') !== null");
    await settle(page);

    // The search page through the sidebar; both listings in reach before a keyword is typed.
    await tabTo(page, (stop) => stop.name.startsWith('a') && named('Aanbod')(stop), "'Aanbod' in the sidebar");
    await page.keyboard.press('Enter');
    await page.waitForURL('**/dashboard/search');
    await expect.poll(async () => (await resultTitles(page!)).sort(), { timeout: 15_000 }).toEqual([HORSE, CHAIR].sort());
    await settle(page);

    // A keyword, typed in the search box and sent with Enter: the results follow, and the address says so.
    await tabTo(page, (stop) => stop.name.startsWith('input') && named('Zoeken op trefwoord')(stop), 'the search box');
    await page.keyboard.type('hobbelpaard');
    // Enter with no suggestion chosen searches the text as typed.
    await page.keyboard.press('Enter');
    await expect.poll(() => resultTitles(page!), { timeout: 15_000 }).toEqual([HORSE]);
    expect(new URL(page.url()).searchParams.get('q')).toBe('hobbelpaard');

    // The result opened from the keyboard, then its offer page.
    await tabTo(page, (stop) => stop.name.startsWith('a') && named(HORSE)(stop), `the result '${HORSE}'`, { max: 80 });
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/dashboard\/listing\/[^/]+$/);
    await page.getByRole('heading', { name: HORSE }).waitFor();
    await settle(page);
    await tabTo(page, (stop) => stop.name.startsWith('a') && named('Doe een aanbod!')(stop), "'Doe een aanbod!'", { max: 60 });
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/dashboard\/listing\/[^/]+\/offer$/);
    await page.getByRole('heading', { name: `Ruilaanbod aan ${neighbour.firstName} ${neighbour.lastName}` }).waitFor();
    await settle(page);

    // The member's own crate into 'Jij biedt aan' with Enter; the listing itself is already on the other side.
    const myZone = page.getByRole('region', { name: 'Jij biedt aan', exact: true });
    await tabTo(page, (stop) => stop.within === 'inventory-mine' && named('Krat Bier')(stop), "'Krat Bier' among the member's own items", { max: 60 });
    await page.keyboard.press('Enter');
    await myZone.getByRole('button', { name: 'Krat Bier verwijderen' }).waitFor();
    expect(await page.getByTestId('offer-announcer').innerText()).toBe("Krat Bier toegevoegd aan 'Jij biedt aan'.");
    await tabTo(page, (stop) => stop.name.startsWith('button') && named('Bevestig Aanbod')(stop), "'Bevestig Aanbod'", { max: 20 });
    await page.keyboard.press('Enter');

    // Sent: the offer's page, waiting for the neighbour, with both sides as built.
    await page.waitForURL(/\/dashboard\/tradeoffer\/\d+$/);
    const offerId = Number(/(\d+)$/.exec(page.url())![1]);
    await page.getByTestId('offer-status').filter({ hasText: 'In afwachting' }).waitFor();
    await page.getByTestId('panel-requested').getByText(HORSE, { exact: true }).waitFor();
    await page.getByTestId('panel-offered').getByText('Krat Bier', { exact: true }).waitFor();
    const sent = await eventually('the offer at the trade service', async () => {
      const { status, body } = await call<{ status: string; receiverID: string }>(`/api/tradeoffer/${offerId}`, { token: neighbour.token });
      return status === 200 && body;
    });
    expect(sent).toMatchObject({ status: 'Pending', receiverID: neighbour.id });
    await settle(page);

    // Back up to the sidebar's 'Uitloggen' (it comes just before the page's content).
    await tabTo(page, (stop) => stop.name.startsWith('button') && named('Uitloggen')(stop), "'Uitloggen' in the sidebar", { key: 'Shift+Tab', max: 80 });
    await page.keyboard.press('Enter');
    await page.waitForURL('**/login');
    await page.waitForFunction("localStorage.getItem('ruilplein.token') === null");
  });
});
