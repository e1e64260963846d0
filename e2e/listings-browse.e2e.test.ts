// Browsing listings in Chromium against the whole platform (spec 2 §2): the search page's filters,
// 'Laad meer', the detail page with its wishlist heart, report dialog and own-listing badge, what a
// standard and a Premium member see, the services page's barter policies, and the dashboard's
// 'Trending in je buurt'.
//
// The members live far out in the North Sea, so nothing the demo seed or other files placed on
// land is within reach of their searches, and every title carries this run's tag.
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MODERATION_MESSAGES } from '@ruilplein/contracts/browser';
import { account, call, clockOffset, eventually, placeEarlier, png, setPlace, type Account, type Place, type Placed } from './api.ts';
import { expectAccessible, settle, trackRequests } from './axe.ts';
import { explainFailure, launchBrowser, openPage } from './browser.ts';
import { logInWithForm } from './members.ts';
import { moveClock, platform } from './platform.ts';

const tag = randomUUID().slice(0, 6);
const HOUR = 3600_000;

// 0.09° of latitude is 10 km, 1.35° is 150 km.
const BASE: Place = { city: 'Noordzeedorp', latitude: 54.5, longitude: 4 };
const NEAR: Place = { city: 'Zandbank', latitude: 54.59, longitude: 4 };
const FAR: Place = { city: 'Doggersbank', latitude: 55.85, longitude: 4 };

interface NewListing {
  title: string;
  description?: string;
  value?: number;
  type?: 'item' | 'service';
  acceptsItems?: boolean;
  premium?: boolean;
  categories: string[];
}

const photo = new Blob([new Uint8Array(png(64, 48, [31, 122, 77]))], { type: 'image/png' });

function formOf(listing: NewListing): FormData {
  const form = new FormData();
  form.set('title', listing.title);
  form.set('description', listing.description ?? `${listing.title}: netjes en compleet, op te halen in de buurt.`);
  if (listing.value !== undefined) form.set('initialValue', String(listing.value));
  form.set('isPremium', String(listing.premium ?? false));
  form.set('listingType', listing.type ?? 'item');
  form.set('acceptsItems', String(listing.acceptsItems ?? false));
  for (const id of listing.categories) form.append('CategoryIDs', id);
  return form;
}

async function createListing(owner: Account, listing: NewListing): Promise<Placed> {
  const form = formOf(listing);
  form.append('images', photo, 'foto.png');
  // The member's rights arrive with auth's events: a premium listing may be refused until they have.
  let last = '';
  try {
    return await eventually(`create ${listing.title}`, async () => {
      const { status, body } = await call<{ listing?: Placed }>('/api/listing/create', { method: 'POST', body: form, token: owner.token });
      if (status === 201) return { ...body.listing!, owner };
      last = `${status} ${JSON.stringify(body)}`;
      if (status >= 500 || status === 401) throw new Error(`create ${listing.title}: ${last}`);
      return undefined;
    });
  } catch (err) {
    throw new Error(`${(err as Error).message} (last answer: ${last})`, { cause: err });
  }
}

let mongo: MongoClient;
let browser: Browser;

async function makePremium(who: Account): Promise<void> {
  const done = await mongo.db('auth').collection('users').updateOne({ email: who.email }, { $set: { roles: ['Gebruiker', 'Premium'] } });
  expect(done.matchedCount, `user ${who.email} in auth.users`).toBe(1);
}

interface Category {
  id: string;
  name: string;
  isPremium: boolean;
}

// The cast: the viewer (standard) and a premium member at BASE, two (premium) owners 10 km away, one
// 150 km away, and a member without a place. Two owners near: each member may write 30 listings in
// 10 minutes.
let viewer: Account;
let premium: Account;
let owner: Account;
let bookseller: Account;
let faraway: Account;
let placeless: Account;
let categories: Category[];
const ids: Record<string, string> = {};
const title = (name: string) => `${name} ${tag}`;

