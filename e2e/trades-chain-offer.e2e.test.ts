// A three-party offer (a swap chain, issue 24) in three browsers against the whole platform: Anna
// wants Bram's sewing machine, Bram Cas's tent, Cas Anna's racing bike. The chain is proposed the way
// the chain service does it (the NATS query `rpc.trade.chain.propose`, asked here as the privileged
// NATS user of this run's stores); Bram and Cas accept on the offer page (Cas with the keyboard), they
// chat in the offer's group chat, all three confirm, the three listings go inactive, and each reviews
// the member who gave to them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tradeQueries, type Category } from '@ruilplein/contracts';
import { connectBus, requestQuery, type Bus } from '@ruilplein/service-kit';
import { LOCAL_STORES_FILE } from '@ruilplein/service-kit/deadletter-cli';
import { describeLesserFindings, expectAccessible, lesserFindings } from './axe.ts';
import { confirmWith, explainFailure, launchBrowser, openPage, reviewWithFiveStars } from './browser.ts';
import { account, call, createListing, eventuallyInactive, openCategory, type Account } from './api.ts';
import { logInWithForm } from './members.ts';
import { platform } from './platform.ts';

const tag = randomUUID().slice(0, 6);
const FIETS = `Racefiets ${tag}`;
const NAAI = `Naaimachine ${tag}`;
const TENT = `Tent ${tag}`;

let browser: Browser;
let bus: Bus;
let category: Category;
let anna: Account;
let bram: Account;
let cas: Account;
const listings = { fiets: '', naai: '', tent: '' };
const pages = new Map<string, Page>();
const pageOf = (who: Account) => pages.get(who.id)!;
let current: Page | undefined;
let offerId = 0;


const row = (page: Page, who: Account) => page.getByTestId('chain-participant').filter({ has: page.getByRole('link', { name: `${who.firstName} ${who.lastName}` }) });
const actions = (page: Page) => page.getByTestId('offer-actions');

beforeAll(async () => {
  browser = await launchBrowser();
  const stores = JSON.parse(readFileSync(join(platform().tmpDir, LOCAL_STORES_FILE), 'utf8')) as { natsUrl: string };
  bus = await connectBus(stores.natsUrl, `e2e-chain-${tag}`);
  [anna, bram, cas] = (await Promise.all(['Anna', 'Bram', 'Cas'].map(account))) as [Account, Account, Account];
  category = await openCategory();
  listings.fiets = await createListing(undefined, category, anna, FIETS);
  listings.naai = await createListing(undefined, category, bram, NAAI);
  listings.tent = await createListing(undefined, category, cas, TENT);
  for (const who of [anna, bram, cas]) {
    const opened = await openPage(browser);
    pages.set(who.id, opened.page);
    await logInWithForm(opened.page, who);
  }
});
afterAll(async () => {
  await bus?.nc.close();
  await browser?.close();
  if (lesserFindings.size > 0) console.log(`[e2e] moderate and minor accessibility findings (not failed on):\n${describeLesserFindings()}`);
});
beforeEach((test) => explainFailure(test, () => current));

