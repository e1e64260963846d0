// A whole swap in two browsers against the whole platform (spec 2 §2, §4, §5, §8; issue 13's "Done
// when"): Anna makes an offer on Bram's listing with items from both inventories and the crate
// (dragging, clicking and the keyboard), both chat live, Bram accepts, both confirm, both review,
// and the public profiles show the trade and the ratings. Cas, a third member, cannot open the
// offer or its chat (page, API, hub). Rejecting and withdrawing close the chat; a standard member's
// third offer of the day is refused in the page and by the API, and the count a page reads follows a
// sent offer without a reload.
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import type { Browser, BrowserContext, Locator, Page, WebSocketRoute } from 'playwright-core';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHAT_MESSAGES, OFFER_MESSAGES, REVIEW_MESSAGES, type Category, type ChatMessage, type Offer } from '@ruilplein/contracts/browser';
import { describeLesserFindings, expectAccessible, lesserFindings } from './axe.ts';
import { confirmWith, explainFailure, launchBrowser, openPage } from './browser.ts';
import { account, call, createListing as placeListing, json, openCategory, type Account } from './api.ts';
import { logInWithForm } from './members.ts';
import { platform } from './platform.ts';

const tag = randomUUID().slice(0, 6);

let mongo: MongoClient;
let browser: Browser;
let category: Category;

const createListing = (owner: Account, title: string) => placeListing(mongo, category, owner, title);

/** The create call as the offer screen sends it. */
const offerBody = (sender: Account, receiver: Account, listingId: string, items: { listingID: string; userID: string }[] = [], message = '') => ({
  senderID: sender.id,
  receiverID: receiver.id,
  listingOfferedOnID: listingId,
  message,
  items,
});

// The cast and their windows.
let anna: Account;
let bram: Account;
let cas: Account;
const windows = new Map<string, { context: BrowserContext; page: Page }>();
const pageOf = (who: Account) => windows.get(who.id)!.page;
let current: Page | undefined;

const BOOR = `Boormachine ${tag}`;
const TENT = `Tent ${tag}`;
const LAMP = `Bureaulamp ${tag}`;
const FIETS = `Racefiets ${tag}`;
const BOEK = `Kookboek ${tag}`;
const STOEL = `Stoel ${tag}`;
const ids = { boor: '', tent: '', lamp: '', fiets: '', boek: '', stoel: '' };
let offerId = 0;

// Run in the page (this file is type-checked without the DOM's types).
type InPage = { document: { activeElement: unknown } };
const hasFocus = (locator: Locator) => locator.evaluate((element) => (globalThis as unknown as InPage).document.activeElement === element);

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
/** The titles of the items in one of the offer's zones, in their order. */
const zoneTitles = async (zone: Locator) => (await zone.getByRole('button').allInnerTexts()).map((text) => text.replace(/\s*verwijderen\s*$/, '').trim());
const chatField = (page: Page) => page.getByRole('textbox', { name: 'Bericht', exact: true });
const message = (page: Page, text: string) => page.getByTestId('chat-message').filter({ hasText: text });


/** A socket of the chat hub from outside the browser, as `who` (the Origin a browser on the site would send). */
function hubSocket(who: Account, id: number): Socket {
  return io(platform().url, {
    path: '/chathub',
    transports: ['websocket'],
    reconnection: false,
    query: { offerId: String(id), access_token: who.token },
    extraHeaders: { origin: new URL(platform().url).origin },
  });
}

/** 'connected', or the refusal's message. */
function outcome(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    const done = (what: string) => {
      clearTimeout(timer);
      resolve(what);
    };
    const timer = setTimeout(() => done('no answer'), 10_000);
    socket.once('connect', () => done('connected'));
    socket.once('connect_error', (err) => done(`refused: ${err.message}`));
    socket.once('disconnect', (reason) => done(`disconnected: ${reason}`));
  });
}

beforeAll(async () => {
  browser = await launchBrowser();
  mongo = await MongoClient.connect(platform().mongoUrl);
  [anna, bram, cas] = await Promise.all(['Anna', 'Bram', 'Cas'].map(account)) as [Account, Account, Account];
  category = await openCategory();
  ids.boor = await createListing(bram, BOOR);
  ids.tent = await createListing(bram, TENT);
  ids.lamp = await createListing(bram, LAMP);
  ids.fiets = await createListing(anna, FIETS);
  ids.boek = await createListing(anna, BOEK);
  ids.stoel = await createListing(cas, STOEL);
  for (const who of [anna, bram, cas]) {
    const opened = await openPage(browser);
    windows.set(who.id, opened);
    await logInWithForm(opened.page, who);
  }
});
afterAll(async () => {
  await browser?.close();
  await mongo?.close();
  if (lesserFindings.size > 0) console.log(`[e2e] moderate and minor accessibility findings (not failed on):\n${describeLesserFindings()}`);
});
beforeEach((test) => explainFailure(test, () => current));