const FIETS = title('Fiets');
const GITAARLES = title('Gitaarles');
const OPPASSEN = title('Oppassen');
const CAMERA = title('Camera');
const BANK = title('Bank');
const LAMP = title('Lamp');
const VINYL = title('Vinyl');
const BIJLES = title('Bijles');
const MAIN = [FIETS, GITAARLES, OPPASSEN, CAMERA, BANK, LAMP, VINYL, BIJLES];
const FILLERS = 16;

beforeAll(async () => {
  mongo = await MongoClient.connect(platform().mongoUrl);
  browser = await launchBrowser();
  [viewer, premium, owner, bookseller, faraway, placeless] = (await Promise.all(['Vera', 'Pim', 'Olga', 'Otto', 'Femke', 'Wout'].map(account))) as [Account, Account, Account, Account, Account, Account];
  // Premium first: the place's event then carries the role to the listing service.
  await Promise.all([premium, owner, bookseller].map(makePremium));
  await Promise.all([setPlace(viewer, BASE), setPlace(premium, BASE), setPlace(owner, NEAR), setPlace(bookseller, NEAR), setPlace(faraway, FAR)]);

  const listed = await call<Category[]>('/api/category');
  categories = listed.body.filter((c) => !c.isPremium);
  expect(categories.length).toBeGreaterThanOrEqual(3);
  const [cat1, cat2, cat3] = categories as [Category, Category, Category];

  const longText = Array.from({ length: 8 }, (_, i) => `Regel ${i + 1}: de fiets heeft nieuwe banden en een goed slot.`).join('\n');
  // Placed seven hours ago by the platform clock: past the six hours in which only Premium members see them.
  await placeEarlier(7, async (place) => {
    const placed = (owner: Account, listing: NewListing) => place(() => createListing(owner, listing));
    ids.fiets = await placed(owner, { title: FIETS, description: longText, value: 50, categories: [cat1.id] });
    ids.gitaarles = await placed(owner, { title: GITAARLES, value: 30, type: 'service', acceptsItems: true, categories: [cat2.id] });
    ids.oppassen = await placed(owner, { title: OPPASSEN, value: 20, type: 'service', acceptsItems: false, categories: [cat2.id] });
    ids.camera = await placed(owner, { title: CAMERA, value: 900, categories: [cat1.id] });
    ids.bank = await placed(faraway, { title: BANK, value: 45, categories: [cat1.id] });
    ids.vinyl = await placed(premium, { title: VINYL, value: 60, premium: true, categories: [cat1.id] });
    ids.bijles = await placed(premium, { title: BIJLES, value: 15, type: 'service', categories: [cat2.id] });
    // Without a value; left out of the title checks, as whether a value filter keeps it is the search's call.
    ids.kast = await placed(owner, { title: title('Kast'), categories: [cat1.id] });
  });
  // Fresh, so seen by Premium members only, and above the default value range: out of every other check.
  for (let i = 1; i <= FILLERS; i++) await createListing(bookseller, { title: title(`Boek ${String(i).padStart(2, '0')}`), value: 200, categories: [cat3.id] });
  // Fresh: only Premium members (and its owner) see it.
  ids.lamp = (await createListing(owner, { title: LAMP, value: 10, categories: [cat1.id] })).id;

  // Every place has reached the listing service once the viewer sees both owners' listings at their distance.
  let seen = '';
  await eventually('the places in the listing service', async () => {
    const { status, body } = await call<Array<{ title: string; distanceInKm: number | null }>>(`/api/listing?distanceKm=200&take=50`, { token: viewer.token });
    seen = `${status} ${JSON.stringify(Array.isArray(body) ? body.map((l) => [l.title, l.distanceInKm]) : body)}`;
    if (status !== 200) return undefined;
    const near = body.find((l) => l.title === FIETS);
    const far = body.find((l) => l.title === BANK);
    return near?.distanceInKm === 10 && far !== undefined && Math.round(far.distanceInKm ?? 0) === 150;
  }).catch(async (err: Error) => {
    // What the store and the detail route say of the first listing, beside what the search said.
    const detail = await call(`/api/listing/${ids.fiets}`, { token: viewer.token });
    const doc = await mongo.db('listing').collection('listings').findOne({ _id: ids.fiets as never }, { projection: { createdAt: 1, version: 1, latitude: 1, longitude: 1, active: 1 } });
    throw new Error(`${err.message}; the viewer's search answered ${seen}; ${FIETS}: detail ${detail.status}, stored ${JSON.stringify(doc)}`, { cause: err });
  });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await mongo?.close();
});

