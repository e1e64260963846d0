// One journey with the keyboard only: from the homepage to signing in and out, every focus stop visible.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { settle, trackRequests } from './axe.ts';
import { explainFailure, launchBrowser, openPage } from './browser.ts';
import { newMember, registerMember } from './members.ts';

let browser: Browser;
let page: Page | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach((test) => explainFailure(test, () => page));

interface Stop {
  /** `a "Inloggen"`, `button "Gast"`, `input#login-email`. */
  name: string;
  /** Why the focus cannot be seen there, or null. */
  problem: string | null;
}

/** Where the focus is and whether a sighted keyboard user sees it: an outline or a box-shadow ring, inside the viewport. */
const focusStop = (p: Page): Promise<Stop> =>
  p.evaluate(`(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { name: '(body)', problem: 'nothing has focus' };
    const label = (el.getAttribute('aria-label') ?? el.innerText ?? '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    const name = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (label ? ' "' + label + '"' : '');
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const ring = style.boxShadow !== 'none';
    const box = el.getBoundingClientRect();
    const inView = box.width > 0 && box.height > 0 && box.bottom > 0 && box.right > 0 && box.top < innerHeight && box.left < innerWidth;
    const problem = !outline && !ring ? 'no outline and no box-shadow' : !inView ? 'outside the viewport (' + Math.round(box.left) + ',' + Math.round(box.top) + ')' : null;
    return { name, problem };
  })()`);

/**
 * Presses `key` (Tab or Shift+Tab) until the focused element is `target`, at most `max` times,
 * checking at every stop that the focus is visible; fails with every stop seen.
 */
async function tabTo(p: Page, target: (stop: Stop) => boolean, what: string, { key = 'Tab', max = 40 } = {}): Promise<Stop[]> {
  const seen: Stop[] = [];
  for (let i = 0; i < max; i++) {
    await p.keyboard.press(key);
    const stop = await focusStop(p);
    seen.push(stop);
    const trail = () => seen.map((s, n) => `  ${n + 1}. ${s.name}${s.problem ? `  <- ${s.problem}` : ''}`).join('\n');
    if (stop.problem) throw new Error(`focus not visible at ${stop.name} on ${new URL(p.url()).pathname}: ${stop.problem}; stops:\n${trail()}`);
    if (target(stop)) return seen;
    if (i === max - 1) throw new Error(`${what} not reached with ${max} × ${key} on ${new URL(p.url()).pathname}; stops:\n${trail()}`);
  }
  return seen;
}

const named = (text: string) => (stop: Stop) => stop.name.includes(`"${text}`);

describe('the keyboard alone', () => {
  it('signs a member in from the homepage and out from the dashboard, with the focus visible at every stop', async () => {
    const member = await registerMember(newMember('Toetsen'));
    ({ page } = await openPage(browser));
    trackRequests(page);
    await page.goto('/');
    await settle(page);

    // The first stop skips the header.
    const [first] = await tabTo(page, () => true, 'the first stop');
    expect(first!.name, 'the first Tab stop').toContain('Naar de inhoud');

    // The account menu ('Gast') holds Inloggen.
    await tabTo(page, (stop) => named('Inloggen')(stop) || (stop.name.startsWith('button') && named('Gast')(stop)), "'Inloggen' or the account menu");
    if ((await focusStop(page)).name.startsWith('button')) {
      await page.keyboard.press('Enter');
      await tabTo(page, named('Inloggen'), "'Inloggen' in the account menu", { max: 5 });
    }
    await page.keyboard.press('Enter');
    await page.waitForURL('**/login');
    await settle(page);

    await tabTo(page, (stop) => stop.name.startsWith('input#login-email'), 'the e-mail field');
    await page.keyboard.type(member.email);
    await tabTo(page, (stop) => stop.name.startsWith('input#login-password'), 'the password field', { max: 3 });
    await page.keyboard.type(member.password);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/dashboard');
    await page.waitForFunction("localStorage.getItem('ruilplein.token') !== null");
    await settle(page);

    await tabTo(page, (stop) => stop.name.startsWith('button') && named('Uitloggen')(stop), "'Uitloggen' in the sidebar");
    await page.keyboard.press('Enter');
    await page.waitForURL('**/login');
    await page.waitForFunction("localStorage.getItem('ruilplein.token') === null");
  });
});