describe('a swap chain of three members', () => {
  it('is proposed through the chain query and shown to each member with who gives what to whom', async () => {
    const answer = await requestQuery(bus, tradeQueries.proposeChain, {
      chainId: `e2e-${tag}`,
      proposerId: anna.id,
      links: [
        { userId: anna.id, gives: listings.fiets, receives: listings.naai },
        { userId: bram.id, gives: listings.naai, receives: listings.tent },
        { userId: cas.id, gives: listings.tent, receives: listings.fiets },
      ],
    });
    expect(answer.ok, JSON.stringify(answer)).toBe(true);
    offerId = (answer as { offerId: number }).offerId;

    const page = (current = pageOf(bram));
    await page.goto(`/dashboard/tradeoffer/${offerId}`);
    await page.getByRole('heading', { level: 1, name: `Ruilketen #${offerId}` }).waitFor();
    await page.getByRole('heading', { name: 'Wie geeft wat aan wie' }).waitFor();
    expect(await page.getByTestId('chain-participant').count()).toBe(3);
    await row(page, anna).getByText(`Geeft ${FIETS} aan ${cas.firstName}`).waitFor();
    await row(page, bram).getByText(`Geeft ${NAAI} aan ${anna.firstName}`).waitFor();
    await row(page, cas).getByText(`Geeft ${TENT} aan ${bram.firstName}`).waitFor();
    expect(await row(page, anna).getByTestId('chain-accepted').innerText()).toBe('Geaccepteerd');
    expect(await row(page, bram).getByTestId('chain-accepted').innerText()).toBe('Nog niet geaccepteerd');
    await page.getByRole('heading', { name: `Groepschat met ${anna.firstName} en ${cas.firstName}` }).waitFor();
    await expectAccessible(page, '/dashboard/tradeoffer/:id of a chain, to answer');

    // Anna proposed it: she waits, and may withdraw.
    const annaPage = (current = pageOf(anna));
    await annaPage.goto(`/dashboard/tradeoffer/${offerId}`);
    await annaPage.getByTestId('chain-waiting').filter({ hasText: `Wachten op ${bram.firstName} en ${cas.firstName}` }).waitFor();
    await actions(annaPage).getByRole('button', { name: 'Intrekken' }).waitFor();
    await expectAccessible(annaPage, '/dashboard/tradeoffer/:id of a chain, as its proposer');
  });

  it('Bram accepts with the mouse, Cas with the keyboard; they chat in the group chat', async () => {
    const bramPage = (current = pageOf(bram));
    await confirmWith(bramPage, () => actions(bramPage).getByRole('button', { name: 'Accepteren' }).click(), 'Weet je zeker dat je deze ruilketen wilt accepteren?', 'Accepteren');
    await bramPage.getByTestId('chain-waiting').filter({ hasText: `Wachten op ${cas.firstName}` }).waitFor();

    // The offers list reads each member's own answer: Bram has answered, Cas has not.
    const card = (page: typeof bramPage) => page.locator(`[data-testid="offer-card"][data-offer-id="${offerId}"]`);
    await bramPage.goto('/dashboard/offers');
    await card(bramPage).getByText('Ruilketen met').waitFor();
    expect(await card(bramPage).getByTestId('offer-waiting').count()).toBe(0);
    const casList = pageOf(cas);
    await casList.goto('/dashboard/offers');
    expect(await card(casList).getByTestId('offer-waiting').innerText()).toBe('Wacht op jouw antwoord');
    await expectAccessible(casList, '/dashboard/offers with a swap chain');
    await bramPage.goto(`/dashboard/tradeoffer/${offerId}`);

    const casPage = (current = pageOf(cas));
    await casPage.goto(`/dashboard/tradeoffer/${offerId}`);
    await row(casPage, bram).getByTestId('chain-accepted').filter({ hasText: /^Geaccepteerd$/ }).waitFor();
    // Tab from the top of the page to 'Accepteren', then Enter; the dialog's answer with Enter too.
    const accept = actions(casPage).getByRole('button', { name: 'Accepteren' });
    await accept.waitFor();
    await casPage.locator('body').focus();
    let reached = false;
    for (let i = 0; i < 80 && !reached; i++) {
      await casPage.keyboard.press('Tab');
      reached = await accept.evaluate((el) => (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement === el);
    }
    expect(reached, 'Accepteren reached with Tab').toBe(true);
    await casPage.keyboard.press('Enter');
    const dialog = casPage.getByRole('alertdialog');
    await dialog.getByText('Weet je zeker dat je deze ruilketen wilt accepteren?').waitFor();
    await dialog.getByRole('button', { name: 'Accepteren', exact: true }).focus();
    await casPage.keyboard.press('Enter');
    await actions(casPage).getByRole('button', { name: 'Ruil bevestigen' }).waitFor();
    await casPage.getByTestId('offer-status').filter({ hasText: 'Geaccepteerd' }).waitFor();

    // Cas writes in the group chat; Anna and Bram read it.
    await casPage.getByRole('textbox', { name: 'Bericht', exact: true }).fill('Zaterdag om tien uur bij mij?');
    await casPage.getByRole('button', { name: 'Verstuur' }).click();
    for (const who of [anna, bram]) {
      const page = (current = pageOf(who));
      await page.reload();
      await page.getByTestId('chat-message').filter({ hasText: 'Zaterdag om tien uur bij mij?' }).waitFor({ timeout: 20_000 });
    }
    await expectAccessible(casPage, '/dashboard/tradeoffer/:id of an accepted chain with its group chat');
  });

  it('all three confirm; the chain completes, the listings go inactive, each reviews their giver', async () => {
    for (const [who, gives, receives, to, from] of [
      [anna, FIETS, NAAI, cas, bram],
      [bram, NAAI, TENT, anna, cas],
      [cas, TENT, FIETS, bram, anna],
    ] as const) {
      const page = (current = pageOf(who));
      await page.goto(`/dashboard/tradeoffer/${offerId}`);
      await confirmWith(
        page,
        () => actions(page).getByRole('button', { name: 'Ruil bevestigen' }).click(),
        `Heb je ${gives} aan ${to.firstName} gegeven en ${receives} van ${from.firstName} gekregen?`,
        'Ruil bevestigen',
      );
    }
    const casPage = (current = pageOf(cas));
    await casPage.getByTestId('offer-status').filter({ hasText: 'Voltooid' }).waitFor();

    // Every listing of the chain is inactive (listing follows trade.offer.completed).
    await eventuallyInactive([[anna, listings.fiets], [bram, listings.naai], [cas, listings.tent]]);

    // Each reviews the member who gave to them: Anna Bram, Bram Cas, Cas Anna.
    for (const [who, giver] of [
      [anna, bram],
      [bram, cas],
      [cas, anna],
    ] as const) {
      const page = (current = pageOf(who));
      await reviewWithFiveStars(page, offerId, giver);
    }
    await expectAccessible(pageOf(cas), '/dashboard/tradeoffer/:id of a completed chain, reviewed');
    // The review went to the giver, and only once.
    const reviews = await call<{ reviewer: { id: string } }[]>(`/api/review/user/${anna.id}`);
    expect(reviews.status).toBe(200);
    expect(reviews.body.map((r) => r.reviewer.id)).toEqual([cas.id]);
  });
});
