// Swap chains (issue 24) in three browsers against the whole platform: Anna wants Bram's sewing
// machine, Bram Cas's tent, Cas Anna's racing bike (wishlist entries), so the chain service finds
// the ring Anna → Cas → Bram → Anna (each gives to the next). Each sees it under 'Ruilketens voor
// jou' on the dashboard and beside the wished listing on the wishlist page; Anna opens the chain
// page (the ring drawn and in words) and proposes it; Bram and Cas accept on the offer page, all
// three confirm, the listings go inactive and each reviews the member who gave to them. Then the
// states of the chain page a real ring cannot show at will (a two-member cycle, a proposal another
// chain beat), with the chain service's answers stubbed in Dirk's browser.
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHAIN_MESSAGES, type Category } from '@ruilplein/contracts';
import { describeLesserFindings, expectAccessible, lesserFindings } from './axe.ts';
import { confirmWith, explainFailure, launchBrowser, openPage, reviewWithFiveStars } from './browser.ts';
import { account, call, createListing, eventually, eventuallyInactive, openCategory, setPlace, type Account } from './api.ts';
import { logInWithForm } from './members.ts';

const tag = randomUUID().slice(0, 6);
const FIETS = `Racefiets ${tag}`;
const NAAI = `Naaimachine ${tag}`;
const TENT = `Tent ${tag}`;

// Far out in the North Sea, away from every other file's members and the demo seed; a few km apart.
const PLACES = {
  Anna: { city: 'Ringeiland', latitude: 55.9, longitude: 2.6 },
  Bram: { city: 'Ringeiland-Noord', latitude: 55.95, longitude: 2.6 },
  Cas: { city: 'Ringeiland-Oost', latitude: 55.9, longitude: 2.68 },
} as const;

interface Suggestion {
  id: string;
  participants: { userId: string; firstName: string; gives: { listingId: string; title: string }; receives: { listingId: string; title: string } }[];
  maxDistanceKm: number;
}

let browser: Browser;
let category: Category;
let anna: Account;
let bram: Account;
let cas: Account;
const listings = { fiets: '', naai: '', tent: '' };
const pages = new Map<string, Page>();
const pageOf = (who: Account) => pages.get(who.id)!;
let current: Page | undefined;
let chainId = '';
let offerId = 0;

async function wish(who: Account, listingId: string): Promise<void> {
  const { status, body } = await call(`/api/wishlist/add/${listingId}`, { method: 'POST', token: who.token });
  expect([200, 201], `${who.firstName} wishes ${listingId}: ${JSON.stringify(body)}`).toContain(status);
}

/** The caller's chain over this file's three listings, once the chain service has found it. */
const ringOf = (who: Account) =>
  eventually(`the chain in ${who.firstName}'s suggestions`, async () => {
    const { status, body } = await call<Suggestion[]>('/api/chain/suggestions', { token: who.token });
    if (status !== 200) return undefined;
    return body.find((c) => c.participants.length === 3 && c.participants.some((p) => p.gives.listingId === listings.fiets));
  });


const actions = (page: Page) => page.getByTestId('offer-actions');

beforeAll(async () => {
  browser = await launchBrowser();
  [anna, bram, cas] = (await Promise.all(['Anna', 'Bram', 'Cas'].map(account))) as [Account, Account, Account];
  for (const who of [anna, bram, cas]) await setPlace(who, PLACES[who.firstName as keyof typeof PLACES]);
  category = await openCategory();
  listings.fiets = await createListing(undefined, category, anna, FIETS);
  listings.naai = await createListing(undefined, category, bram, NAAI);
  listings.tent = await createListing(undefined, category, cas, TENT);
  // The wants that close the ring: Anna → Bram's machine, Bram → Cas's tent, Cas → Anna's bike.
  await wish(anna, listings.naai);
  await wish(bram, listings.tent);
  await wish(cas, listings.fiets);
  for (const who of [anna, bram, cas]) {
    const opened = await openPage(browser);
    pages.set(who.id, opened.page);
    await logInWithForm(opened.page, who);
  }
});
afterAll(async () => {
  await browser?.close();
  if (lesserFindings.size > 0) console.log(`[e2e] moderate and minor accessibility findings (not failed on):\n${describeLesserFindings()}`);
});
beforeEach((test) => explainFailure(test, () => current));

