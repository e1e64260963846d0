// The offer page on a phone (390x844, issue 27): the chat sits at the end of a long page, so a
// 'Chat met …' button stays in view; it is reached with the keyboard before the offer's items, and
// Enter takes the focus into the chat's message field. On a wide screen there is no such button.
// Screenshots before and after: /tmp/h27/shots/offer-phone-*.png (for the closing note).
import { mkdir } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { account, call, createListing, json, openCategory, type Account } from './api.ts';
import { describeLesserFindings, expectAccessible, lesserFindings } from './axe.ts';
import { explainFailure, launchBrowser, openPage } from './browser.ts';
import { logInWithForm } from './members.ts';
import { platform } from './platform.ts';

const tag = randomUUID().slice(0, 6);
const SHOTS = '/tmp/h27/shots';
const PHONE = { width: 390, height: 844 };

let mongo: MongoClient;
let browser: Browser;
let anna: Account;
let bram: Account;
let offerId = 0;
let page: Page;

// Run in the page (this file is type-checked without the DOM's types).
type InPage = { document: { activeElement: unknown } };
const hasFocus = (locator: Locator) => locator.evaluate((element) => (globalThis as unknown as InPage).document.activeElement === element);
/** Whether the element lies wholly inside the window now. */
const inWindow = async (locator: Locator) => {
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  return !!box && box.y >= 0 && box.y + box.height <= size.height && box.x >= 0 && box.x + box.width <= size.width;
};

beforeAll(async () => {
  browser = await launchBrowser();
  mongo = await MongoClient.connect(platform().mongoUrl);
  const category = await openCategory();
  [anna, bram] = (await Promise.all(['Anna', 'Bram'].map(account))) as [Account, Account];
  const bramsListing = await createListing(mongo, category, bram, `Boormachine ${tag}`);
  const annasListings = [await createListing(mongo, category, anna, `Tent ${tag}`), await createListing(mongo, category, anna, `Bureaulamp ${tag}`)];
  const offer = await call<{ id: number }>('/api/tradeoffer/create', {
    ...json({
      senderID: anna.id,
      receiverID: bram.id,
      listingOfferedOnID: bramsListing,
      message: 'Ik kom hem graag zaterdag ophalen, als dat uitkomt. Ik heb een tent en een bureaulamp voor je.',
      items: [{ listingID: bramsListing, userID: bram.id }, ...annasListings.map((listingID) => ({ listingID, userID: anna.id })), { listingID: 'krat-bier', userID: anna.id }],
    }),
    token: anna.token,
  });
  expect(offer.status, JSON.stringify(offer.body)).toBe(201);
  offerId = offer.body.id;
  ({ page } = await openPage(browser));
  await logInWithForm(page, bram);
  await mkdir(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await mongo?.close();
  if (lesserFindings.size > 0) console.log(`[e2e] moderate and minor accessibility findings (not failed on):\n${describeLesserFindings()}`);
});
beforeEach((test) => explainFailure(test, () => page));

describe('the offer page on a phone', () => {
  it('keeps a chat button in view that takes the keyboard into the chat', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`/dashboard/tradeoffer/${offerId}`);
    await page.getByRole('heading', { name: `Ruilaanbieding #${offerId}` }).waitFor();
    const field = page.getByRole('textbox', { name: 'Bericht', exact: true });
    await field.waitFor({ state: 'attached' });
    // The page is long: the chat's field starts well below the first screen.
    const fieldBox = (await field.boundingBox())!;
    console.log(`[e2e] offer page at 390x844: the chat field starts at ${Math.round(fieldBox.y)} px (${(fieldBox.y / PHONE.height).toFixed(1)} screens)`);
    expect(fieldBox.y).toBeGreaterThan(PHONE.height);
    const jump = page.getByRole('button', { name: `Chat met ${anna.firstName}`, exact: true });
    await jump.waitFor();
    expect(await inWindow(jump)).toBe(true);
    await page.screenshot({ path: `${SHOTS}/offer-phone-before.png` });
    await expectAccessible(page, 'the offer page on a phone');

    // Scrolled half-way, the button is still on screen.
    await page.mouse.wheel(0, 400);
    await expect.poll(() => inWindow(jump)).toBe(true);
    await page.mouse.wheel(0, -400);

    // The keyboard reaches it before the offer's items (it follows the page's header), and Enter lands in the chat.
    const firstItem = page.getByTestId('panel-requested').getByRole('link').first();
    await firstItem.focus();
    await page.keyboard.press('Shift+Tab');
    let steps = 0;
    while (!(await hasFocus(jump)) && steps++ < 10) await page.keyboard.press('Shift+Tab');
    expect(await hasFocus(jump), 'the chat button comes before the items in the tab order').toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => hasFocus(field)).toBe(true);
    await expect.poll(() => inWindow(field)).toBe(true);
    // With the chat in view the button steps aside (it would cover the send button).
    await jump.waitFor({ state: 'detached' });
    await page.keyboard.type('Zaterdag is goed!');
    await page.keyboard.press('Enter');
    await page.getByTestId('chat-message').filter({ hasText: 'Zaterdag is goed!' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/offer-phone-chat.png` });
    await expectAccessible(page, 'the offer page on a phone, at the chat');
    // Back to the top, it is there again.
    await page.getByRole('heading', { name: `Ruilaanbieding #${offerId}` }).scrollIntoViewIfNeeded();
    await jump.waitFor();
  });

  it('shows no chat button on a wide screen', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/dashboard/tradeoffer/${offerId}`);
    await page.getByRole('heading', { name: `Ruilaanbieding #${offerId}` }).waitFor();
    await page.getByRole('textbox', { name: 'Bericht', exact: true }).waitFor({ state: 'attached' });
    expect(await page.getByRole('button', { name: `Chat met ${anna.firstName}`, exact: true }).isVisible()).toBe(false);
  });
});
