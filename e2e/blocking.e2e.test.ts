// Blocking another member in the browser against the whole platform (issue 22's "Done when"):
// Anna blocks Bram from his public profile, after a confirmation that says what it does; then each
// is absent from the other's search, Anna's listing answers 404 to Bram, a new offer between them is
// refused and their open offer's chat is closed; after Anna unblocks him in her profile it all works
// again. Bram reports Anna from her profile with a category, which the admin's list shows.
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BLOCK_MESSAGES, DEFAULT_CRATE, type Category, type ListingCard, type Offer } from '@ruilplein/contracts/browser';
import { DEMO_ADMIN_EMAIL, DEMO_PASSWORD } from '@ruilplein/contracts/demo';
import { account, call, createListing, eventually, json, openCategory, setPlace, signIn, type Account } from './api.ts';
import { expectAccessible } from './axe.ts';
import { explainFailure, launchBrowser, openPage } from './browser.ts';
import { logInWithForm } from './members.ts';

const tag = randomUUID().slice(0, 6);

// Far out in the North Sea, away from every other file's members and the demo seed.
const PLACE = { city: 'Blokeiland', latitude: 56.9, longitude: 3.3 };

let browser: Browser;
let category: Category;
let anna: Account;
let bram: Account;
const ids = { anna: '', bram: '' };
const TITLES = { anna: `Naaimachine ${tag}`, bram: `Grasmaaier ${tag}` };
let openOffer = 0;
const pages = new Map<string, Page>();
const pageOf = (who: Account) => pages.get(who.id)!;
let current: Page | undefined;

/** The ids of the listings `who` finds within 5 km. */
const searchOf = async (who: Account) => {
  const { status, body } = await call<ListingCard[]>('/api/listing?distanceKm=5&take=50', { token: who.token });
  expect(status, 'search').toBe(200);
  return body.map((card) => card.id);
};

const offer = (from: Account, to: Account, listingId: string) =>
  call<Offer>('/api/tradeoffer/create', { ...json({ senderID: from.id, receiverID: to.id, listingOfferedOnID: listingId, message: '', items: [{ listingID: DEFAULT_CRATE.listingID, userID: from.id }] }), token: from.token });

const chat = (from: Account, offerId: number, content: string) => call('/api/chat/send', { ...json({ tradeOfferId: offerId, content }), token: from.token });

beforeAll(async () => {
  browser = await launchBrowser();
  [anna, bram] = (await Promise.all(['Anna', 'Bram'].map(account))) as [Account, Account];
  await Promise.all([setPlace(anna, PLACE), setPlace(bram, PLACE)]);
  category = await openCategory();
  ids.anna = await createListing(undefined, category, anna, TITLES.anna);
  ids.bram = await createListing(undefined, category, bram, TITLES.bram);
  for (const who of [anna, bram]) {
    const { page } = await openPage(browser);
    pages.set(who.id, page);
    await logInWithForm(page, who);
  }
  await eventually('each finds the other in the search', async () => (await searchOf(bram)).includes(ids.anna) && (await searchOf(anna)).includes(ids.bram));
  // An offer from before the block, with a chat that works.
  const made = await offer(bram, anna, ids.anna);
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  openOffer = made.body.id;
  await eventually('the chat of the open offer', async () => (await chat(bram, openOffer, 'Hoi Anna!')).status === 201);
});
afterAll(async () => {
  await browser?.close();
});
beforeEach((test) => explainFailure(test, () => current));

