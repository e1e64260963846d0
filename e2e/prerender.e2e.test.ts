// The prerendered pages (packages/frontend-build/src/prerender.ts): their HTML as the edge serves
// it, what Chromium shows of them without JavaScript, and their hydration with it: no mismatch,
// a stored session still shows, the tab's title and description follow the pages, and the landing
// page's new listings fill the places its HTML holds for them without moving what follows.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECENT_LISTINGS_MAX } from '@ruilplein/contracts/browser';
import { shellPages } from '../shell/src/pages.ts';
import { launchBrowser, openPage, savedLoginState } from './browser.ts';
import { get, platform } from './platform.ts';

const prerendered = shellPages.filter((page) => page.prerender);
/** Each page's <h1>: what a visitor (or a crawler) reads first. */
const headings: Record<string, string> = {
  '/': 'Ruil spullen en diensten met je buren',
  '/over-ons': 'Over ons',
  '/veelgestelde-vragen': 'Veelgestelde vragen',
  '/ruilen': 'Hoe werkt ruilen?',
  '/ruilregels': 'Ruilregels',
  '/algemene-voorwaarden': 'Algemene voorwaarden',
  '/privacyverklaring': 'Privacyverklaring',
  '/contact': 'Contact',
  '/login': 'Inloggen',
  '/register': 'Registreren',
};

const html = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const metaTag = (attr: 'name' | 'property', key: string, value: string) => `<meta ${attr}="${key}" content="${html(value)}">`;
/** Evaluates `expression` in the page (a string: this file is type-checked without the DOM's names). */
const inPage = <T>(page: Page, expression: string) => page.evaluate(expression) as Promise<T>;
const description = (page: Page) => inPage<string | null>(page, `document.querySelector('meta[name="description"]')?.content ?? null`);

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Opens `path` with JavaScript and waits until React has hydrated it: its <h1> is React's. */
async function hydrated(page: Page, path: string) {
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && !/Failed to load resource/.test(m.text()) && problems.push(m.text()));
  page.on('pageerror', (err) => problems.push(err.message));
  await page.goto(path);
  await page.waitForFunction(`Object.keys(document.querySelector('h1') ?? {}).some((key) => key.startsWith('__reactFiber$'))`);
  await page.waitForLoadState('networkidle');
  return problems;
}