describe('a swap chain of three members whose wishes form a ring', () => {
  it('is found for each of them and shown on their dashboard, one line each', async () => {
    const found = await ringOf(anna);
    chainId = found.id;
    for (const who of [bram, cas]) expect((await ringOf(who)).id).toBe(chainId);

    for (const [who, line, gives, receives] of [
      [anna, 'Jij → Cas → Bram → jij', FIETS, NAAI],
      [bram, 'Jij → Anna → Cas → jij', NAAI, TENT],
      [cas, 'Jij → Bram → Anna → jij', TENT, FIETS],
    ] as const) {
      const page = (current = pageOf(who));
      await page.goto('/dashboard');
      await page.getByRole('heading', { name: 'Ruilketens voor jou' }).waitFor();
      const row = page.locator(`[data-testid="dashboard-chain"][data-chain-id="${chainId}"]`);
      await row.getByText(line, { exact: true }).waitFor();
      await row.getByText(`Je geeft ${gives} en krijgt ${receives}`).waitFor();
      expect(await page.getByTestId('dashboard-chain').count()).toBeLessThanOrEqual(3);
    }
    await expectAccessible(pageOf(cas), '/dashboard with Ruilketens voor jou');
  });

  it('shows beside the wished listing on the wishlist page', async () => {
    const page = (current = pageOf(cas));
    await page.goto('/dashboard/wishlist');
    const entry = page.locator(`[data-testid="wishlist-entry"][data-listing-id="${listings.fiets}"]`);
    const line = entry.getByTestId('wishlist-chain').getByRole('link', { name: 'In een ruilketen met Bram en Anna' });
    await line.waitFor();
    await expectAccessible(page, '/dashboard/wishlist with a listing in a swap chain');
    await line.click();
    await page.waitForURL(`**/dashboard/ruilketen/${chainId}`);
    await page.getByRole('heading', { name: 'Wie geeft wat aan wie' }).waitFor();
  });

  it('draws the ring on its page, in words for screen readers; a chain that went says so', async () => {
    const page = (current = pageOf(anna));
    await page.goto('/dashboard');
    await page.locator(`[data-testid="dashboard-chain"][data-chain-id="${chainId}"]`).getByRole('link', { name: /^Bekijk/ }).click();
    await page.waitForURL(`**/dashboard/ruilketen/${chainId}`);
    await page.getByRole('heading', { level: 1, name: 'Ruilketen' }).waitFor();
    await page.getByTestId('chain-line').filter({ hasText: 'Jij → Cas → Bram → jij' }).waitFor();
    const steps = await page.getByTestId('chain-step').allInnerTexts();
    // Ring order may start with anyone; each gives to the next.
    expect([...steps].sort()).toEqual([`Anna geeft ${FIETS} aan Cas`, `Bram geeft ${NAAI} aan Anna`, `Cas geeft ${TENT} aan Bram`].sort());
    expect(await page.getByTestId('chain-ring-drawing').getAttribute('aria-hidden')).toBe('true');
    expect(await page.getByTestId('chain-distance').innerText()).toMatch(/^Verste afstand: (< 1|\d+) km$/);
    expect(await page.getByTestId('chain-steps').getByRole('link', { name: NAAI }).getAttribute('href')).toBe(`/dashboard/listing/${listings.naai}`);
    await expectAccessible(page, '/dashboard/ruilketen/:id of three members');

    const gone = (current = pageOf(bram));
    await gone.goto('/dashboard/ruilketen/ffffffffffffffffffffffff');
    await gone.getByTestId('chain-gone').getByText(CHAIN_MESSAGES.notFound).waitFor();
    await gone.getByRole('link', { name: 'Terug naar je dashboard' }).waitFor();
  });

  it('Anna proposes it: after her confirmation the three-party offer opens', async () => {
    const page = (current = pageOf(anna));
    await confirmWith(
      page,
      () => page.getByRole('button', { name: 'Voorstel doen' }).click(),
      'Je stelt deze ruilketen voor aan Cas en Bram. Zij krijgen een melding en moeten allebei accepteren.',
      'Voorstel doen',
    );
    await page.waitForURL(/\/dashboard\/tradeoffer\/\d+$/);
    offerId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('heading', { level: 1, name: `Ruilketen #${offerId}` }).waitFor();
    await page.getByTestId('chain-waiting').filter({ hasText: `Wachten op` }).waitFor();
    expect(await page.getByTestId('chain-participant').count()).toBe(3);
  });

  it('Bram and Cas accept, all three confirm; the listings go inactive and each reviews their giver', async () => {
    for (const who of [bram, cas]) {
      const page = (current = pageOf(who));
      await page.goto(`/dashboard/tradeoffer/${offerId}`);
      await confirmWith(page, () => actions(page).getByRole('button', { name: 'Accepteren' }).click(), 'Weet je zeker dat je deze ruilketen wilt accepteren?', 'Accepteren');
    }
    await pageOf(cas).getByTestId('offer-status').filter({ hasText: 'Geaccepteerd' }).waitFor();

    // Anna gives to Cas and gets from Bram; Bram gives to Anna and gets from Cas; Cas gives to Bram and gets from Anna.
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
    await pageOf(cas).getByTestId('offer-status').filter({ hasText: 'Voltooid' }).waitFor();

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
    const reviews = await call<{ reviewer: { id: string } }[]>(`/api/review/user/${anna.id}`);
    expect(reviews.status).toBe(200);
    expect(reviews.body.map((r) => r.reviewer.id)).toEqual([cas.id]);

    // Traded: the chain no longer holds (its listings are inactive), and its page says so.
    await eventually('the traded chain gone from the suggestions', async () => {
      const { status, body } = await call<Suggestion[]>('/api/chain/suggestions', { token: anna.token });
      return status === 200 && !body.some((c) => c.id === chainId);
    });
    const page = (current = pageOf(anna));
    await page.goto(`/dashboard/ruilketen/${chainId}`);
    await page.getByTestId('chain-gone').waitFor();
  });
});