describe('blocking', () => {
  it('asks Anna first, saying what it does, then blocks Bram from his profile', async () => {
    const page = (current = pageOf(anna));
    await page.goto(`/dashboard/user/${bram.id}`);
    await page.getByRole('heading', { name: `${bram.firstName} ${bram.lastName}`, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Blokkeer', exact: true }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(`${bram.firstName} blokkeren?`, { exact: false }).waitFor();
    expect(await dialog.innerText()).toMatch(/niet meer met elkaar ruilen of chatten/);
    await expectAccessible(page, '/dashboard/user/:id asking to block');
    // Annuleren changes nothing.
    await dialog.getByRole('button', { name: 'Annuleren' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await call<unknown[]>('/api/user/blocks', { token: anna.token })).body).toEqual([]);

    await page.getByRole('button', { name: 'Blokkeer', exact: true }).click();
    await dialog.getByRole('button', { name: 'Blokkeer', exact: true }).click();
    await page.getByRole('status').filter({ hasText: `Je hebt ${bram.firstName} geblokkeerd.` }).waitFor();
    await page.getByRole('button', { name: 'Deblokkeer', exact: true }).waitFor();
    const blocks = await call<{ userId: string; firstName: string }[]>('/api/user/blocks', { token: anna.token });
    expect(blocks.body).toMatchObject([{ userId: bram.id, firstName: bram.firstName }]);
  });

  it('hides each from the other: search, 404 on the listing, offer and chat refused', async () => {
    await eventually('neither finds the other', async () => !(await searchOf(bram)).includes(ids.anna) && !(await searchOf(anna)).includes(ids.bram));
    expect((await call(`/api/listing/${ids.anna}`, { token: bram.token })).status).toBe(404);
    expect((await call(`/api/listing/${ids.bram}`, { token: anna.token })).status).toBe(404);
    expect((await call<unknown[]>(`/api/listing/user/${anna.id}`, { token: bram.token })).body).toEqual([]);

    const refused = await offer(bram, anna, ids.anna);
    expect(refused.status).toBe(403);
    expect((refused.body as unknown as { message: string }).message).toBe(BLOCK_MESSAGES.cannotTrade);
    // Their open offer was cancelled, and its chat takes no more messages.
    await eventually('the open offer is cancelled', async () => (await call<Offer>(`/api/tradeoffer/${openOffer}`, { token: bram.token })).body.status === 'Cancelled');
    const silenced = await chat(bram, openOffer, 'Nog iets?');
    expect(silenced.status, JSON.stringify(silenced.body)).toBeGreaterThanOrEqual(400);
    expect(silenced.status).toBeLessThan(500);

    // In Bram's browser: the search shows no Anna, her listing is not found.
    const page = (current = pageOf(bram));
    await page.goto('/dashboard/search?distance=5');
    await page.getByText(TITLES.bram).first().waitFor();
    expect(await page.getByText(TITLES.anna).count()).toBe(0);
    await page.goto(`/dashboard/listing/${ids.anna}`);
    await page.getByText('Listing niet gevonden.').waitFor();
  });

  it('lists Bram in Anna’s profile, where Deblokkeer brings everything back', async () => {
    const page = (current = pageOf(anna));
    await page.goto('/dashboard/profile');
    const entry = page.getByTestId('blocked-member').filter({ hasText: `${bram.firstName} ${bram.lastName}` });
    await entry.waitFor();
    await expectAccessible(page, '/dashboard/profile with a blocked member');
    await entry.getByRole('button', { name: `Deblokkeer ${bram.firstName} ${bram.lastName}` }).click();
    await page.getByRole('status').filter({ hasText: `${bram.firstName} is niet meer geblokkeerd.` }).waitFor();
    await page.getByText('Je hebt niemand geblokkeerd.').waitFor();

    await eventually('each finds the other again', async () => (await searchOf(bram)).includes(ids.anna) && (await searchOf(anna)).includes(ids.bram));
    expect((await call(`/api/listing/${ids.anna}`, { token: bram.token })).status).toBe(200);
    const again = await eventually('a new offer is taken', async () => {
      const made = await offer(bram, anna, ids.anna);
      if (made.status === 403) return undefined; // the trade service follows auth's event
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      return made.body;
    });
    await eventually('its chat works', async () => (await chat(bram, again.id, 'Daar ben ik weer.')).status === 201);
  });

  it('blocks from the offer screen and the chat too, each asking first', async () => {
    const page = (current = pageOf(anna));
    const [latest] = (await call<Offer[]>('/api/tradeoffer/my', { token: anna.token })).body.filter((o) => o.status === 'Pending');
    await page.goto(`/dashboard/tradeoffer/${latest!.id}`);
    await page.getByTestId('chat').getByRole('button', { name: 'Blokkeer', exact: true }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(`${bram.firstName} blokkeren?`, { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Annuleren' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // The offer screen's own button (outside the chat) asks the same.
    await page.getByRole('button', { name: 'Blokkeer', exact: true }).first().click();
    await dialog.getByText(`${bram.firstName} blokkeren?`, { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Annuleren' }).click();
    expect((await call<unknown[]>('/api/user/blocks', { token: anna.token })).body).toEqual([]);
  });
});

describe('reporting a member from the profile', () => {
  it('takes a category and a text, and the admin sees the category', async () => {
    const page = (current = pageOf(bram));
    await page.goto(`/dashboard/user/${anna.id}`);
    await page.getByRole('button', { name: 'Rapporteren' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Versturen' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Kies wat er aan de hand is.' }).waitFor();
    await dialog.getByLabel('Wat is er aan de hand?').selectOption('Spam');
    await dialog.getByLabel('Toelichting').fill(`Stuurt steeds dezelfde reclame ${tag}`);
    await dialog.getByRole('button', { name: 'Versturen' }).click();
    await dialog.getByRole('status').waitFor();
    const admin = await signIn({ email: DEMO_ADMIN_EMAIL, password: DEMO_PASSWORD });
    const reports = await call<{ reason: string; category?: string }[]>('/api/report/all?status=open', { token: admin.token });
    expect(reports.body.find((r) => r.reason.includes(tag))).toMatchObject({ category: 'Spam' });

    const { context, page: adminPage } = await openPage(browser);
    current = adminPage;
    try {
      await logInWithForm(adminPage, { email: DEMO_ADMIN_EMAIL, password: DEMO_PASSWORD });
      await adminPage.goto('/admin/reports');
      const row = adminPage.getByTestId('reports').getByRole('row').filter({ hasText: `Stuurt steeds dezelfde reclame ${tag}` });
      expect(await row.getByTestId('report-category').innerText()).toBe('Spam');
      await expectAccessible(adminPage, '/admin/reports with a category');
    } finally {
      await context.close();
    }
  });
});