describe('a whole swap in two browsers', () => {
  it('Anna builds an offer from both inventories and the crate: dragging, clicking and the keyboard', async () => {
    const page = (current = pageOf(anna));
    await page.goto(`/dashboard/listing/${ids.boor}`);
    await page.getByRole('link', { name: 'Doe een aanbod!' }).click();
    await page.waitForURL(`**/dashboard/listing/${ids.boor}/offer`);
    await page.getByRole('heading', { name: `Ruilaanbod aan ${bram.firstName} ${bram.lastName}` }).waitFor();
    const theirs = region(page, 'Items van Tegenpartij');
    const mine = region(page, 'Jouw Items');
    const theirZone = region(page, 'Zij bieden aan');
    const myZone = region(page, 'Jij biedt aan');

    // 'Krat Bier' in both inventories; the listing preselected on Bram's side.
    await theirs.getByRole('button', { name: 'Krat Bier', exact: true }).waitFor();
    await mine.getByRole('button', { name: 'Krat Bier', exact: true }).waitFor();
    await mine.getByRole('button', { name: FIETS, exact: true }).waitFor();
    expect(await zoneTitles(theirZone)).toEqual([BOOR]);
    expect(await theirs.getByRole('button', { name: BOOR, exact: true }).getAttribute('aria-pressed')).toBe('true');
    await myZone.getByText('Sleep hier items om toe te voegen aan je ruil.').waitFor();
    await expectAccessible(page, '/dashboard/listing/:id/offer with the listing preselected');

    // Dragged onto Bram's side, Anna's bike does not count; onto her own side it does.
    const bike = mine.getByRole('button', { name: FIETS, exact: true });
    await bike.dragTo(theirZone);
    expect(await zoneTitles(theirZone)).toEqual([BOOR]);
    await bike.dragTo(myZone);
    await myZone.getByRole('button', { name: `${FIETS} verwijderen` }).waitFor();
    // No item twice.
    await theirs.getByRole('button', { name: BOOR, exact: true }).dragTo(theirZone);
    await bike.dragTo(myZone);
    expect(await zoneTitles(theirZone)).toEqual([BOOR]);
    expect(await zoneTitles(myZone)).toEqual([FIETS]);

    // The keyboard: Enter on Anna's crate adds it, the focus stays where it was.
    const myCrate = mine.getByRole('button', { name: 'Krat Bier', exact: true });
    await myCrate.focus();
    await page.keyboard.press('Enter');
    await myZone.getByRole('button', { name: 'Krat Bier verwijderen' }).waitFor();
    expect(await myCrate.getAttribute('aria-pressed')).toBe('true');
    expect(await hasFocus(myCrate)).toBe(true);
    expect(await page.getByTestId('offer-announcer').innerText()).toBe("Krat Bier toegevoegd aan 'Jij biedt aan'.");

    // A click adds Bram's tent; a click on it in the zone takes it out, the focus going to what is left there.
    await theirs.getByRole('button', { name: TENT, exact: true }).click();
    const tentInZone = theirZone.getByRole('button', { name: `${TENT} verwijderen` });
    await tentInZone.click();
    await tentInZone.waitFor({ state: 'detached' });
    expect(await hasFocus(theirZone.getByRole('button', { name: `${BOOR} verwijderen` }))).toBe(true);
    // Space on the tent in the inventory puts it back.
    await theirs.getByRole('button', { name: TENT, exact: true }).focus();
    await page.keyboard.press('Space');
    expect(await zoneTitles(theirZone)).toEqual([BOOR, TENT]);
    expect(await zoneTitles(myZone)).toEqual([FIETS, 'Krat Bier']);
    await expectAccessible(page, '/dashboard/listing/:id/offer with items on both sides');

    await page.getByLabel('Bericht bij jouw aanbod (optioneel):').fill('  Hoi Bram, zullen we ruilen?  ');
    await page.getByRole('button', { name: 'Bevestig Aanbod' }).click();
    await page.waitForURL(/\/dashboard\/tradeoffer\/\d+$/);
    offerId = Number(/(\d+)$/.exec(page.url())![1]);
    await page.getByRole('heading', { name: `Ruilaanbieding #${offerId}` }).waitFor();
    await page.getByText('Aanbod naar').waitFor();
    expect(await page.getByRole('link', { name: `${bram.firstName} ${bram.lastName}`, exact: true }).first().getAttribute('href')).toBe(`/dashboard/user/${bram.id}`);
    const requested = page.getByTestId('panel-requested');
    await requested.getByRole('heading', { name: 'Listing aangeboden op' }).waitFor();
    await requested.getByText(BOOR, { exact: true }).waitFor();
    await requested.getByText(TENT, { exact: true }).waitFor();
    const offered = page.getByTestId('panel-offered');
    await offered.getByRole('heading', { name: 'Wat jij aanbiedt' }).waitFor();
    await offered.getByText(FIETS, { exact: true }).waitFor();
    await offered.getByText('Krat Bier', { exact: true }).waitFor();
    expect(await page.getByTestId('offer-message').innerText()).toBe('Hoi Bram, zullen we ruilen?');
    await page.getByTestId('offer-status').filter({ hasText: 'In afwachting' }).waitFor();

    const { status, body } = await call<Offer>(`/api/tradeoffer/${offerId}`, { token: anna.token });
    expect(status).toBe(200);
    expect(body).toMatchObject({ senderID: anna.id, receiverID: bram.id, status: 'Pending', message: 'Hoi Bram, zullen we ruilen?', listingOfferedOnID: ids.boor });
    expect(body.requestedListings.map((i) => i.title)).toEqual([BOOR, TENT]);
    expect(body.offeredListings.map((i) => i.title).sort()).toEqual([FIETS, 'Krat Bier'].sort());
    expect(body.offeredListings.find((i) => i.title === 'Krat Bier')).toMatchObject({ isDefault: true, userID: anna.id });
  });

  it('Bram finds it among his offers, and both chat live in their own windows', async () => {
    expect(offerId, 'the offer of the first test').toBeGreaterThan(0);
    const page = (current = pageOf(bram));
    // Bram's hub connections pass through here, so the test can cut them (as a lost network would).
    let cut = false;
    const live: WebSocketRoute[] = [];
    await page.routeWebSocket(/\/chathub\//, (ws) => {
      if (cut) return void ws.close({ code: 4001, reason: 'offline' }).catch(() => undefined);
      ws.connectToServer();
      live.push(ws);
    });
    await page.goto('/dashboard/offers');
    await page.getByRole('heading', { name: 'Jouw Ruilaanbiedingen' }).waitFor();
    const card = page.locator(`[data-testid="offer-card"][data-offer-id="${offerId}"]`);
    await card.getByText('Van', { exact: true }).waitFor();
    expect(await card.getByRole('link', { name: `${anna.firstName} ${anna.lastName}` }).getAttribute('href')).toBe(`/dashboard/user/${anna.id}`);
    await card.getByRole('heading', { name: `Ruilaanbieding #${offerId}: ${BOOR}` }).waitFor();
    await card.getByTestId('offer-status').filter({ hasText: 'In afwachting' }).waitFor();
    await expectAccessible(page, '/dashboard/offers with a received offer');
    // Anna's list says 'Naar'.
    const annaList = await pageOf(anna).context().newPage();
    try {
      await annaList.goto('/dashboard/offers');
      await annaList.locator(`[data-testid="offer-card"][data-offer-id="${offerId}"]`).getByText('Naar', { exact: true }).waitFor();
    } finally {
      await annaList.close();
    }

    await card.getByRole('link', { name: 'Bekijk chat & details' }).click();
    await page.waitForURL(`**/dashboard/tradeoffer/${offerId}`);
    await page.getByText('Aanbod van').waitFor();
    await page.getByTestId('panel-offered').getByRole('heading', { name: `Wat ${anna.firstName} aanbiedt` }).waitFor();

    const annaPage = pageOf(anna);
    for (const p of [page, annaPage]) await p.getByTestId('chat-state').filter({ hasText: 'Verbonden' }).waitFor();
    expect(await chatField(annaPage).getAttribute('placeholder')).toBe('Typ een bericht...');

    // Whitespace alone is not sent.
    await chatField(annaPage).fill('   ');
    expect(await annaPage.getByRole('button', { name: 'Verstuur' }).isDisabled()).toBe(true);
    const first = 'Hallo Bram! Wanneer kan ik de boormachine ophalen?';
    await chatField(annaPage).fill(first);
    await chatField(annaPage).press('Enter');
    await message(annaPage, first).waitFor();
    expect(await chatField(annaPage).inputValue()).toBe('');
    // In Bram's window without reloading.
    await message(page, first).waitFor({ timeout: 5_000 });
    await message(page, first).getByText(anna.firstName, { exact: true }).waitFor();

    const reply = 'Zaterdag om tien uur? Neem je het krat mee?';
    await chatField(page).fill(reply);
    await page.getByRole('button', { name: 'Verstuur' }).click();
    await message(annaPage, reply).waitFor({ timeout: 5_000 });
    expect(await message(annaPage, first).count()).toBe(1);
    await expectAccessible(page, '/dashboard/tradeoffer/:id with a chat, as the receiver');
    await expectAccessible(annaPage, '/dashboard/tradeoffer/:id with a chat, as the sender');

    // Bram's connection drops: his window says so, and once back (by hand) it has what was said meanwhile.
    cut = true;
    await Promise.all(live.splice(0).map((ws) => ws.close({ code: 4001, reason: 'offline' }).catch(() => undefined)));
    await page.getByTestId('chat-state').filter({ hasText: /Opnieuw verbinden…|Verbroken/ }).waitFor();
    const meanwhile = 'Ben je er nog?';
    expect((await call('/api/chat/send', { ...json({ tradeOfferId: offerId, content: meanwhile }), token: anna.token })).status).toBe(201);
    await expectAccessible(page, '/dashboard/tradeoffer/:id while the chat reconnects');
    cut = false;
    await page.getByRole('button', { name: 'Opnieuw verbinden' }).click();
    await page.getByTestId('chat-state').filter({ hasText: 'Verbonden' }).waitFor();
    await message(page, meanwhile).waitFor({ timeout: 5_000 });
    expect(await message(page, meanwhile).count()).toBe(1);

    const stored = await call<ChatMessage[]>(`/api/chat/${offerId}`, { token: bram.token });
    expect(stored.status).toBe(200);
    expect(stored.body.map((m) => [m.sender.firstName, m.content])).toEqual([
      [anna.firstName, first],
      [bram.firstName, reply],
      [anna.firstName, meanwhile],
    ]);
  });

  it('Cas, a third member, cannot open the offer or its chat: not in the page, the API or the hub', async () => {
    const page = (current = pageOf(cas));
    await page.goto(`/dashboard/tradeoffer/${offerId}`);
    await page.getByTestId('offer-error').getByText(OFFER_MESSAGES.notParty).waitFor();
    expect(await chatField(page).count()).toBe(0);
    expect(await page.getByTestId('chat-message').count()).toBe(0);
    await expectAccessible(page, '/dashboard/tradeoffer/:id of someone else');

    expect((await call(`/api/tradeoffer/${offerId}`, { token: cas.token })).status).toBe(403);
    const read = await call<{ message: string }>(`/api/chat/${offerId}`, { token: cas.token });
    expect(read.status).toBe(403);
    const sent = await call<{ message: string }>('/api/chat/send', { ...json({ tradeOfferId: offerId, content: 'Mag ik meedoen?' }), token: cas.token });
    expect(sent.status).toBe(403);

    // The hub: Anna's socket joins the room and hears her message; Cas's is refused and hears nothing.
    const annas = hubSocket(anna, offerId);
    const cass = hubSocket(cas, offerId);
    const heard: string[] = [];
    cass.on('ReceiveMessage', (_name: string, content: string) => heard.push(content));
    try {
      const [annaOutcome, casOutcome] = await Promise.all([outcome(annas), outcome(cass)]);
      expect(annaOutcome).toBe('connected');
      // Refused at the websocket upgrade (a 403 the client sees as a failed connection).
      expect(casOutcome).toMatch(/^refused: /);
      const received = new Promise<string>((resolve) => annas.once('ReceiveMessage', (_name: string, content: string) => resolve(content)));
      const posted = await call('/api/chat/send', { ...json({ tradeOfferId: offerId, content: 'Alleen voor Bram' }), token: anna.token });
      expect(posted.status).toBe(201);
      expect(await received).toBe('Alleen voor Bram');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(heard).toEqual([]);
    } finally {
      annas.close();
      cass.close();
    }
  });

  it('Bram accepts, both confirm, both review; the public profiles show the trade and the ratings', async () => {
    const bramPage = (current = pageOf(bram));
    const annaPage = pageOf(anna);
    await bramPage.getByRole('button', { name: 'Accepteren' }).click();
    await bramPage.getByRole('alertdialog').getByText('Weet je zeker dat je dit aanbod wilt accepteren?').waitFor();
    await expectAccessible(bramPage, '/dashboard/tradeoffer/:id with the accept question');
    await bramPage.getByRole('alertdialog').getByRole('button', { name: 'Accepteren' }).click();
    await bramPage.getByTestId('offer-status').filter({ hasText: 'Geaccepteerd' }).waitFor();
    const confirmButton = (page: Page) => page.getByTestId('offer-actions').getByRole('button', { name: 'Ruil bevestigen' });

    // Anna's screen reads the offer again by itself.
    current = annaPage;
    await confirmButton(annaPage).waitFor({ timeout: 25_000 });
    await confirmWith(annaPage, () => confirmButton(annaPage).click(), `Heb je met ${bram.firstName} geruild zoals afgesproken?`, 'Ruil bevestigen');
    await annaPage.getByText(OFFER_MESSAGES.waiting).waitFor();
    await expectAccessible(annaPage, '/dashboard/tradeoffer/:id waiting for the other confirmation');

    current = bramPage;
    await confirmWith(bramPage, () => confirmButton(bramPage).click(), `Heb je met ${anna.firstName} geruild zoals afgesproken?`, 'Ruil bevestigen');
    await bramPage.getByTestId('offer-status').filter({ hasText: 'Voltooid' }).waitFor();

    // Bram reviews with the keyboard: no stars is refused, then five stars and a comment.
    const bramForm = bramPage.getByTestId('review-form');
    await bramForm.getByRole('heading', { name: `Beoordeel ${anna.firstName}` }).waitFor();
    await bramForm.getByRole('button', { name: 'Review versturen' }).click();
    await bramForm.getByText(REVIEW_MESSAGES.ratingRequired).waitFor();
    await expectAccessible(bramPage, '/dashboard/tradeoffer/:id with the review form and its refusal');
    await bramForm.getByRole('radio', { name: '1 ster', exact: true }).focus();
    await bramPage.keyboard.press('Space');
    for (let i = 0; i < 8; i++) await bramPage.keyboard.press('ArrowRight');
    expect(await bramForm.getByRole('radio', { name: '5 sterren', exact: true }).isChecked()).toBe(true);
    await bramForm.getByLabel('Opmerking (optioneel)').fill('Prima ruil, een aanrader!');
    await bramForm.getByRole('button', { name: 'Review versturen' }).click();
    await bramPage.getByTestId('review-thanks').filter({ hasText: REVIEW_MESSAGES.thanks }).waitFor();

    // Anna gives four and a half stars with the mouse and no comment.
    current = annaPage;
    await annaPage.getByTestId('offer-status').filter({ hasText: 'Voltooid' }).waitFor({ timeout: 25_000 });
    const annaForm = annaPage.getByTestId('review-form');
    await annaForm.locator('label').filter({ hasText: '4,5 sterren' }).click();
    expect(await annaForm.getByRole('radio', { name: '4,5 sterren', exact: true }).isChecked()).toBe(true);
    await annaForm.getByRole('button', { name: 'Review versturen' }).click();
    await annaPage.getByTestId('review-thanks').waitFor();
    await annaPage.reload();
    await annaPage.getByTestId('review-thanks').waitFor();
    expect(await annaPage.getByTestId('review-form').count()).toBe(0);
    const again = await call<{ message: string }>('/api/review/add', { ...json({ revieweeID: bram.id, rating: 3, comment: '', tradeOfferId: offerId }), token: anna.token });
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(again.body.message).toBe(REVIEW_MESSAGES.alreadyReviewed);

    // The list: Voltooid, still with its chat.
    await annaPage.goto('/dashboard/offers');
    const card = annaPage.locator(`[data-testid="offer-card"][data-offer-id="${offerId}"]`);
    await card.getByTestId('offer-status').filter({ hasText: 'Voltooid' }).waitFor();
    await card.getByRole('link', { name: 'Bekijk chat & details' }).waitFor();
    await expectAccessible(annaPage, '/dashboard/offers with a completed offer');

    // The profiles: the review with its stars, the trade and the rating (the figures follow by events).
    for (const [who, reviewer, stars, average, comment] of [
      [bram, anna, '4,5 van 5 sterren', '4,5', REVIEW_MESSAGES.noComment],
      [anna, bram, '5 van 5 sterren', '5,0', 'Prima ruil, een aanrader!'],
    ] as const) {
      const page = (current = pageOf(reviewer));
      await page.goto(`/dashboard/user/${who.id}`);
      const review = page.getByTestId('received-review').filter({ hasText: `${reviewer.firstName} ${reviewer.lastName}` });
      await review.getByRole('img', { name: stars }).waitFor();
      await review.getByText(comment).waitFor();
      expect(await review.getByRole('link', { name: `${reviewer.firstName} ${reviewer.lastName}` }).getAttribute('href')).toBe(`/dashboard/user/${reviewer.id}`);
      await expect
        .poll(
          async () => {
            await page.reload();
            await page.getByTestId('public-stats').waitFor();
            return `${await page.getByTestId('stat-trades').innerText()} | ${await page.getByTestId('stat-rating').innerText()}`;
          },
          { timeout: 30_000, interval: 1000 },
        )
        .toMatch(new RegExp(`^1 \\| ${average} / 5\\s+1 beoordelaar$`));
      await expectAccessible(page, '/dashboard/user/:id with a review');
    }
  });

  it('rejecting closes the chat in both windows: Aanbod is afgewezen.', async () => {
    const made = await call<Offer>('/api/tradeoffer/create', { ...json(offerBody(anna, bram, ids.lamp, [{ listingID: ids.boek, userID: anna.id }])), token: anna.token });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.id;
    const annaPage = pageOf(anna);
    const bramPage = (current = pageOf(bram));
    await Promise.all([annaPage.goto(`/dashboard/tradeoffer/${id}`), bramPage.goto(`/dashboard/tradeoffer/${id}`)]);
    // The default message, for an offer sent without one.
    expect(await bramPage.getByTestId('offer-message').innerText()).toBe('Zullen we ruilen? 😄');
    await annaPage.getByTestId('chat-state').filter({ hasText: 'Verbonden' }).waitFor();
    await confirmWith(bramPage, () => bramPage.getByRole('button', { name: 'Afwijzen' }).click(), 'Weet je zeker dat je dit aanbod wilt afwijzen?', 'Afwijzen');
    await bramPage.getByTestId('offer-status').filter({ hasText: 'Afgewezen' }).waitFor();
    for (const page of [bramPage, annaPage]) {
      current = page;
      await page.locator('input[placeholder="Aanbod is afgewezen."]').waitFor({ timeout: 25_000 });
      expect(await chatField(page).isDisabled()).toBe(true);
      expect(await page.getByTestId('chat-state').count()).toBe(0);
    }
    await expectAccessible(annaPage, '/dashboard/tradeoffer/:id rejected');
    const refused = await call<{ message: string }>('/api/chat/send', { ...json({ tradeOfferId: id, content: 'Jammer!' }), token: anna.token });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.body.message).toBe(CHAT_MESSAGES.closedRejected);

    // The list shows it in red, without a link.
    await annaPage.goto('/dashboard/offers');
    const card = annaPage.locator(`[data-testid="offer-card"][data-offer-id="${id}"]`);
    await card.getByText('Afgewezen', { exact: true }).first().waitFor();
    expect(await card.getByRole('link', { name: 'Bekijk chat & details' }).count()).toBe(0);
  });

  it('withdrawing closes the chat in both windows: Aanbod is geannuleerd.', async () => {
    const made = await call<Offer>('/api/tradeoffer/create', { ...json(offerBody(bram, anna, ids.boek, [], 'Mag ik je kookboek?')), token: bram.token });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.id;
    const annaPage = pageOf(anna);
    const bramPage = (current = pageOf(bram));
    await Promise.all([annaPage.goto(`/dashboard/tradeoffer/${id}`), bramPage.goto(`/dashboard/tradeoffer/${id}`)]);
    // The receiver cannot withdraw; the sender cannot accept.
    await annaPage.getByRole('button', { name: 'Accepteren' }).waitFor();
    expect(await annaPage.getByRole('button', { name: 'Intrekken' }).count()).toBe(0);
    await confirmWith(bramPage, () => bramPage.getByRole('button', { name: 'Intrekken' }).click(), 'Weet je zeker dat je dit aanbod wilt intrekken?', 'Intrekken');
    await bramPage.getByTestId('offer-status').filter({ hasText: 'Geannuleerd' }).waitFor();
    for (const page of [bramPage, annaPage]) {
      current = page;
      await page.locator('input[placeholder="Aanbod is geannuleerd."]').waitFor({ timeout: 25_000 });
      expect(await chatField(page).isDisabled()).toBe(true);
    }
    expect(await annaPage.getByRole('button', { name: 'Accepteren' }).count()).toBe(0);
    // Accepting it now is refused by the server.
    const late = await call<{ message: string }>(`/api/tradeoffer/respond/${id}?status=Accepted`, { method: 'PUT', token: anna.token });
    expect(late.status).toBe(409);
  });

  it("a standard member's third offer of the day is refused, in the page and by the API", async () => {
    // Anna made two today: the swap and the rejected one.
    const page = (current = pageOf(anna));
    await page.goto(`/dashboard/listing/${ids.stoel}/offer`);
    const limit = page.getByTestId('offer-limit');
    await limit.getByText('Je hebt je dagelijkse limiet van 2 ruilverzoeken bereikt.').waitFor();
    expect(await limit.getByRole('link', { name: 'Word Premium om onbeperkt te kunnen ruilen' }).getAttribute('href')).toBe('/dashboard/upgrade');
    expect(await page.getByRole('button', { name: 'Bevestig Aanbod' }).count()).toBe(0);
    await expectAccessible(page, '/dashboard/listing/:id/offer at the daily limit');
    // The listing page knows it too now.
    await page.goto(`/dashboard/listing/${ids.stoel}`);
    await page.getByTestId('offer-limit').waitFor();
    expect(await page.getByRole('link', { name: 'Doe een aanbod!' }).count()).toBe(0);

    const third = await call<{ message: string }>('/api/tradeoffer/create', { ...json(offerBody(anna, cas, ids.stoel)), token: anna.token });
    expect(third.status).toBe(403);
    expect(third.body.message).toBe(OFFER_MESSAGES.dailyLimit);
    const count = await call<{ count: number; limit: number | null }>(`/api/tradeoffer/count?userId=${anna.id}`, { token: anna.token });
    expect(count.body).toMatchObject({ count: 2, limit: 2 });
  });

  it('the daily count follows a sent offer without a reload: the listing page then shows the limit', async () => {
    // Cas made one offer today (by the API); his second goes through the page.
    const first = await call<Offer>('/api/tradeoffer/create', { ...json(offerBody(cas, bram, ids.lamp)), token: cas.token });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const page = (current = pageOf(cas));
    await page.goto(`/dashboard/listing/${ids.boek}`);
    await page.getByRole('heading', { name: BOEK }).waitFor();
    const offerLink = page.getByRole('link', { name: 'Doe een aanbod!' });
    await offerLink.waitFor();
    expect(await page.getByTestId('offer-limit').count(), 'one offer left today').toBe(0);
    // A mark in this document: gone if anything below reloads the page.
    await page.evaluate(() => ((globalThis as { ruilpleinSameDocument?: boolean }).ruilpleinSameDocument = true));

    await offerLink.click();
    await page.getByRole('button', { name: 'Bevestig Aanbod' }).click();
    await page.waitForURL(/\/dashboard\/tradeoffer\/\d+$/);
    await page.getByTestId('offer-status').filter({ hasText: 'In afwachting' }).waitFor();

    // Back to the listing through the offer's own link (in the page, no reload): the limit is known there now.
    await page.getByTestId('panel-requested').getByRole('link', { name: BOEK, exact: true }).click();
    await page.waitForURL(`**/dashboard/listing/${ids.boek}`);
    const limit = page.getByTestId('offer-limit');
    await limit.getByText('Je hebt je dagelijkse limiet van 2 ruilverzoeken bereikt.').waitFor();
    expect(await page.getByRole('link', { name: 'Doe een aanbod!' }).count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { ruilpleinSameDocument?: boolean }).ruilpleinSameDocument), 'the same document: no reload').toBe(true);
    const count = await call<{ count: number; limit: number | null }>(`/api/tradeoffer/count?userId=${cas.id}`, { token: cas.token });
    expect(count.body).toMatchObject({ count: 2, limit: 2 });
  });
});
