// The public side of the shell in Chromium: navigation bar, account dropdown, footer, the landing
// page with its icon ring, carousel and new listings (issue 27), the text pages and scrolling to the
// top (spec 1 §2).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RECENT_LISTINGS_MAX, type Category, type PublicListing } from '@ruilplein/contracts/browser';
import { pageAt } from '../shell/src/pages.ts';
import { exampleItems } from '../shell/src/public/carousel.ts';
import { account, call, eventually, openCategory, placeEarlier, png, setPlace, type Account, type Placed } from './api.ts';
import { expectAccessible } from './axe.ts';
import { explainFailure, launchBrowser, openPage } from './browser.ts';
import { logInWithForm, newMember, registerMember } from './members.ts';
import { get } from './platform.ts';

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
// Each test in a fresh context; the last one stays open until a failed test has been explained.
beforeEach(async (test) => {
  await context?.close();
  ({ context, page } = await openPage(browser));
  explainFailure(test, () => page);
});

const header = () => page.getByRole('banner');
const footer = () => page.getByRole('contentinfo');
const accountButton = () => header().getByTestId('account-button');
const dropdown = () => header().getByTestId('account-dropdown');
const caption = () => page.getByTestId('carousel-caption');
const stage = () => page.getByTestId('carousel-stage');
/** Evaluates `expression` in the page (a string: this file is type-checked without the DOM's names). */
const inPage = <T>(expression: string) => page.evaluate(expression) as Promise<T>;
const scrollY = () => inPage<number>('window.scrollY');

// The list itself is checked against the spec by shell/test/carousel.unit.test.ts.
const captions = exampleItems.map((item) => item.caption);

const pages = [
  ['/', 'Ruil spullen en diensten met je buren'],
  ['/over-ons', 'Over ons'],
  ['/veelgestelde-vragen', 'Veelgestelde vragen'],
  ['/ruilen', 'Hoe werkt ruilen?'],
  ['/ruilregels', 'Ruilregels'],
  ['/algemene-voorwaarden', 'Algemene voorwaarden'],
  ['/privacyverklaring', 'Privacyverklaring'],
  ['/contact', 'Contact'],
] as const;

/** A mouse drag over the carousel picture from its centre, `dx`/`dy` CSS pixels away. */
async function drag(dx: number, dy = 0) {
  const box = (await stage().boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 3;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 8 });
  await page.mouse.up();
}

/** Waits until the carousel shows `text` (and nothing else). */
const shows = (text: string) => expect.poll(() => caption().innerText()).toBe(text);

/** A town of its own, out at sea: no other file's searches find this file's listing nearby. */
const TOWN = { city: 'Voorpaginadorp', latitude: 55.7, longitude: 2.4 };

/**
 * A listing placed six and a half hours back (platform clock): past the Premium head start, so a
 * guest may see it, and newer than what other files place a day or seven hours back.
 */
function placeForGuests(owner: Account, category: Category, title: string): Promise<string> {
  return placeEarlier(6.5, (place) =>
    place(async () => {
      const form = new FormData();
      form.set('title', title);
      form.set('description', `${title}: stevig, net als nieuw.`);
      form.set('listingType', 'item');
      form.append('CategoryIDs', category.id);
      form.append('images', new Blob([new Uint8Array(png(64, 48, [200, 120, 40]))], { type: 'image/png' }), 'foto.png');
      const { status, body } = await call<{ listing: Placed }>('/api/listing/create', { method: 'POST', body: form, token: owner.token });
      expect(status, `create ${title}: ${JSON.stringify(body)}`).toBe(201);
      return { ...body.listing, owner };
    }),
  );
}

const recentSection = () => page.getByRole('region', { name: 'Nieuw in het aanbod' });
const recentCards = () => recentSection().getByTestId('recent-listing');
const activeText = () => inPage<string>("document.activeElement?.textContent?.trim() ?? ''");

