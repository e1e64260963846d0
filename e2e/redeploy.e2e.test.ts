// A remote deployed again, on its own: a reload of the shell picks it up, the shell is not rebuilt.
import { execFile } from 'node:child_process';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '@ruilplein/local';
import { describe, expect, it } from 'vitest';
import { pageForFile } from './browser.ts';
import { get, setRemote } from './platform.ts';

/**
 * Builds a copy of mfe-trades with one text changed, the way its team would deploy a new version.
 * The copy lives inside the repository (ignored by git) so its imports resolve from the same node_modules.
 */
async function rebuildTradesWith(find: string, replace: string): Promise<string> {
  const copy = join(repoRoot, '.cache', 'e2e', 'mfe-trades');
  await rm(copy, { recursive: true, force: true });
  await cp(join(repoRoot, 'mfe-trades'), copy, { recursive: true, filter: (src) => !src.includes('/dist') && !src.includes('/node_modules') });
  const routes = join(copy, 'src', 'routes.tsx');
  const source = await readFile(routes, 'utf8');
  expect(source).toContain(find);
  await writeFile(routes, source.replaceAll(find, replace));
  await promisify(execFile)(join(repoRoot, 'node_modules', '.bin', 'rspack'), ['build'], { cwd: copy });
  return join(copy, 'dist');
}

const page = pageForFile(() => setRemote('trades', { dir: null }));

describe('deploying one remote', () => {
  it('a rebuilt remote is picked up by a reload of the shell, without rebuilding the shell', async () => {
    const heading = (name: string) => page().locator('[data-testid="remote-area"]').getByRole('heading', { name, exact: true });
    const rebuilt = await rebuildTradesWith('Jouw Ruilaanbiedingen', 'Jouw Ruilaanbiedingen (nieuwe versie)');

    // The old version, in this browser's cache.
    await page().goto('/dashboard/offers');
    await heading('Jouw Ruilaanbiedingen').waitFor();
    const shell = await (await get('/')).text();

    await setRemote('trades', { dir: rebuilt });
    try {
      await page().reload();
      await heading('Jouw Ruilaanbiedingen (nieuwe versie)').waitFor();
      expect(await (await get('/')).text(), 'the shell is the same build').toBe(shell);
    } finally {
      await setRemote('trades', { dir: null });
    }
    await page().reload();
    await heading('Jouw Ruilaanbiedingen').waitFor();
  });
});