let context: BrowserContext | undefined;
let page: Page;
beforeEach((test) => explainFailure(test, () => page));

/** A fresh context logged in as `who`, map tiles refused (no outside network in a test). */
async function as(who: Account): Promise<Page> {
  await context?.close();
  ({ context, page } = await openPage(browser));
  await context.route(/^https:\/\/tile\./, (route) => route.abort());
  trackRequests(page);
  await logInWithForm(page, who);
  return page;
}

const area = () => page.locator('[data-testid="remote-area"]');
const cards = () => area().locator('[data-testid="listing-card"]');

/** The titles of this run's main listings among the cards shown, sorted. */
async function shownTitles(): Promise<string[]> {
  const titles = await cards().locator('h3').allInnerTexts();
  return titles.filter((t) => MAIN.includes(t)).sort();
}

async function expectShown(expected: string[]): Promise<void> {
  await expect.poll(shownTitles, { timeout: 15_000 }).toEqual([...expected].sort());
}

const card = (name: string) => cards().filter({ has: page.getByRole('heading', { name, exact: true }) });
const query = () => new URL(page.url()).searchParams;
/** The text shown, with the no-break spaces of Dutch amounts as plain spaces. */
const textOf = async (locator: Locator) => (await locator.innerText()).replace(/[ \u00a0]+/g, ' ');

