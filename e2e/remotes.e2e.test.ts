// The shell and each remote, in Chromium, against the real API.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { explainFailure, launchBrowser, openPage, savedLoginState } from './browser.ts';
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
// Each test in a fresh context of a signed-in member (the dashboard needs one); the last one stays
// open until a failed test has been explained.
beforeEach(async (test) => {
  await context?.close();
  ({ context, page } = await openPage(browser, { storageState: await savedLoginState(browser) }));
  explainFailure(test, () => page);
});

const area = () => page.locator('[data-testid="remote-area"]');

describe('the shell and its remotes', () => {
  it('opening the platform shows the shell and its navigation', async () => {
    await page.goto('/');
    for (const name of ['HOME', 'OVER ONS', 'FAQ']) await page.getByRole('link', { name, exact: true }).waitFor();
    expect(await page.locator('[data-testid="remote-error"]').count()).toBe(0);
  });

  it('/dashboard/search renders the listings remote with the categories from the API', async () => {
    const res = await get('/api/category');
    expect(res.status).toBe(200);
    const categories = (await res.json()) as Array<{ name: string; isPremium: boolean }>;
    expect(categories.length).toBeGreaterThanOrEqual(20);
    expect(categories.some((c) => c.isPremium)).toBe(true);

    await page.goto('/dashboard/search');
    await area().getByRole('heading', { name: 'Categorieën' }).waitFor();
    const items = area().locator('[data-testid="category"]');
    await expect.poll(() => items.count(), { timeout: 15_000 }).toBe(categories.length);
    const texts = await items.allInnerTexts();
    for (const category of categories) {
      const text = texts.find((t) => t.includes(category.name));
      expect(text, category.name).toBeDefined();
      expect(text!.includes('Premium'), `${category.name}: marked Premium`).toBe(category.isPremium);
    }
    await page.getByRole('link', { name: 'Aanbod', exact: true }).waitFor();
  });

  it('a member page starts its remote in one round: the entry and the scripts of its routes together, no federation runtime', async () => {
    const started = new Map<string, number>();
    const finished = new Map<string, number>();
    const scripts: string[] = [];
    page.on('request', (req) => {
      const path = new URL(req.url()).pathname;
      started.set(path, Date.now());
      if (req.resourceType() === 'script') scripts.push(path);
    });
    page.on('requestfinished', (req) => finished.set(new URL(req.url()).pathname, Date.now()));
    await page.goto('/dashboard/search');
    await area().locator('[data-testid="category"]').first().waitFor({ state: 'attached' });

    const declared = (await (await get('/mfe/listings/area.json')).json()) as { remoteEntry: string; scripts: string[] };
    const entry = `/mfe/listings/${declared.remoteEntry}`;
    const routes = declared.scripts.map((file) => `/mfe/listings/${file}`);
    expect(routes.length, 'area.json names the scripts of ./routes').toBeGreaterThan(0);
    expect(scripts, 'the remote entry ran').toContain(entry);
    expect(finished.get(entry), 'the remote entry arrived').toBeDefined();
    for (const file of routes) {
      // Asked for before the entry had arrived, not after it ran (as the entry's own runtime would).
      expect(started.get(file), `${file} requested`).toBeDefined();
      expect(started.get(file)!, `${file} requested with the entry`).toBeLessThanOrEqual(finished.get(entry)!);
    }
    // The shell starts containers itself: no manifest read and no @module-federation runtime on the way.
    expect([...started.keys()].filter((path) => path.endsWith('mf-manifest.json')), 'no manifest read').toEqual([]);
    expect(await page.evaluate(() => '__FEDERATION__' in globalThis), 'no federation runtime in the page').toBe(false);
  });

  it('/dashboard/offers renders the trades remote', async () => {
    await page.goto('/dashboard/offers');
    await area().getByRole('heading', { name: 'Jouw Ruilaanbiedingen', exact: true }).waitFor();
  });

  it('/admin renders the admin remote for an admin, and sends a member to /dashboard', async () => {
    await page.goto('/admin');
    await page.waitForURL((url) => url.pathname === '/dashboard');
    expect(await page.getByRole('navigation', { name: 'Beheer' }).count()).toBe(0);

    await context.close();
    ({ context, page } = await openPage(browser, { storageState: await savedLoginState(browser, 'admin') }));
    await page.goto('/admin');
    await area().getByRole('heading', { name: 'Beheer', exact: true }).waitFor();
  });
});
