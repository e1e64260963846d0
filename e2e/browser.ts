// Debian's Chromium through playwright-core (the bootstrap installs it with apt-get).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, type TestContext } from 'vitest';
import { REVIEW_MESSAGES } from '@ruilplein/contracts/browser';
import { DEMO_ADMIN_EMAIL, DEMO_PASSWORD } from '@ruilplein/contracts/demo';
import { logInWithForm, newMember, registerMember } from './members.ts';
import { platform } from './platform.ts';

export const chromiumPath = '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} is missing: run \`npm run bootstrap\` (apt-get install chromium)`);
  return chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

/** A fresh context (cookies, storage, cache) on the platform's origin, Dutch and in Amsterdam. */
export async function openPage(browser: Browser, opts: { storageState?: string } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: platform().url, locale: 'nl-NL', timezoneId: 'Europe/Amsterdam', ...opts });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const seen: string[] = [];
  page.on('console', (m) => m.type() === 'error' && seen.push(`console: ${m.text()}`));
  page.on('pageerror', (err) => seen.push(`uncaught: ${err.message}`));
  page.on('response', (res) => res.status() >= 400 && seen.push(`HTTP ${res.status()} ${res.url()}`));
  troubles.set(page, seen);
  return { context, page };
}

const troubles = new WeakMap<Page, string[]>();

/** For a `beforeEach`: when the test fails, print what the page showed and what went wrong in it. */
export function explainFailure(test: TestContext, page: () => Page | undefined): void {
  test.onTestFailed(async () => {
    const p = page();
    if (!p || p.isClosed()) return;
    const text = await p
      .locator('body')
      .innerText({ timeout: 2000 })
      .catch((err: Error) => `(no text: ${err.message})`);
    const seen = troubles.get(p) ?? [];
    console.log(`[e2e] the page at ${p.url()} showed:\n${text.slice(0, 1500)}\n[e2e] in the browser:\n${seen.slice(-20).join('\n') || '(no errors)'}`);
  });
}

/**
 * The login state (cookies and local storage) of a member made once per run and per `name`: registered
 * and activated through the API and the mail outbox (or, for 'admin', the seeded Beheerder), then
 * logged in with the /login form. Kept in a
 * file of the run's temp dir; pass it to `openPage(browser, { storageState })` to start logged in.
 */
export async function savedLoginState(browser: Browser, name = 'member'): Promise<string> {
  const file = join(platform().tmpDir, `login-${name}.json`);
  if (existsSync(file)) return file;
  // 'admin' is the Beheerder that local mode seeds; any other name is a new member.
  const member = name === 'admin' ? { email: DEMO_ADMIN_EMAIL, password: DEMO_PASSWORD } : await registerMember(newMember());
  const { context, page } = await openPage(browser);
  try {
    await logInWithForm(page, member);
    await context.storageState({ path: file });
  } finally {
    await context.close();
  }
  return file;
}

/**
 * One browser and one page for a whole test file, logged in as the run's member (the dashboard needs
 * a session) unless `loggedIn` is false; `restore` undoes the file's switches afterwards.
 */
export function pageForFile(restore?: () => Promise<void>, { loggedIn = true } = {}): () => Page {
  let browser: Browser | undefined;
  let page: Page | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
    ({ page } = await openPage(browser, loggedIn ? { storageState: await savedLoginState(browser) } : {}));
  });
  beforeEach((test) => explainFailure(test, () => page));
  afterAll(async () => {
    await restore?.();
    await browser?.close();
  });
  return () => page!;
}

/** Answers the confirmation dialog that `action` opens with `answer`. */
export async function confirmWith(page: Page, action: () => Promise<void>, question: string, answer: string): Promise<void> {
  await action();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByText(question).waitFor();
  await dialog.getByRole('button', { name: answer, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Gives `giver` five stars on a completed offer's page, as its review form asks, and waits for the thanks. */
export async function reviewWithFiveStars(page: Page, offerId: number, giver: { firstName: string }): Promise<void> {
  await page.goto(`/dashboard/tradeoffer/${offerId}`);
  const form = page.getByTestId('review-form');
  await form.getByRole('heading', { name: `Beoordeel ${giver.firstName}` }).waitFor();
  await form.locator('label').filter({ hasText: /^\s*5 sterren\s*$/ }).click();
  await form.getByRole('button', { name: 'Review versturen' }).click();
  await page.getByTestId('review-thanks').filter({ hasText: REVIEW_MESSAGES.thanks }).waitFor();
}