describe('the search page', () => {
  it('shows nearby listings within the default value range, and filters by distance, value, kind and category', async () => {
    await as(viewer);
    await page.goto('/dashboard/search');
    await area().getByRole('heading', { name: 'Zoeken', level: 1 }).waitFor();
    await page.getByTestId('search-map').waitFor();
    // Leaflet draws the map, its stylesheet in the page once (from @ruilplein/ui's loader; it was in two bundles).
    await area().locator('[data-testid="search-map"].leaflet-container').waitFor();
    const leafletSheets = await page.evaluate(() => {
      type Sheet = { cssRules: ArrayLike<{ cssText: string }> };
      const sheets = Array.from((globalThis as unknown as { document: { styleSheets: ArrayLike<Sheet> } }).document.styleSheets);
      return sheets.filter((sheet) => Array.from(sheet.cssRules).some((rule) => rule.cssText.startsWith('.leaflet-pane'))).length;
    });
    expect(leafletSheets).toBe(1);
    // 25 km and 0 to 100 euro: not the camera (900), not the far bank, not the fresh lamp, not the premium vinyl.
    await expectShown([FIETS, GITAARLES, OPPASSEN, BIJLES]);
    const fiets = card(FIETS);
    expect(await textOf(fiets)).toContain('10 km · Zandbank');
    expect(await textOf(fiets)).toContain('€ 50,00');
    // The owner's reliability line, asked once for the page's owners (issue 24): no offers yet.
    await expect.poll(() => fiets.getByTestId('card-reliability').innerText(), { timeout: 15_000 }).toBe('Nieuw lid');
    expect(await fiets.getByText('Item', { exact: true }).count()).toBe(1);
    expect(await card(GITAARLES).getByText('Accepteert ook spullen').count()).toBe(1);
    expect(await card(OPPASSEN).getByText('Alleen diensten').count()).toBe(1);

    // Distance to 200 km with the keyboard: the address follows once the slider rests.
    await area().getByLabel(/^Afstand/).focus();
    await page.keyboard.press('End');
    await expect.poll(() => query().get('distance'), { timeout: 15_000 }).toBe('200');
    await expectShown([FIETS, GITAARLES, OPPASSEN, BIJLES, BANK]);
    expect(await textOf(card(BANK))).toContain('150 km · Doggersbank');

    // No maximum value: the camera too.
    await area().getByLabel('Maximaal').focus();
    await page.keyboard.press('End');
    await expect.poll(() => query().get('maxValue'), { timeout: 15_000 }).toBe('5000');
    await expectShown([FIETS, GITAARLES, OPPASSEN, BIJLES, BANK, CAMERA]);

    // A minimum of 40 euro.
    await area().getByLabel('Minimaal').focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    await expect.poll(() => query().get('minValue'), { timeout: 15_000 }).toBe('40');
    await expectShown([FIETS, BANK, CAMERA]);
    await area().getByLabel('Minimaal').focus();
    await page.keyboard.press('Home');
    await expectShown([FIETS, GITAARLES, OPPASSEN, BIJLES, BANK, CAMERA]);

    await area().getByRole('radio', { name: 'Diensten' }).check();
    await expectShown([GITAARLES, OPPASSEN, BIJLES]);
    expect(query().get('type')).toBe('service');
    await area().getByRole('radio', { name: 'Items' }).check();
    await expectShown([FIETS, BANK, CAMERA]);
    await area().getByRole('radio', { name: 'Beide' }).check();

    // The category list narrows as one types; a chosen category filters.
    const [cat1, cat2] = categories as [Category, Category];
    await area().getByLabel('Zoek een categorie').fill(cat2.name);
    await expect.poll(() => area().locator('[data-testid="category"]').count(), { timeout: 15_000 }).toBeLessThan(categories.length);
    await area().getByRole('checkbox', { name: cat2.name, exact: true }).check();
    await expectShown([GITAARLES, OPPASSEN, BIJLES]);
    expect(query().get('categories')).toBe(cat2.id);

    // A reload keeps every filter.
    await page.reload();
    await expectShown([GITAARLES, OPPASSEN, BIJLES]);
    expect(await area().getByLabel(/^Afstand/).inputValue()).toBe('200');
    expect(await area().getByLabel('Maximaal').inputValue()).toBe('5000');
    expect(await area().getByRole('checkbox', { name: cat2.name, exact: true }).isChecked()).toBe(true);
    await area().getByRole('button', { name: 'Alle categorieën tonen' }).click();
    await area().getByRole('checkbox', { name: cat1.name, exact: true }).check();
    await expectShown([FIETS, BANK, CAMERA]);

    await settle(page);
    await expectAccessible(page, '/dashboard/search with results');
  });

  it("on a phone (390x844) puts the filters behind 'Filters (n)' with the result count, the results on the first screen; wider screens as before", async () => {
    await as(viewer);
    await page.setViewportSize({ width: 390, height: 844 });
    const cat1 = categories[0]!;
    // Three filters differ from the defaults: distance, kind and a category.
    await page.goto(`/dashboard/search?distance=200&type=item&categories=${cat1.id}`);
    const toggle = area().getByRole('button', { name: 'Filters (3)' });
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await cards().first().waitFor();
    // The count beside the button is the result list's own.
    const status = area().getByRole('status').filter({ hasText: /listings?/ });
    await expect.poll(async () => (await area().getByTestId('phone-result-count').innerText()).trim(), { timeout: 15_000 }).toBe((await status.innerText()).trim());
    const slider = area().getByLabel(/^Afstand/);
    expect(await slider.isVisible(), 'the filters wait behind the button').toBe(false);
    const top = (await cards().first().boundingBox())!.y;
    expect(top, `the first result starts on the first screen (at ${top} px)`).toBeLessThan(844 - 100);
    await settle(page);
    await expectAccessible(page, '/dashboard/search on a phone, filters closed');

    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await slider.waitFor();
    await area().getByRole('radio', { name: 'Beide' }).check();
    await area().getByRole('button', { name: 'Filters (2)' }).waitFor();
    await expectAccessible(page, '/dashboard/search on a phone, filters open');
    await area().getByRole('button', { name: 'Filters (2)' }).click();
    await slider.waitFor({ state: 'hidden' });

    // A desktop screen: the filters beside the results, no button.
    await page.setViewportSize({ width: 1280, height: 800 });
    await slider.waitFor();
    expect(await area().getByRole('button', { name: /^Filters/ }).isVisible()).toBe(false);
    expect(await area().getByTestId('phone-result-count').isVisible()).toBe(false);
  });

  it("says 'Geen listings gevonden.' when nothing is in reach", async () => {
    await as(viewer);
    // Within 5 km only the premium member's vinyl (hidden) and service.
    await page.goto('/dashboard/search?distance=5&type=item');
    await area().getByText('Geen listings gevonden.').waitFor();
    expect(await cards().count()).toBe(0);
  });

  it("pages by 15 with 'Laad meer'", async () => {
    await as(premium);
    const cat3 = categories[2]!;
    await page.goto(`/dashboard/search?maxValue=5000&categories=${cat3.id}`);
    await expect.poll(() => cards().count(), { timeout: 15_000 }).toBe(15);
    await area().getByRole('button', { name: 'Laad meer' }).click();
    await expect.poll(() => cards().count(), { timeout: 15_000 }).toBe(FILLERS);
    expect(await area().getByRole('button', { name: 'Laad meer' }).count(), 'the last page was not full').toBe(0);
    const titles = await cards().locator('h3').allInnerTexts();
    expect(new Set(titles).size, 'no card twice').toBe(FILLERS);
  });

  it('hides premium-only and fresh listings from a standard member, and shows them to a Premium one', async () => {
    await as(viewer);
    for (const id of [ids.vinyl, ids.lamp]) {
      await page.goto(`/dashboard/listing/${id}`);
      await area().getByText('Listing niet gevonden.').waitFor();
    }
    await page.goto('/dashboard/search?premium=true');
    await area().getByText('Geen listings gevonden.').waitFor();
    expect(await area().getByText('Premium-listings zie je als Premium-lid.').count()).toBe(1);

    await as(premium);
    await page.goto('/dashboard/search');
    await expectShown([FIETS, GITAARLES, OPPASSEN, BIJLES, LAMP, VINYL]);
    const vinyl = card(VINYL);
    expect(await vinyl.getByText('Jouw listing!').count()).toBe(1);
    expect(await vinyl.getByText('Premium', { exact: true }).count()).toBe(1);
    expect(await card(FIETS).getByText('Jouw listing!').count()).toBe(0);
    await area().getByLabel('Premium', { exact: true }).selectOption('true');
    await expectShown([VINYL]);
    expect(query().get('premium')).toBe('true');
  });

  it('shows the hint to set a city to a member without a place', async () => {
    await as(placeless);
    await page.goto('/dashboard/search');
    const hint = area().getByTestId('place-hint');
    await hint.waitFor();
    expect(await hint.getByRole('link').getAttribute('href')).toBe('/dashboard/profile');
    expect(await page.getByTestId('search-map').count()).toBe(0);
  });
});

