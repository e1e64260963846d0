// axe-core on every page the shell and the remotes declare, as each kind of visitor sees it, and on
// the states between them (errors, 404, narrow screens, open menus). Serious and critical violations fail.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { areaPagesToCheck, describeLesserFindings, expectAccessible, lesserFindings, remoteAreas, settle, shellPagesToCheck, trackRequests, type Visitor } from './axe.ts';
import { explainFailure, launchBrowser, openPage, savedLoginState } from './browser.ts';
import { setRemote } from './platform.ts';

// The lists decide the tests, so they are read before vitest collects them.
const { areas, missing } = await remoteAreas();
const pages = [...shellPagesToCheck(), ...areas.flatMap(areaPagesToCheck)];

let browser: Browser;
/** One context per visitor for the declared pages; the states open their own. */
const visitors = new Map<Visitor, Promise<{ context: BrowserContext; page: Page }>>();
let current: Page | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  if (lesserFindings.size > 0) console.log(`[e2e] moderate and minor accessibility findings (not failed on):\n${describeLesserFindings()}`);
});
beforeEach((test) => explainFailure(test, () => current));

// A member of its own, so its pages show their empty states whatever other files did.
const loginState = (visitor: Visitor) => (visitor === 'guest' ? Promise.resolve(undefined) : savedLoginState(browser, visitor === 'admin' ? 'admin' : 'a11y-member'));

async function open(visitor: Visitor, viewport?: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await openPage(browser, { storageState: await loginState(visitor) });
  trackRequests(opened.page);
  if (viewport) await opened.page.setViewportSize(viewport);
  current = opened.page;
  return opened;
}

async function pageOf(visitor: Visitor): Promise<Page> {
  let opened = visitors.get(visitor);
  if (!opened) visitors.set(visitor, (opened = open(visitor)));
  return (current = (await opened).page);
}

/** Opens `path` and checks it; a signed-in visitor must not have been sent to /login. */
async function check(page: Page, path: string, visitor: Visitor, state = ''): Promise<void> {
  await page.goto(path);
  await settle(page);
  const shown = new URL(page.url()).pathname;
  if (visitor !== 'guest') expect(shown, `${path} as ${visitor}: sent elsewhere`).not.toBe('/login');
  await expectAccessible(page, `${path}${shown === path.split('?')[0] ? '' : ` (shown at ${shown})`} as ${visitor}${state}`);
}

const narrow = { width: 375, height: 740 };

describe('every declared page passes axe-core', () => {
  it('the check itself fails on a critical violation (an image without alt text)', async () => {
    const page = await pageOf('guest');
    await page.goto('/contact');
    await page.evaluate(`document.querySelector('main').append(Object.assign(document.createElement('img'), { src: '/favicon.ico', id: 'a11y-probe' }))`);
    await expect(expectAccessible(page, '/contact with a probe')).rejects.toThrow(/image-alt \(critical\)[\s\S]*#a11y-probe/);
  });

  it('every remote publishes its pages next to its manifest (area.json)', () => {
    expect(missing, 'remotes without area.json').toEqual([]);
  });

  for (const { path, owner, visitors: who } of pages)
    for (const visitor of who)
      it(`${path} as ${visitor} (${owner})`, async () => {
        await check(await pageOf(visitor), path, visitor);
      });
});

describe('states between the pages pass axe-core', () => {
  it('the 404 page of the public site', async () => {
    await check(await pageOf('guest'), '/deze-pagina-bestaat-niet', 'guest');
    await expect.poll(() => current!.getByRole('heading', { name: 'Pagina niet gevonden' }).count()).toBe(1);
  });

  it('an unknown page in the dashboard', async () => {
    await check(await pageOf('member'), '/dashboard/bestaat-niet', 'member');
  });

  it('the admin area for a member (sent to the dashboard)', async () => {
    await check(await pageOf('member'), '/admin', 'member');
  });

  it('the sign-in forms after a refused attempt', async () => {
    const page = await pageOf('guest');
    await page.goto('/login');
    await page.getByRole('button', { name: 'Inloggen' }).click();
    await page.getByRole('alert').waitFor();
    await expectAccessible(page, '/login after a refused login');
    await page.goto('/register');
    await page.getByRole('button', { name: 'Registreren' }).last().click();
    await page.locator('[aria-invalid="true"], [role="alert"]').first().waitFor();
    await expectAccessible(page, '/register after sending it empty');
  });

  it('the suspension page (/geblokkeerd) with its reason', async () => {
    const page = await pageOf('guest');
    await page.goto('/');
    await settle(page);
    // The dashboard passes the reason as navigation state (react-router keeps it in history.state.usr).
    await page.evaluate(`
      history.pushState({ usr: { reason: 'ban', unblockDate: '2030-01-01T00:00:00.000Z' }, key: 'a11y', idx: 1 }, '', '/geblokkeerd');
      dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
    `);
    await page.getByTestId('unblock-date').waitFor();
    await expectAccessible(page, '/geblokkeerd with a reason');
  });

  it('the account menu opened, signed out and signed in', async () => {
    for (const visitor of ['guest', 'member'] as const) {
      const page = await pageOf(visitor);
      await page.goto('/');
      await settle(page);
      await page.locator('header button[aria-expanded]').click();
      await page.locator('header button[aria-expanded="true"]').waitFor();
      await expectAccessible(page, `/ with the account menu open as ${visitor}`);
    }
  });

  it('the public pages on a narrow screen (375 px), menu closed and open', async () => {
    const { context, page } = await open('guest', narrow);
    try {
      await check(page, '/', 'guest', ' at 375 px');
      await page.locator('header button[aria-expanded]').first().click();
      await page.locator('header button[aria-expanded="true"]').first().waitFor();
      await expectAccessible(page, '/ at 375 px with the menu open');
      await check(page, '/login', 'guest', ' at 375 px');
    } finally {
      await context.close();
    }
  });

  it('the dashboard on a narrow screen (375 px), sidebar collapsed and open', async () => {
    const { context, page } = await open('member', narrow);
    try {
      await check(page, '/dashboard', 'member', ' at 375 px, sidebar collapsed');
      const toggle = page.getByRole('button', { name: 'Menu openen' });
      await toggle.click();
      await page.getByRole('button', { name: 'Menu sluiten' }).waitFor();
      await expectAccessible(page, '/dashboard at 375 px, sidebar open');
    } finally {
      await context.close();
    }
  });

  // A fresh context each: nothing of the remote in the browser's cache.
  for (const area of areas) {
    const first = areaPagesToCheck(area)[0];
    if (!first) continue;
    it(`a page of ${area.name} while the remote cannot be loaded`, async () => {
      const visitor = first.visitors[0]!;
      const { context, page } = await open(visitor);
      await setRemote(area.name, { blocked: true });
      try {
        await page.goto(first.path);
        await page.getByTestId('remote-error').waitFor();
        await expectAccessible(page, `${first.path} as ${visitor} with ${area.name} unavailable`);
      } finally {
        await setRemote(area.name, { blocked: false });
        await context.close();
      }
    });
  }
});