describe('the landing page\'s new listings (issue 27)', () => {
  it('shows a listing placed here; a guest reaches it by keyboard, logs in and comes back to it', async () => {
    const [owner, visitor] = await Promise.all([account('Lieke'), registerMember(newMember('Kees'))]);
    await setPlace(owner, TOWN);
    const category = await openCategory();
    const title = `Buurtladder ${Date.now().toString(36)}`;
    const id = await placeForGuests(owner, category, title);
    // The service keeps its answer a few seconds: wait until it holds the new listing.
    await eventually('the listing among the recent ones', async () => (await call<PublicListing[]>('/api/listing/recent')).body.some((l) => l.id === id));

    await page.goto('/');
    const card = recentCards().filter({ hasText: title });
    await card.waitFor();
    expect(await recentCards().count()).toBeLessThanOrEqual(RECENT_LISTINGS_MAX);
    const text = await card.innerText();
    expect(text).toContain(TOWN.city);
    expect(text).toContain(category.name);
    // Nothing of the owner but their town.
    expect(text).not.toContain(owner.firstName);
    expect(await card.locator('img[loading="lazy"]').getAttribute('src')).toMatch(/^\/uploads\/listings\/.+/);
    await expectAccessible(page, '/ with new listings');

    // By keyboard: on from the hero's buttons, Tab reaches the card; Enter opens the login with the way back.
    await page.getByTestId('hero').getByRole('link', { name: 'Plaats een dienst' }).focus();
    for (let i = 0; i < 60 && (await activeText()) !== title; i++) await page.keyboard.press('Tab');
    expect(await activeText()).toBe(title);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('next') === `/dashboard/listing/${id}`);
    await page.getByLabel('E-mailadres').fill(visitor.email);
    await page.getByLabel('Wachtwoord').fill(visitor.password);
    await page.getByRole('button', { name: 'Inloggen' }).click();
    await page.waitForURL(`**/dashboard/listing/${id}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();

    // Signed in, the landing page's card opens the listing itself.
    await page.goto('/');
    await recentCards().filter({ hasText: title }).getByRole('link', { name: title }).click();
    await page.waitForURL(`**/dashboard/listing/${id}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
  });

  it('holds eight places while the list loads, says so when there is nothing, and offers a retry after a failure', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let answer: 'empty' | 'failure' = 'empty';
    await page.route('**/api/listing/recent', async (route) => {
      await held;
      await (answer === 'empty'
        ? route.fulfill({ status: 200, contentType: 'application/json', body: '[]' })
        : route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Er ging iets mis.' }) }));
    });
    await page.goto('/');
    await recentSection().getByRole('status').filter({ hasText: 'Nieuw aanbod laden…' }).waitFor({ state: 'attached' });
    expect(await recentSection().getAttribute('aria-busy')).toBe('true');
    expect(await page.getByTestId('recent-placeholders').locator('li').count()).toBe(RECENT_LISTINGS_MAX);
    release();
    await recentSection().getByText('Er staat nog geen aanbod voor iedereen klaar. Zet jij het eerste online?').waitFor();
    expect(await page.getByTestId('recent-placeholders').count()).toBe(0);
    await expectAccessible(page, '/ without new listings');
    await recentSection().getByRole('link', { name: 'Registreer en plaats je aanbod' }).click();
    await page.waitForURL('**/register');

    answer = 'failure';
    await page.goto('/');
    const failure = recentSection().getByRole('alert');
    // A server failure is tried twice more first (the query client's rule), then told.
    await failure.getByText('Het nieuwe aanbod kon niet worden geladen.').waitFor({ timeout: 20_000 });
    await expectAccessible(page, '/ when the new listings failed');
    await page.unroute('**/api/listing/recent');
    await failure.getByRole('button', { name: 'Opnieuw proberen' }).click();
    await recentCards().first().waitFor();
    expect(await failure.count()).toBe(0);
  });
});