describe("the chain page's other states, the chain service's answers stubbed in the browser", () => {
  const three = 'abcdefabcdefabcdefabcdef';
  const two = '0123456789abcdef01234567';
  let page: Page;

  beforeAll(async () => {
    const dirk = await account('Dirk');
    page = (await openPage(browser)).page;
    const other = (c: string) => c.repeat(24);
    const stubbed: Suggestion[] = [
      {
        id: three,
        participants: [
          { userId: dirk.id, firstName: 'Dirk', gives: { listingId: 'l1', title: 'Boormachine' }, receives: { listingId: 'l3', title: 'Kano' } },
          { userId: other('e'), firstName: 'Eva', gives: { listingId: 'l2', title: 'Kinderfiets' }, receives: { listingId: 'l1', title: 'Boormachine' } },
          { userId: other('f'), firstName: 'Fien', gives: { listingId: 'l3', title: 'Kano' }, receives: { listingId: 'l2', title: 'Kinderfiets' } },
        ],
        maxDistanceKm: 12.3,
      },
      {
        id: two,
        participants: [
          { userId: other('e'), firstName: 'Eva', gives: { listingId: 'l4', title: 'Statafel' }, receives: { listingId: 'l5', title: 'Ladder' } },
          { userId: dirk.id, firstName: 'Dirk', gives: { listingId: 'l5', title: 'Ladder' }, receives: { listingId: 'l4', title: 'Statafel' } },
        ],
        maxDistanceKm: 0.4,
      },
    ];
    await page.route('**/api/chain/suggestions', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(stubbed) }));
    await page.route('**/api/chain/*/propose', (route) => route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ message: CHAIN_MESSAGES.taken }) }));
    await logInWithForm(page, dirk);
    current = page;
  });

  it('a proposal that another chain beat says so in Dutch and stays on the page', async () => {
    await page.goto('/dashboard');
    const rows = page.getByTestId('dashboard-chain');
    await rows.first().waitFor();
    expect(await rows.allInnerTexts()).toEqual([
      expect.stringContaining('Jij → Eva → Fien → jij'),
      expect.stringContaining('Jij → Eva → jij'),
    ]);
    await page.getByRole('link', { name: 'Bekijk ruilketen Jij → Eva → Fien → jij' }).click();
    await page.getByTestId('chain-distance').filter({ hasText: 'Verste afstand: 12 km' }).waitFor();
    await confirmWith(
      page,
      () => page.getByRole('button', { name: 'Voorstel doen' }).click(),
      'Je stelt deze ruilketen voor aan Eva en Fien. Zij krijgen een melding en moeten allebei accepteren.',
      'Voorstel doen',
    );
    await page.getByTestId('chain-notice-error').filter({ hasText: CHAIN_MESSAGES.taken }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/dashboard/ruilketen/${three}`);
    await expectAccessible(page, '/dashboard/ruilketen/:id with a refused proposal');
  });

  it('a two-member cycle is a plain offer: no proposal, the offer builder instead', async () => {
    await page.goto(`/dashboard/ruilketen/${two}`);
    const plain = page.getByTestId('chain-two');
    await plain.getByText(CHAIN_MESSAGES.twoMembers).waitFor();
    expect(await page.getByRole('button', { name: 'Voorstel doen' }).count()).toBe(0);
    expect(await plain.getByRole('link', { name: 'Ruilaanbod doen op Statafel' }).getAttribute('href')).toBe('/dashboard/listing/l4/offer');
    await expectAccessible(page, '/dashboard/ruilketen/:id of two members');
  });
});
