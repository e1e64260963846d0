// Long category names on a phone (issue 27: 'Dierenbenodigdhede…' was cut off at 390 px): wherever
// the listings remote shows a category's name, on a 390x844 screen and on a desktop, the whole
// name is on screen: the listing's page, the search page's and the services page's category
// filters, and the add-listing form.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Category } from '@ruilplein/contracts/browser';
import { account, call, png, type Account } from './api.ts';
import { expectAccessible } from './axe.ts';
import { explainFailure, launchBrowser, openPage } from './browser.ts';
import { logInWithForm } from './members.ts';

let browser: Browser;
let page: Page;
let member: Account;
let longest: Category;
let listingId = '';

beforeAll(async () => {
  browser = await launchBrowser();
  member = await account('Dieuwke');
  // The name with the longest word, which cannot wrap at a space: 'Dierenbenodigdheden' in the seed.
  const categories = (await call<Category[]>('/api/category')).body.filter((c) => !c.isPremium);
  const longestWord = (c: Category) => Math.max(...c.name.split(/\s+/).map((word) => word.length));
  longest = categories.reduce((a, b) => (longestWord(b) > longestWord(a) ? b : a));
  expect(longest.name, 'the category with the longest word').toBe('Dierenbenodigdheden');
  const form = new FormData();
  form.set('title', 'Kattenmand');
  form.set('description', 'Kattenmand: netjes en compleet, op te halen in de buurt.');
  form.set('initialValue', '25');
  form.set('isPremium', 'false');
  form.set('listingType', 'item');
  form.set('acceptsItems', 'false');
  form.append('CategoryIDs', longest.id);
  form.append('images', new Blob([new Uint8Array(png(48, 36, [31, 122, 77]))], { type: 'image/png' }), 'foto.png');
  const made = await call<{ listing: { id: string } }>('/api/listing/create', { method: 'POST', body: form, token: member.token });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  listingId = made.body.listing.id;
  ({ page } = await openPage(browser));
  await logInWithForm(page, member);
});
afterAll(() => browser?.close());
beforeEach((test) => explainFailure(test, () => page));

/**
 * Why the text of `element` is not wholly on screen, or null: the box is narrower than its text
 * (an ellipsis, or text running out of it), or the text reaches past the viewport or the edge of a
 * box around it that clips (overflow other than visible).
 */
const cutOff = (element: Locator): Promise<string | null> =>
  element.evaluate((el) => {
    type Box = { left: number; right: number; top: number; bottom: number };
    type El = { scrollWidth: number; clientWidth: number; parentElement: El | null; tagName: string; getBoundingClientRect(): Box; firstChild: unknown };
    const page = globalThis as unknown as {
      document: { createRange(): { selectNodeContents(node: unknown): void; getBoundingClientRect(): Box } };
      getComputedStyle(el: El): { overflowX: string; overflowY: string };
      innerWidth: number;
      innerHeight: number;
    };
    const node = el as unknown as El;
    if (node.scrollWidth > node.clientWidth) return `its box is ${node.clientWidth} px wide, its text ${node.scrollWidth} px`;
    const range = page.document.createRange();
    range.selectNodeContents(node);
    const text = range.getBoundingClientRect();
    const r = (n: number) => Math.round(n);
    const past = (inner: Box, outer: Box) => inner.left < outer.left - 0.5 || inner.right > outer.right + 0.5 || inner.top < outer.top - 0.5 || inner.bottom > outer.bottom + 0.5;
    if (past(text, { left: 0, top: 0, right: page.innerWidth, bottom: page.innerHeight })) return `its text (${r(text.left)}..${r(text.right)}) leaves the ${page.innerWidth} px wide screen`;
    for (let up = node.parentElement; up; up = up.parentElement) {
      const style = page.getComputedStyle(up);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const box = up.getBoundingClientRect();
      if (past(text, box)) return `its text (${r(text.left)}..${r(text.right)}) is clipped by a ${up.tagName.toLowerCase()} (${r(box.left)}..${r(box.right)})`;
    }
    return null;
  });

/** The one element on the page whose own text is the name, brought into view; then what of it is cut off. */
async function expectWhole(where: string, scope: Locator): Promise<void> {
  const name = scope.getByText(longest.name, { exact: true });
  await name.first().waitFor();
  expect(await name.count(), `'${longest.name}' once on ${where}`).toBe(1);
  await name.scrollIntoViewIfNeeded();
  expect(await name.innerText()).toBe(longest.name);
  expect(await cutOff(name), `'${longest.name}' on ${where}`).toBeNull();
}

describe('a long category name', () => {
  for (const [label, size] of [
    ['on a phone (390x844)', { width: 390, height: 844 }],
    ['on a desktop (1280x800)', { width: 1280, height: 800 }],
  ] as const) {
    it(`is shown whole ${label}: listing, search and services filters, listing form`, async () => {
      await page.setViewportSize(size);
      const phone = size.width < 768;

      await page.goto(`/dashboard/listing/${listingId}`);
      await page.getByRole('heading', { name: 'Kattenmand' }).waitFor();
      await expectWhole(`the listing's page ${label}`, page.getByRole('region', { name: 'Categorieën', exact: true }));
      if (phone) await expectAccessible(page, '/dashboard/listing/:id on a phone');

      await page.goto('/dashboard/search');
      if (phone) await page.getByRole('button', { name: /^Filters/ }).click();
      await expectWhole(`the search filters ${label}`, page.getByRole('search', { name: 'Listings filteren' }));

      await page.goto('/dashboard/services');
      await expectWhole(`the services filters ${label}`, page.getByTestId('remote-area'));

      await page.goto('/dashboard/add-listing');
      await expectWhole(`the listing form ${label}`, page.getByTestId('remote-area'));
      if (phone) await expectAccessible(page, '/dashboard/add-listing on a phone');
    });
  }
});
