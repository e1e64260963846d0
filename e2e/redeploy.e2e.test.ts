// A remote deployed again, on its own: a reload of the shell picks it up, the shell is not rebuilt.
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '@ruilplein/local';
import { describe, expect, it } from 'vitest';
import { pageForFile } from './browser.ts';
import { setRemote } from './platform.ts';

type Edit = { file: string; find: string; replace: string };

/**
 * Builds a copy of mfe-trades with some source changed, the way its team would deploy a new version.
 * The copy lives inside the repository (ignored by git) so its imports resolve from the same node_modules.
 */
async function rebuildTradesWith(label: string, edits: Edit[]): Promise<string> {
  const copy = join(repoRoot, '.cache', 'e2e', `mfe-trades-${label}`);
  await rm(copy, { recursive: true, force: true });
  await cp(join(repoRoot, 'mfe-trades'), copy, { recursive: true, filter: (src) => !src.includes('/dist') && !src.includes('/node_modules') });
  for (const { file, find, replace } of edits) {
    const path = join(copy, file);
    const source = await readFile(path, 'utf8');
    expect(source, `${file} contains what the test changes`).toContain(find);
    await writeFile(path, source.replace(find, replace));
  }
  await promisify(execFile)(join(repoRoot, 'node_modules', '.bin', 'rspack'), ['build'], { cwd: copy });
  return join(copy, 'dist');
}

/** A fingerprint of every file of the shell's build, to show it did not change. */
async function shellBuild(): Promise<string> {
  const dir = join(repoRoot, 'shell', 'dist');
  const hash = createHash('sha256');
  for (const file of (await readdir(dir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name)).sort()) {
    hash.update(file).update(await readFile(file));
  }
  return hash.digest('hex');
}

const page = pageForFile(() => setRemote('trades', { dir: null }));
const area = () => page().locator('[data-testid="remote-area"]');
const heading = (name: string) => area().getByRole('heading', { name, exact: true });
const sidebar = () => page().getByRole('navigation', { name: 'Dashboard' });

describe('deploying one remote', () => {
  it('a new page and menu entry of a rebuilt remote appear after a reload, with the shell unchanged', async () => {
    const rebuilt = await rebuildTradesWith('history', [
      {
        file: 'src/area.ts',
        find: "  menu: [",
        replace: "  menu: [\n    { to: '/dashboard/ruilhistorie', label: 'Ruilhistorie', icon: 'history', order: 60, audience: 'member' },",
      },
      { file: 'src/area.ts', find: '  pages: [', replace: "  pages: [\n    { path: 'ruilhistorie', title: 'Ruilhistorie' }," },
      {
        file: 'src/routes.tsx',
        find: '      screens={{',
        replace: '      screens={{\n        ruilhistorie: (\n          <Page title="Jouw ruilhistorie">\n            <p>Alles wat je ooit hebt geruild.</p>\n          </Page>\n        ),',
      },
      { file: 'src/routes.tsx', find: "import { AreaRoutes } from '@ruilplein/ui';", replace: "import { AreaRoutes, Page } from '@ruilplein/ui';" },
      { file: 'src/offers/OffersPage.tsx', find: 'title="Jouw Ruilaanbiedingen"', replace: 'title="Jouw Ruilaanbiedingen (nieuwe versie)"' },
    ]);
    const shell = await shellBuild();

    // The old version, in this browser's cache: no such entry yet, the path is not found.
    await page().goto('/dashboard/offers');
    await heading('Jouw Ruilaanbiedingen').waitFor();
    expect(await sidebar().getByRole('link', { name: 'Ruilhistorie' }).count()).toBe(0);

    await setRemote('trades', { dir: rebuilt });
    try {
      await page().reload();
      await heading('Jouw Ruilaanbiedingen (nieuwe versie)').waitFor();
      // The entry sits in its declared place: after Ruilaanbiedingen (50), before Mijn profiel (90).
      const entry = sidebar().getByRole('link', { name: 'Ruilhistorie' });
      await entry.waitFor();
      const labels = (await sidebar().getByRole('link').allInnerTexts()).map((text) => text.trim());
      expect(labels.indexOf('Ruilhistorie')).toBe(labels.indexOf('Ruilaanbiedingen') + 1);
      expect(labels.indexOf('Mijn profiel')).toBeGreaterThan(labels.indexOf('Ruilhistorie'));
      await entry.click();
      await heading('Jouw ruilhistorie').waitFor();
      expect(page().url()).toMatch(/\/dashboard\/ruilhistorie$/);
      expect(await page().title()).toBe('Ruilhistorie | Ruilplein');
      expect(await shellBuild(), 'the shell is the same build').toBe(shell);
    } finally {
      await setRemote('trades', { dir: null });
    }
    await page().goto('/dashboard/offers');
    await heading('Jouw Ruilaanbiedingen').waitFor();
    await page().goto('/dashboard/ruilhistorie');
    await page().getByRole('heading', { name: 'Pagina niet gevonden' }).waitFor();
  });

  it('a remote built against another major of @ruilplein/ui shows its Dutch error and loads none of its code', async () => {
    const rebuilt = await rebuildTradesWith('ui-2', [{ file: 'package.json', find: '"@ruilplein/ui": "^1.4.0"', replace: '"@ruilplein/ui": "^2.0.0"' }]);
    const fetched: string[] = [];
    page().on('request', (req) => {
      const path = new URL(req.url()).pathname;
      if (path.startsWith('/mfe/trades/')) fetched.push(path);
    });
    await setRemote('trades', { dir: rebuilt });
    try {
      await page().goto('/dashboard/offers');
      await area()
        .getByText('Dit onderdeel is gemaakt voor een andere versie van Ruilplein en kan nu niet worden geladen. Probeer het later opnieuw.')
        .waitFor();
      expect(fetched, 'only its declaration was read').toEqual(['/mfe/trades/area.json']);
      // The other remotes and the shell's own pages are unaffected.
      await page().goto('/dashboard/search');
      await area().locator('[data-testid="category"]').first().waitFor();
    } finally {
      await setRemote('trades', { dir: null });
    }
    await page().goto('/dashboard/offers');
    await heading('Jouw Ruilaanbiedingen').waitFor();
  });
});
