// axe-core in the e2e browser: which pages there are (the shell's and each remote's declarations),
// waiting until a page has settled, and a check that fails on serious and critical violations.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page, Request } from 'playwright-core';
import type { AxeResults, Result } from 'axe-core';
import { fullPath, type Audience, type PublishedArea } from '../packages/ui/src/area.ts';
import { shellPages } from '../shell/src/pages.ts';
import { get, platform } from './platform.ts';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Who visits a page: signed out, a member made for this run (empty states), the seeded Beheerder. */
export type Visitor = 'guest' | 'member' | 'admin';

export interface PageToCheck {
  /** The path to open (a declared page's `example` when its path has parameters). */
  path: string;
  /** Who declared it: `shell` or the remote's name. */
  owner: string;
  visitors: Visitor[];
}

const visitorsFor = (audience: Audience | 'guest'): Visitor[] =>
  // Admins see more (extra entries, filled lists) on the members' pages, so those are checked twice.
  audience === 'guest' ? ['guest'] : audience === 'admin' ? ['admin'] : ['member', 'admin'];

/** The shell's own pages (`shell/src/pages.ts`). */
export function shellPagesToCheck(): PageToCheck[] {
  return shellPages.map((page) => ({ path: page.example ?? page.path, owner: 'shell', visitors: visitorsFor(page.access) }));
}

/**
 * Each remote's published `area.json`, found next to the manifest `/remotes.json` points at; a remote
 * without one is reported in `missing`, so its pages are not silently left out.
 */
export async function remoteAreas(): Promise<{ areas: PublishedArea[]; missing: string[] }> {
  const res = await get('/remotes.json');
  if (!res.ok) throw new Error(`/remotes.json answered ${res.status}`);
  const manifests = (await res.json()) as Record<string, string>;
  const areas: PublishedArea[] = [];
  const missing: string[] = [];
  for (const [name, manifest] of Object.entries(manifests)) {
    const found = await fetch(new URL('area.json', new URL(manifest, platform().url)));
    if (found.ok && found.headers.get('content-type')?.includes('json')) areas.push((await found.json()) as PublishedArea);
    else missing.push(`${name} (${found.status})`);
  }
  return { areas, missing };
}

export function areaPagesToCheck(area: PublishedArea): PageToCheck[] {
  return area.pages.map((page) => ({ path: page.example ?? fullPath(area.mount, page), owner: area.name, visitors: visitorsFor(page.audience ?? 'member') }));
}

// In the page (a string: this code is type-checked without the DOM's types).
const settled = `(() => {
  const visible = (el) => el.checkVisibility();
  // A spinner: a status with a drawing beside its label (a form's status notice has none).
  if ([...document.querySelectorAll('[role="status"]:has(> [aria-hidden="true"])')].some(visible)) return false;
  const areas = [...document.querySelectorAll('[data-testid="remote-area"]')];
  if (areas.some((area) => !area.querySelector('h1, h2, [role="alert"]'))) return false;
  const running = document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity);
  return document.fonts.status === 'loaded' && running.length === 0;
})()`;

/** Requests each page has under way (a page's own polling keeps playwright's 'networkidle' from ever coming). */
const underWay = new WeakMap<Page, Set<Request>>();

/** Counts the page's requests from now on: call it before the page's first `goto`. */
export function trackRequests(page: Page): Set<Request> {
  let open = underWay.get(page);
  if (!open) {
    const requests = (open = new Set<Request>());
    underWay.set(page, requests);
    page.on('request', (req) => requests.add(req));
    // Answered is enough: a body nobody reads (a failed fetch's) may never count as finished.
    page.on('response', (res) => requests.delete(res.request()));
    page.on('requestfinished', (req) => requests.delete(req));
    page.on('requestfailed', (req) => requests.delete(req));
  }
  return open;
}

/**
 * Waits until the page shows what it will show: fonts loaded, no spinner visible, a remote's area
 * rendered (a heading or its error), finite animations and transitions done, no request under way.
 * Polled from here: the page's CSP forbids the eval that playwright's waitForFunction polls with.
 */
export async function settle(page: Page, timeout = 15_000): Promise<void> {
  const requests = trackRequests(page);
  await page.waitForLoadState('load');
  const deadline = Date.now() + timeout;
  for (let quiet = 0; quiet < 2; ) {
    quiet = requests.size === 0 && (await page.evaluate(settled)) ? quiet + 1 : 0;
    if (Date.now() > deadline) throw new Error(`${page.url()} did not settle in ${timeout} ms (under way: ${[...requests].map((req) => req.url()).join(', ') || 'no request'}; or a spinner, an empty remote area, a running animation)`);
    await page.waitForTimeout(100);
  }
}

/** Runs axe-core on the page as it is (injected through the DevTools protocol: the page's CSP allows no inline script). */
export async function runAxe(page: Page): Promise<AxeResults> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axeSource);
  const results = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as AxeResults;
  if (results.passes.length === 0) throw new Error(`axe-core checked nothing on ${page.url()}`);
  return results;
}

export const blocking = (violations: Result[]) => violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');

/** One line per violation: rule, impact, what to do, the first few elements. */
export function describeViolations(where: string, violations: Result[]): string {
  const lines = violations.map((v) => {
    const nodes = v.nodes.slice(0, 4).map((node) => `      ${node.target.join(' ')}${node.failureSummary ? `: ${node.failureSummary.replace(/\s+/g, ' ').slice(0, 200)}` : ''}`);
    const more = v.nodes.length > 4 ? [`      … and ${v.nodes.length - 4} more`] : [];
    return [`  ${v.id} (${v.impact}): ${v.help} ${v.helpUrl}`, ...nodes, ...more].join('\n');
  });
  return `${violations.length} serious or critical accessibility violation(s) on ${where}:\n${lines.join('\n')}`;
}

/** Moderate and minor violations by rule, with where they were seen: reported, not failed on. */
export const lesserFindings = new Map<string, { impact: string; help: string; where: Set<string> }>();

/** One line per rule of `lesserFindings`. */
export const describeLesserFindings = () =>
  [...lesserFindings].map(([id, { impact, help, where }]) => `  ${id} (${impact}): ${help}; on ${[...where].slice(0, 5).join(', ')}${where.size > 5 ? ` and ${where.size - 5} more` : ''}`).join('\n');

/** Fails (with the rule, impact, help and elements) when axe finds anything serious or critical. */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  await settle(page);
  const { violations } = await runAxe(page);
  for (const v of violations.filter((found) => !blocking([found]).length)) {
    const seen = lesserFindings.get(v.id) ?? { impact: v.impact ?? 'unknown', help: v.help, where: new Set<string>() };
    lesserFindings.set(v.id, seen);
    seen.where.add(where);
  }
  const found = blocking(violations);
  if (found.length > 0) throw new Error(describeViolations(where, found));
}