describe('the listing detail', () => {
  it("shows someone else's listing with distance, wishlist heart, read more, value, owner, offer and report", async () => {
    await as(viewer);
    await page.goto('/dashboard/search');
    await card(FIETS).getByRole('link', { name: FIETS }).click();
    await page.waitForURL(`**/dashboard/listing/${ids.fiets}`);
    await area().getByRole('heading', { name: FIETS, level: 1 }).waitFor();
    expect(await textOf(area().getByTestId('listing-distance'))).toContain('10 km · Zandbank');
    expect(await area().getByTestId('carousel-counter').innerText()).toBe('1 / 1');
    expect(await area().getByText('Premium Listing').count()).toBe(0);
    expect(await textOf(area().locator('dd').first())).toBe('€ 50,00');
    expect(await area().getByText('Jouw listing!').count()).toBe(0);
    expect(await area().getByRole('link', { name: 'Bewerken' }).count()).toBe(0);
    const ownerLink = area().getByRole('link', { name: `${owner.firstName} ${owner.lastName}` });
    expect(await ownerLink.getAttribute('href')).toBe(`/dashboard/user/${owner.id}`);
    expect(await area().getByRole('link', { name: 'Doe een aanbod!' }).getAttribute('href')).toBe(`/dashboard/listing/${ids.fiets}/offer`);
    const year = String(new Date().getFullYear());
    expect(await area().innerText()).toMatch(new RegExp(`\\d{1,2} [a-z]+ ${year}`));

    // Eight lines: cut at four, then whole.
    const more = area().getByRole('button', { name: 'Lees meer' });
    await more.waitFor();
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    await more.click();
    await area().getByRole('button', { name: 'Lees minder' }).waitFor();

    // The heart: a toggle button; its state is the server's, after a reload too.
    const heart = area().getByRole('button', { name: 'Verlanglijstje' });
    await expect.poll(() => heart.getAttribute('aria-pressed'), { timeout: 15_000 }).toBe('false');
    await heart.click();
    await area().getByText('✅ Toegevoegd aan wishlist').waitFor();
    expect(await heart.getAttribute('aria-pressed')).toBe('true');
    await page.reload();
    await expect.poll(() => heart.getAttribute('aria-pressed'), { timeout: 15_000 }).toBe('true');
    const mine = await call<Array<{ listing: { id: string } }>>('/api/wishlist/my', { token: viewer.token });
    expect(mine.body.map((entry) => entry.listing.id)).toContain(ids.fiets);
    await heart.click();
    await area().getByText('✅ Verwijderd uit wishlist').waitFor();
    expect(await heart.getAttribute('aria-pressed')).toBe('false');

    // Reporting: a dialog with a reason, sent to moderation, then thanks; Escape closes it.
    await area().getByRole('button', { name: 'Rapporteren' }).click();
    const dialog = page.getByRole('dialog', { name: 'Listing rapporteren' });
    await dialog.waitFor();
    await dialog.getByLabel('Reden').fill('Dit lijkt geen echte fiets.');
    await settle(page);
    await expectAccessible(page, '/dashboard/listing/:id with the report dialog');
    await dialog.getByRole('button', { name: 'Versturen' }).click();
    await dialog.getByRole('status').getByText(MODERATION_MESSAGES.reportSent).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count(), { timeout: 15_000 }).toBe(0);
    expect(await page.evaluate('document.activeElement?.textContent?.trim()')).toBe('Rapporteren');
  });

  it("shows the member's own listing with 'Jouw listing!' and an edit link, and a premium one with its label", async () => {
    await as(premium);
    await page.goto(`/dashboard/listing/${ids.vinyl}`);
    await area().getByRole('heading', { name: VINYL, level: 1 }).waitFor();
    expect(await area().getByText('Premium Listing').count()).toBe(1);
    expect(await area().getByText('Jouw listing!').count()).toBe(1);
    expect(await area().getByRole('link', { name: 'Bewerken' }).getAttribute('href')).toBe(`/dashboard/edit-listing/${ids.vinyl}`);
    expect(await area().getByRole('button', { name: 'Verlanglijstje' }).count()).toBe(0);
    expect(await area().getByRole('link', { name: 'Doe een aanbod!' }).count()).toBe(0);

    await page.goto(`/dashboard/listing/${ids.kast}`);
    await area().getByText('Geen waarde opgegeven').waitFor();
  });

  it("says 'Listing niet gevonden.' in red for an unknown listing", async () => {
    await as(viewer);
    await page.goto('/dashboard/listing/000000000000000000000000');
    const failure = area().getByRole('alert');
    await failure.getByText('Listing niet gevonden.').waitFor();
    // In the page (these tests are type-checked without the DOM's types).
    const colour = await failure.evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(el).color);
    expect(colour).toBe('rgb(179, 38, 30)');
  });
});

