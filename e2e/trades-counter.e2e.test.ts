// A counter-offer round trip in two browsers (issue 24's "Done when"): Anna makes an offer on Bram's
// listing; Bram opens it (Anna's reliability line in the header), reaches 'Tegenbod doen' with the
// keyboard, finds the offer's items in the builder with the roles swapped, changes them, is told
// that the original will be rejected, and sends; he lands on the new offer. Anna sees the original
// as Afgewezen with a link to the counter, opens it and accepts it. axe on every page on the way.
// Screenshots for the closing note: /tmp/h31/shots/counter-*.png.
import { mkdir } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OFFER_MESSAGES, type Offer } from '@ruilplein/contracts/browser';
import { account, call, createListing, json, openCategory, type Account } from './api.ts';
import { describeLesserFindings, expectAccessible, lesserFindings } from './axe.ts';
import { explainFailure, launchBrowser, openPage } from './browser.ts';
import { logInWithForm } from './members.ts';

const tag = randomUUID().slice(0, 6);
const SHOTS = '/tmp/h31/shots';
const BOOR = `Boormachine ${tag}`;
const TENT = `Tent ${tag}`;
const FIETS = `Racefiets ${tag}`;
const BOEK = `Kookboek ${tag}`;
const ids = { boor: '', tent: '', fiets: '', boek: '' };

let browser: Browser;
let anna: Account;
let bram: Account;
const pages = new Map<string, Page>();
const pageOf = (who: Account) => pages.get(who.id)!;
let current: Page | undefined;
let offerId = 0;
let counterId = 0;

// Run in the page (this file is type-checked without the DOM's types).
type InPage = { document: { activeElement: unknown } };
const hasFocus = (locator: Locator) => locator.evaluate((element) => (globalThis as unknown as InPage).document.activeElement === element);
const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
/** The titles of the items in one of the offer's zones, in their order. */
const zoneTitles = async (zone: Locator) => (await zone.getByRole('button').allInnerTexts()).map((text) => text.replace(/\s*verwijderen\s*$/, '').trim());

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  browser = await launchBrowser();
  [anna, bram] = (await Promise.all(['Anna', 'Bram'].map(account))) as [Account, Account];
  const category = await openCategory();
  ids.boor = await createListing(undefined, category, bram, BOOR);
  ids.tent = await createListing(undefined, category, bram, TENT);
  ids.fiets = await createListing(undefined, category, anna, FIETS);
  ids.boek = await createListing(undefined, category, anna, BOEK);
  for (const who of [anna, bram]) {
    const { page } = await openPage(browser);
    pages.set(who.id, page);
    await logInWithForm(page, who);
  }
});
afterAll(async () => {
  await browser?.close();
  if (lesserFindings.size > 0) console.log(`[e2e] moderate and minor accessibility findings (not failed on):\n${describeLesserFindings()}`);
});
beforeEach((test) => explainFailure(test, () => current));