describe('the public pages', () => {
  it('every public page renders with the navigation bar and the footer', async () => {
    const year = String(new Date().getFullYear());
    for (const [path, title] of pages) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
      expect(await page.title(), `${path}: tab title`).toBe(pageAt(path)?.title);
      for (const name of ['HOME', 'OVER ONS', 'FAQ']) expect(await header().getByRole('link', { name, exact: true }).count(), `${path}: ${name}`).toBe(1);
      expect(await accountButton().innerText(), `${path}: account button`).toContain('Gast');
      expect(await footer().getByRole('heading', { name: 'Begin nu met ruilen!' }).count(), `${path}: banner`).toBe(1);
      for (const column of ['Over Ruilplein', 'Handige links', 'Contact']) {
        expect(await footer().getByRole('heading', { name: column, exact: true }).count(), `${path}: ${column}`).toBe(1);
      }
      expect(await footer().getByText(`© ${year} Ruilplein`).count(), `${path}: copyright`).toBe(1);
      expect(await footer().locator('a[href="mailto:info@ruilplein.nl"]').count(), `${path}: contact address`).toBe(1);
    }
  });

  it('the footer and navigation links lead to the public pages', async () => {
    await page.goto('/');
    await footer().getByRole('link', { name: 'Registreren' }).click();
    await page.waitForURL('**/register');
    await page.goto('/');
    await footer().getByRole('link', { name: 'Neem contact op!' }).click();
    await page.waitForURL('**/contact');
    const links = [
      ['Over ons', '/over-ons'],
      ['Hoe ruilen werkt', '/ruilen'],
      ['Ruilregels', '/ruilregels'],
      ['Veelgestelde vragen', '/veelgestelde-vragen'],
      ['Algemene voorwaarden', '/algemene-voorwaarden'],
      ['Privacyverklaring', '/privacyverklaring'],
      ['Contactpagina', '/contact'],
    ];
    for (const [name, path] of links) {
      await footer().getByRole('link', { name, exact: true }).click();
      await page.waitForURL(`**${path}`);
      await page.locator('h1').waitFor();
    }
    await header().getByRole('link', { name: 'FAQ', exact: true }).click();
    await page.waitForURL('**/veelgestelde-vragen');
    await header().getByRole('link', { name: 'Ruilplein, naar de homepage' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { level: 1, name: 'Ruil spullen en diensten met je buren' }).waitFor();
  });

  it('the text pages have their questions, rules and sections', async () => {
    await page.goto('/veelgestelde-vragen');
    const questions = page.getByRole('main').locator('button[aria-expanded]');
    expect(await questions.count()).toBe(10);
    // Each question opens and closes its answer, by mouse and by keyboard.
    const first = questions.first();
    const answer = page.locator(`[id="${await first.getAttribute('aria-controls')}"]`);
    expect(await answer.isVisible()).toBe(false);
    await first.click();
    expect(await first.getAttribute('aria-expanded')).toBe('true');
    await answer.getByText('Ruilen is gratis').waitFor();
    await first.press('Enter');
    expect(await first.getAttribute('aria-expanded')).toBe('false');
    expect(await answer.isVisible()).toBe(false);

    await page.goto('/ruilen');
    expect(await page.getByRole('main').locator('button[aria-expanded]').count()).toBeGreaterThanOrEqual(3);

    await page.goto('/ruilregels');
    expect(await page.getByTestId('rules').getByRole('listitem').count()).toBe(7);

    await page.goto('/algemene-voorwaarden');
    expect(await page.locator('main article > section > h2').count()).toBe(8);

    await page.goto('/privacyverklaring');
    expect(await page.locator('main article > section > h2').count()).toBe(9);
    expect(await page.locator('time[datetime="2025-04-18"]').innerText()).toBe('18 april 2025');

    await page.goto('/contact');
    const main = page.locator('main');
    await main.locator('h1').waitFor();
    const hrefs = await Promise.all((await main.locator('a').all()).map((link) => link.getAttribute('href')));
    expect(hrefs).toEqual(['mailto:info@ruilplein.nl']);
  });

  it('the landing page has its sections; "Begin met ruilen" goes to /register, "Plaats een dienst" to /login', async () => {
    await page.goto('/');
    for (const name of ['Wat kun je ruilen?', 'Hoe werkt het?', 'Waarom Ruilplein?', 'Voorbeeld Items', 'Wat ruilers zeggen']) {
      await page.getByRole('heading', { level: 2, name, exact: true }).waitFor();
    }
    expect(await page.getByRole('region', { name: 'Hoe werkt het?' }).getByRole('listitem').count()).toBe(4);
    expect(await page.getByRole('region', { name: 'Wat ruilers zeggen' }).getByRole('listitem').count()).toBe(3);
    for (const [name, path] of [['Begin met ruilen', '/register'], ['Plaats een dienst', '/login']] as const) {
      await page.goto('/');
      await page.getByTestId('hero').getByRole('link', { name }).click();
      await page.waitForURL(`**${path}`);
    }
    // Every picture of the page is our own: nothing is loaded from another origin.
    const foreign = "performance.getEntriesByType('resource').map((entry) => new URL(entry.name).origin).filter((origin) => origin !== location.origin)";
    expect(await inPage<string[]>(foreign)).toEqual([]);
  });

  it('the icon ring spins, and stands still for visitors who ask for reduced motion', async () => {
    await page.goto('/');
    const orbit = page.getByTestId('icon-ring-orbit');
    expect(await orbit.locator('svg').count()).toBe(12);
    expect(await page.getByTestId('icon-ring-center').locator('svg').count()).toBe(1);
    const animation = () => inPage<string>("getComputedStyle(document.querySelector('[data-testid=icon-ring-orbit]')).animationName");
    // The keyframes' name is local to the CSS module (hashed in production): it spins, whatever it is called.
    expect(await animation()).not.toBe('none');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await animation()).toBe('none');
  });

  it('the carousel shows the 14 examples in order and wraps both ways with its buttons', async () => {
    await page.goto('/');
    const previous = page.getByRole('button', { name: 'Vorige', exact: true });
    const next = page.getByRole('button', { name: 'Volgende', exact: true });
    await shows('Elektronica');
    await previous.click();
    await shows('Sport- en hobbyspullen');
    await next.click();
    await shows('Elektronica');
    for (const text of [...captions.slice(1), captions[0]!]) {
      await next.click();
      await shows(text);
    }
    await previous.click();
    await shows('Sport- en hobbyspullen');
    await previous.click();
    await shows('Kinderspullen');
    expect(await page.getByRole('img', { name: 'Illustratie: Kinderspullen' }).count()).toBe(1);
  });

  it('the carousel moves with a mouse drag and with the arrow keys', async () => {
    await page.goto('/');
    await stage().scrollIntoViewIfNeeded();
    await shows('Elektronica');
    await drag(-160);
    await shows('Plant');
    await drag(160);
    await shows('Elektronica');
    await drag(160);
    await shows('Sport- en hobbyspullen');
    // Too short, or mostly vertical: not a swipe.
    await drag(-30);
    await drag(-70, 140);
    await page.waitForTimeout(200);
    expect(await caption().innerText()).toBe('Sport- en hobbyspullen');

    await stage().focus();
    await page.keyboard.press('ArrowRight');
    await shows('Elektronica');
    await page.keyboard.press('ArrowLeft');
    await shows('Sport- en hobbyspullen');
  });

  it('the carousel moves with a touch swipe', async () => {
    await page.goto('/');
    await stage().scrollIntoViewIfNeeded();
    await shows('Elektronica');
    const box = (await stage().boundingBox())!;
    const y = box.y + box.height / 3;
    const cdp = await context.newCDPSession(page);
    const swipe = async (fromX: number, toX: number) => {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: fromX, y }] });
      for (let i = 1; i <= 6; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: fromX + ((toX - fromX) * i) / 6, y }] });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    };
    await swipe(box.x + box.width * 0.8, box.x + box.width * 0.2);
    await shows('Plant');
    await swipe(box.x + box.width * 0.2, box.x + box.width * 0.8);
    await shows('Elektronica');
  });

  it('the guest dropdown opens, closes on an outside click and on Escape, and its links work', async () => {
    await page.goto('/');
    const button = accountButton();
    expect(await button.innerText()).toContain('Gast');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await dropdown().isVisible()).toBe(false);

    await button.click();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    await dropdown().getByRole('link', { name: 'Inloggen' }).waitFor();
    await dropdown().getByRole('link', { name: 'Registreren' }).waitFor();
    expect(await dropdown().getByText('Uitloggen').count()).toBe(0);

    // A click elsewhere on the page closes it.
    await page.locator('h1').click();
    await dropdown().waitFor({ state: 'hidden' });
    expect(await button.getAttribute('aria-expanded')).toBe('false');

    // By keyboard: Enter opens, Tab reaches the entries, Escape closes and gives focus back.
    await button.focus();
    await page.keyboard.press('Enter');
    await dropdown().waitFor();
    await page.keyboard.press('Tab');
    expect(await inPage<string>('document.activeElement.textContent.trim()')).toBe('Inloggen');
    await page.keyboard.press('Escape');
    await dropdown().waitFor({ state: 'hidden' });
    expect(await inPage<boolean>("document.activeElement.dataset.testid === 'account-button'")).toBe(true);

    await button.click();
    await dropdown().getByRole('link', { name: 'Registreren' }).click();
    await page.waitForURL('**/register');
    await page.goto('/over-ons');
    await accountButton().click();
    await dropdown().getByRole('link', { name: 'Inloggen' }).click();
    await page.waitForURL('**/login');
  });

  it('a logged-in member sees the first name, and the dropdown leads to the dashboard and logs out', async () => {
    const member = await registerMember(newMember('Ruben'));
    await logInWithForm(page, member);
    await page.goto('/');
    const button = accountButton();
    await expect.poll(() => button.innerText()).toContain('Ruben');
    await button.click();
    expect(await dropdown().getByRole('link', { name: 'Inloggen' }).count()).toBe(0);
    await dropdown().getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL('**/dashboard');

    await page.goto('/ruilregels');
    const token = await page.evaluate(() => localStorage.getItem('ruilplein.token'));
    await accountButton().click();
    await dropdown().getByRole('button', { name: 'Uitloggen' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => accountButton().innerText()).toContain('Gast');
    expect(await page.evaluate(() => localStorage.getItem('ruilplein.token'))).toBeNull();
    const verify = await get('/api/auth/verify', { headers: { authorization: `Bearer ${token}` } });
    expect(verify.status, 'the token is revoked at the server').toBe(401);
  });

  it('a route change scrolls to the top', async () => {
    await page.setViewportSize({ width: 1280, height: 600 });
    await page.goto('/privacyverklaring');
    await inPage('window.scrollTo(0, document.body.scrollHeight)');
    await expect.poll(scrollY).toBeGreaterThan(500);
    await footer().getByRole('link', { name: 'Algemene voorwaarden', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Algemene voorwaarden' }).waitFor();
    expect(await scrollY()).toBe(0);
  });

  it('on a narrow screen the page links give way, the account button stays', async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/');
    await accountButton().waitFor();
    expect(await header().getByRole('link', { name: 'OVER ONS', exact: true }).isVisible()).toBe(false);
    await page.setViewportSize({ width: 1280, height: 800 });
    await header().getByRole('link', { name: 'OVER ONS', exact: true }).waitFor();
  });
});