describe('the services page', () => {
  it('shows services only, filtered by barter policy, with their badges', async () => {
    await as(viewer);
    await page.goto('/dashboard/services');
    await area().getByRole('heading', { name: 'Ruil-diensten', level: 1 }).waitFor();
    await expectShown([GITAARLES, OPPASSEN, BIJLES]);
    expect(await card(GITAARLES).getByText('Diensten + spullen').count()).toBe(1);
    expect(await card(OPPASSEN).getByText('Alleen diensten').count()).toBe(1);
    const all = area().getByRole('button', { name: 'Alle diensten' });
    expect(await all.getAttribute('aria-pressed')).toBe('true');

    const only = area().getByRole('button', { name: 'Alleen diensten ↔ diensten' });
    await only.click();
    await expectShown([OPPASSEN, BIJLES]);
    expect(await only.getAttribute('aria-pressed')).toBe('true');
    expect(query().get('barter')).toBe('services_only');

    await area().getByRole('button', { name: 'Diensten ↔ óók spullen toegestaan' }).click();
    await expectShown([GITAARLES]);
    expect(query().get('barter')).toBe('services_or_items');

    await page.goto('/dashboard/services?distance=5');
    await expectShown([BIJLES]);
    await settle(page);
    await expectAccessible(page, '/dashboard/services with results');
  });

  it("marks the member's own service with 'Jouw dienst'", async () => {
    await as(premium);
    await page.goto('/dashboard/services');
    await expectShown([GITAARLES, OPPASSEN, BIJLES]);
    expect(await card(BIJLES).getByText('Jouw dienst').count()).toBe(1);
    expect(await card(GITAARLES).getByText('Jouw dienst').count()).toBe(0);
  });
});