describe('the prerendered HTML', () => {
  it('every page has its text, title, description and Open Graph tags, and no inline script', async () => {
    expect(prerendered.map((page) => page.path).sort()).toEqual(Object.keys(headings).sort());
    for (const page of prerendered) {
      const res = await get(page.path);
      expect(res.status, page.path).toBe(200);
      expect(res.headers.get('content-security-policy'), page.path).toContain("script-src 'self'");
      const body = await res.text();
      expect(body, page.path).toContain(`<title>${html(page.title)}</title>`);
      expect(body, page.path).toContain(metaTag('name', 'description', page.description));
      expect(body, page.path).toContain(metaTag('property', 'og:title', page.title));
      expect(body, page.path).toContain(metaTag('property', 'og:description', page.description));
      expect(body, page.path).toContain(metaTag('property', 'og:type', 'website'));
      expect(body, page.path).toContain(metaTag('property', 'og:locale', 'nl_NL'));
      expect(body, page.path).toContain(metaTag('property', 'og:site_name', 'Ruilplein'));
      expect(/<h1[^>]*>([^<]*)<\/h1>/.exec(body)?.[1], page.path).toBe(html(headings[page.path]!));
      // The CSP refuses inline scripts: every script is a file.
      expect(body.match(/<script\b[^>]*>/g)?.every((tag) => / src="\//.test(tag)), page.path).toBe(true);
    }
  });

  it('any other client-side route gets the app page: no content, the scripts render it', async () => {
    for (const path of ['/dashboard', '/dashboard/search', '/reset-password', '/bestaat-niet']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      const body = await res.text();
      expect(body, path).toContain('<div id="root"></div>');
      expect(body, path).toContain('<title>Ruilplein</title>');
    }
  });
});

describe('in Chromium', () => {
  it('without JavaScript, every page shows its heading under its own title', async () => {
    const context = await browser.newContext({ baseURL: platform().url, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      for (const { path, title } of prerendered) {
        await page.goto(path);
        expect(await page.getByRole('heading', { level: 1 }).innerText(), path).toBe(headings[path]);
        expect(await page.title(), path).toBe(title);
      }
    } finally {
      await context.close();
    }
  });

  it('with JavaScript, every page hydrates without an error', async () => {
    for (const { path } of prerendered) {
      const { context, page } = await openPage(browser);
      try {
        expect(await hydrated(page, path), path).toEqual([]);
        expect(await page.getByRole('heading', { level: 1 }).innerText(), path).toBe(headings[path]);
      } finally {
        await context.close();
      }
    }
  });

  it("the landing page's new listings: their places are in the HTML, and filling them moves nothing below", async () => {
    // Issue 27: the build has no listings to show; it writes eight empty cards of the cards' size.
    const html = await (await get('/')).text();
    expect(html).toContain('data-testid="recent-placeholders"');
    expect(html).toContain('Nieuw in het aanbod');
    for (const viewport of [
      { width: 1280, height: 1600 },
      { width: 390, height: 2400 },
    ]) {
      const { context, page } = await openPage(browser);
      try {
        await page.setViewportSize(viewport);
        // The list is held back until the placeholders have been measured.
        let release = () => {};
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route('**/api/listing/recent', async (route) => {
          await held;
          await route.continue();
        });
        await page.goto('/');
        const placeholders = page.getByTestId('recent-placeholders');
        await placeholders.waitFor();
        const next = page.getByRole('heading', { level: 2, name: 'Wat kun je ruilen?', exact: true });
        const before = (await next.boundingBox())!.y;
        release();
        const cards = page.getByTestId('recent-listing');
        await cards.first().waitFor();
        await page.waitForLoadState('networkidle');
        // Local mode's demo listings fill all eight (they are days old, most for everyone).
        expect(await cards.count(), `${viewport.width} px`).toBe(RECENT_LISTINGS_MAX);
        expect(await placeholders.count()).toBe(0);
        expect(Math.abs((await next.boundingBox())!.y - before), `${viewport.width} px: what follows moved`).toBeLessThan(1);
      } finally {
        await context.close();
      }
    }
  });

  it('the tab title and description follow client-side navigation, from the same table', async () => {
    const { context, page } = await openPage(browser);
    try {
      await hydrated(page, '/');
      await page.getByRole('banner').getByRole('link', { name: 'OVER ONS', exact: true }).click();
      const about = shellPages.find((p) => p.path === '/over-ons')!;
      await expect.poll(() => page.title()).toBe(about.title);
      expect(await description(page)).toBe(about.description);
      // A page without an entry (here 'not found') is just 'Ruilplein'.
      await inPage(page, `history.pushState(null, '', '/bestaat-niet'), dispatchEvent(new PopStateEvent('popstate'))`);
      await expect.poll(() => page.title()).toBe('Ruilplein');
    } finally {
      await context.close();
    }
  });

  it('a signed-in member sees the account menu after hydration, and /login keeps the session', async () => {
    const { context, page } = await openPage(browser, { storageState: await savedLoginState(browser) });
    try {
      expect(await hydrated(page, '/'), '/').toEqual([]);
      const firstName = await inPage<string>(page, `JSON.parse(localStorage.getItem('ruilplein.user')).firstName`);
      await expect.poll(() => page.getByTestId('account-button').innerText()).toContain(firstName);

      expect(await hydrated(page, '/login'), '/login').toEqual([]);
      await page.getByRole('heading', { level: 1, name: 'Inloggen' }).waitFor();
      // The stored session was checked and kept: the dashboard opens without signing in again.
      await page.goto('/dashboard');
      await page.getByRole('heading', { level: 1, name: `Welkom, ${firstName}!` }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/dashboard');
    } finally {
      await context.close();
    }
  });
});