describe('a counter-offer round trip in two browsers', () => {
  it('Anna offers her bike for Bram’s drill', async () => {
    const made = await call<Offer>('/api/tradeoffer/create', {
      ...json({ senderID: anna.id, receiverID: bram.id, listingOfferedOnID: ids.boor, message: 'Mijn fiets voor je boormachine?', items: [{ listingID: ids.fiets, userID: anna.id }] }),
      token: anna.token,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ status: 'Pending', counterOf: null, counteredBy: null });
    offerId = made.body.id;
  });

  it('Bram reaches “Tegenbod doen” with the keyboard; the builder holds the offer’s items, the roles swapped', async () => {
    expect(offerId, 'the offer of the first test').toBeGreaterThan(0);
    const page = (current = pageOf(bram));
    await page.goto(`/dashboard/tradeoffer/${offerId}`);
    await page.getByText('Aanbod van').waitFor();
    // Anna's reliability: she has no history yet.
    expect(await page.getByTestId('reliability').innerText()).toMatch(/^Nieuw lid\s+Hoe berekenen we dit\?$/);
    expect(await page.getByTestId('reliability').getByRole('link', { name: 'Hoe berekenen we dit?' }).getAttribute('href')).toBe('/ruilregels#betrouwbaarheid');
    const counter = page.getByRole('button', { name: 'Tegenbod doen', exact: true });
    await counter.waitFor();
    await expectAccessible(page, '/dashboard/tradeoffer/:id received, with Tegenbod doen');
    await page.screenshot({ path: `${SHOTS}/counter-received-offer.png` });

    // The keyboard: from Afwijzen, Tab reaches it and Enter opens the builder.
    await page.getByRole('button', { name: 'Afwijzen', exact: true }).focus();
    await page.keyboard.press('Tab');
    expect(await hasFocus(counter)).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Tegenbod aan ${anna.firstName} ${anna.lastName}` }).waitFor();
    expect(new URL(page.url()).search).toBe('?tegenbod=1');
    const theirs = region(page, 'Items van Tegenpartij');
    const theirZone = region(page, 'Zij bieden aan');
    const myZone = region(page, 'Jij biedt aan');
    await theirs.getByRole('button', { name: BOEK, exact: true }).waitFor();
    // Anna's bike is now asked for, Bram's drill given.
    expect(await zoneTitles(theirZone)).toEqual([FIETS]);
    expect(await zoneTitles(myZone)).toEqual([BOOR]);
    await page.getByTestId('counter-warning').getByText('Je tegenbod vervangt dit aanbod: het huidige aanbod wordt afgewezen.', { exact: false }).waitFor();
    await expectAccessible(page, '/dashboard/tradeoffer/:id?tegenbod=1, the counter-offer builder');
    await page.screenshot({ path: `${SHOTS}/counter-builder.png`, fullPage: true });

    // Back to the offer and in again: the browser's back button leaves the builder.
    await page.goBack();
    await counter.waitFor();
    await counter.click();
    await theirZone.getByRole('button', { name: `${FIETS} verwijderen` }).waitFor();
  });

  it('without any of Anna’s items the counter is not sent; with changed items and a message it is, after the warning', async () => {
    const page = (current = pageOf(bram));
    const theirs = region(page, 'Items van Tegenpartij');
    const mine = region(page, 'Jouw Items');
    const theirZone = region(page, 'Zij bieden aan');
    const myZone = region(page, 'Jij biedt aan');
    // Nothing of Anna's: the rule's own message, nothing sent.
    await theirZone.getByRole('button', { name: `${FIETS} verwijderen` }).click();
    await page.getByRole('button', { name: 'Tegenbod versturen', exact: true }).click();
    await page.getByTestId('offer-problem').filter({ hasText: OFFER_MESSAGES.counterNeedsTheirItem }).waitFor();
    expect(await page.getByRole('alertdialog').count()).toBe(0);

    // Bram asks for the cookbook instead, and gives his tent as well as the drill.
    await theirs.getByRole('button', { name: BOEK, exact: true }).click();
    await mine.getByRole('button', { name: TENT, exact: true }).click();
    expect(await zoneTitles(theirZone)).toEqual([BOEK]);
    expect(await zoneTitles(myZone)).toEqual([BOOR, TENT]);
    await page.getByLabel('Bericht bij je tegenbod (optioneel):').fill('Liever je kookboek, ik doe de tent erbij.');

    // The warning first: cancelled, nothing happens.
    const send = page.getByRole('button', { name: 'Tegenbod versturen', exact: true });
    await send.click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(`Je tegenbod vervangt dit aanbod: het huidige aanbod (Ruilaanbieding #${offerId}) wordt afgewezen.`, { exact: false }).waitFor();
    await expectAccessible(page, '/dashboard/tradeoffer/:id?tegenbod=1 asking before sending');
    await dialog.getByRole('button', { name: 'Annuleren', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await call<Offer>(`/api/tradeoffer/${offerId}`, { token: bram.token })).body.status).toBe('Pending');

    await send.click();
    await dialog.getByRole('button', { name: 'Tegenbod versturen', exact: true }).click();
    await page.waitForURL(/\/dashboard\/tradeoffer\/\d+$/);
    counterId = Number(/(\d+)$/.exec(page.url())![1]);
    expect(counterId).not.toBe(offerId);
    await page.getByRole('heading', { name: `Ruilaanbieding #${counterId}` }).waitFor();
    await page.getByTestId('counter-sent-success').filter({ hasText: `Je tegenbod is verstuurd. Ruilaanbieding #${offerId} is afgewezen.` }).waitFor();
    await page.getByText('Aanbod naar').waitFor();
    expect(await page.getByRole('link', { name: `Tegenbod op Ruilaanbieding #${offerId}`, exact: true }).getAttribute('href')).toBe(`/dashboard/tradeoffer/${offerId}`);
    await page.getByTestId('panel-requested').getByText(BOEK, { exact: true }).waitFor();
    await page.getByTestId('panel-offered').getByText(TENT, { exact: true }).waitFor();
    expect(await page.getByTestId('offer-message').innerText()).toBe('Liever je kookboek, ik doe de tent erbij.');
    await page.getByTestId('offer-status').filter({ hasText: 'In afwachting' }).waitFor();
    await expectAccessible(page, '/dashboard/tradeoffer/:id a sent counter-offer');

    const sent = await call<Offer>(`/api/tradeoffer/${counterId}`, { token: bram.token });
    expect(sent.body).toMatchObject({ senderID: bram.id, receiverID: anna.id, status: 'Pending', counterOf: offerId, counteredBy: null, listingOfferedOnID: ids.boek });
    expect(sent.body.offeredListings.map((i) => i.title).sort()).toEqual([BOOR, TENT].sort());
  });

  it('Anna sees her offer as Afgewezen with the link to the counter, opens it and accepts it', async () => {
    expect(counterId, 'the counter of the test before').toBeGreaterThan(0);
    const page = (current = pageOf(anna));
    await page.goto(`/dashboard/tradeoffer/${offerId}`);
    await page.getByTestId('offer-status').filter({ hasText: 'Afgewezen' }).waitFor();
    await page.getByTestId('counter-links').getByText('Dit aanbod is afgewezen met een tegenbod.').waitFor();
    // Bram's line, and no way to counter one's own (or a closed) offer.
    await page.getByTestId('reliability').waitFor();
    expect(await page.getByRole('button', { name: 'Tegenbod doen' }).count()).toBe(0);
    await expectAccessible(page, '/dashboard/tradeoffer/:id countered');
    await page.screenshot({ path: `${SHOTS}/counter-original-rejected.png` });
    const original = await call<Offer>(`/api/tradeoffer/${offerId}`, { token: anna.token });
    expect(original.body).toMatchObject({ status: 'Rejected', counteredBy: counterId });

    await page.getByRole('link', { name: `Tegenbod: Ruilaanbieding #${counterId}`, exact: true }).click();
    await page.waitForURL(`**/dashboard/tradeoffer/${counterId}`);
    await page.getByText('Aanbod van').waitFor();
    await page.getByTestId('panel-offered').getByText(BOOR, { exact: true }).waitFor();
    await page.getByRole('link', { name: `Tegenbod op Ruilaanbieding #${offerId}`, exact: true }).waitFor();
    await page.getByRole('button', { name: 'Tegenbod doen', exact: true }).waitFor();
    await expectAccessible(page, '/dashboard/tradeoffer/:id a received counter-offer');

    await page.getByRole('button', { name: 'Accepteren', exact: true }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Weet je zeker dat je dit aanbod wilt accepteren?').waitFor();
    await dialog.getByRole('button', { name: 'Accepteren', exact: true }).click();
    await page.getByTestId('offer-status').filter({ hasText: 'Geaccepteerd' }).waitFor();
    await page.getByRole('button', { name: 'Ruil bevestigen' }).waitFor();
    expect(await page.getByRole('button', { name: 'Tegenbod doen' }).count()).toBe(0);
    await expectAccessible(page, '/dashboard/tradeoffer/:id an accepted counter-offer');
    expect((await call<Offer>(`/api/tradeoffer/${counterId}`, { token: anna.token })).body.status).toBe('Accepted');
  });
});