describe("the dashboard's 'Trending in je buurt'", () => {
  it('shows listings within the chosen radius, six a page', async () => {
    // The Premium member: the sixteen fresh books are theirs to see, so there is more than a page.
    await as(premium);
    await page.goto('/dashboard');
    const section = page.locator('section[aria-labelledby="trending"]');
    await section.getByRole('heading', { name: 'Trending in je buurt' }).waitFor();
    const trending = section.getByTestId('trending-card');
    // 5 km (the default) holds nothing: the owner is 10 km away. So the dashboard looks as far as 25 km, and says so (issue 27).
    await section.getByTestId('trending-widened').waitFor();
    expect(await section.getByRole('radio', { name: '25 km', exact: true }).isChecked()).toBe(true);
    await section.getByRole('radio', { name: '25 km', exact: true }).check();
    await expect.poll(() => trending.count(), { timeout: 15_000 }).toBe(6);
    await section.getByRole('button', { name: 'Laad meer' }).click();
    await expect.poll(() => trending.count(), { timeout: 15_000 }).toBe(12);
    const first = trending.first();
    const link = first.getByRole('link', { name: /^Bekijken: / });
    expect(await link.getAttribute('href')).toMatch(/^\/dashboard\/listing\/[0-9a-f]{24}$/);
    expect(await first.innerText()).toMatch(/\d+ km|< 1 km/);
  });

  it('asks a member without a place to set one', async () => {
    await as(placeless);
    await page.goto('/dashboard');
    const hint = page.getByTestId('trending-place-hint');
    await hint.waitFor();
    expect(await hint.getByRole('link', { name: 'je profiel' }).getAttribute('href')).toBe('/dashboard/profile');
  });
});

describe('the head start ends by the platform clock', () => {
  // Last in this file: the clock is put back after it, and nothing later counts on the lamp being fresh.
  it('shows a fresh listing to a standard member once the clock has moved seven hours: its page and the search', async () => {
    await as(viewer);
    await page.goto(`/dashboard/listing/${ids.lamp}`);
    await area().getByText('Listing niet gevonden.').waitFor();
    const before = await clockOffset();
    await moveClock(before + 7 * HOUR);
    try {
      // Every service reads the clock again within 200 ms: wait for the effect, not for a time.
      await expect.poll(async () => (await call(`/api/listing/${ids.lamp}`, { token: viewer.token })).status, { timeout: 15_000 }).toBe(200);
      await page.goto(`/dashboard/listing/${ids.lamp}`);
      await area().getByRole('heading', { name: LAMP, level: 1 }).waitFor();
      // 25 km and 0 to 100 euro, as in the first search: now with the lamp (10 km, 10 euro).
      await page.goto('/dashboard/search');
      await expectShown([FIETS, GITAARLES, OPPASSEN, BIJLES, LAMP]);
    } finally {
      await moveClock(before);
    }
  });
});
