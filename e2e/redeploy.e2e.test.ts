// A remote deployed again, on its own: a reload of the shell picks it up, the shell is not rebuilt.
import { randomBytes } from 'node:crypto';
import { cp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageForFile } from './browser.ts';
import { get, platform, setRemote } from './platform.ts';

const hashed = /[.-]([0-9a-f]{8,})\.[a-z0-9]+$/i;
const textFile = new Set(['.js', '.mjs', '.css', '.json', '.html', '.map']);

/**
 * Copies a remote's build and changes a text in it the way a new build would: every file whose
 * content changes gets a new content hash in its name, and every file naming it is changed too
 * (the chunk, then the remote entry's chunk map and mf-manifest.json, which keep their names).
 */
async function copyWithChange(from: string, to: string, find: string, replace: string): Promise<void> {
  await rm(to, { recursive: true, force: true });
  await cp(from, to, { recursive: true });
  const files = new Set(
    (await readdir(to, { recursive: true, withFileTypes: true })).filter((e) => e.isFile() && textFile.has(extname(e.name))).map((e) => join(e.parentPath, e.name)),
  );
  const changed: string[] = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    if (!text.includes(find)) continue;
    await writeFile(file, text.replaceAll(find, replace));
    changed.push(file);
  }
  expect(changed.length, `"${find}" in the build of ${from}`).toBeGreaterThan(0);

  const renamed = new Set<string>();
  for (let file = changed.shift(); file; file = changed.shift()) {
    const oldHash = hashed.exec(basename(file))?.[1];
    if (!oldHash || renamed.has(file)) continue;
    const newHash = randomBytes(oldHash.length).toString('hex').slice(0, oldHash.length);
    const moved = join(dirname(file), basename(file).replace(oldHash, newHash));
    await rename(file, moved);
    files.delete(file);
    files.add(moved);
    renamed.add(moved);
    for (const other of files) {
      const text = await readFile(other, 'utf8');
      if (!text.includes(oldHash)) continue;
      await writeFile(other, text.replaceAll(oldHash, newHash));
      if (!changed.includes(other)) changed.push(other);
    }
  }
}

const page = pageForFile(() => setRemote('trades', { dir: null }));

describe('deploying one remote', () => {
  it('a rebuilt remote is picked up by a reload of the shell, without rebuilding the shell', async () => {
    const heading = (name: string) => page().locator('[data-testid="remote-area"]').getByRole('heading', { name, exact: true });
    const rebuilt = join(platform().tmpDir, 'trades-rebuilt');
    await copyWithChange(platform().remotes.trades!, rebuilt, 'Jouw Ruilaanbiedingen', 'Jouw Ruilaanbiedingen (nieuwe versie)');

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
