// Every bench runs in `npm test`: each root script that runs a file under a `bench/` folder has a
// test that runs it through runBenchSmoke and names it as `<script> --smoke` (README, "Other
// commands"). A new bench without one fails here.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../..', import.meta.url));
const IGNORED = new Set(['node_modules', 'dist', '.data', '.tools', '.git']);

async function testFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (IGNORED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await testFiles(path)));
    else if (/\.(unit|int|e2e)\.test\.ts$/.test(entry.name)) found.push(path);
  }
  return found;
}

it('every bench script has a smoke test', async () => {
  const { scripts } = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const benches = Object.entries(scripts)
    .filter(([, command]) => /\S*\/bench\/\S+\.ts\b/.test(command))
    .map(([name]) => name);
  expect(benches).toEqual(expect.arrayContaining(['bench:gateway', 'bench:auth', 'bench:upload', 'size', 'lcp']));

  const smokeTests = await Promise.all(
    (await testFiles(repo)).map((file) => readFile(file, 'utf8')),
  ).then((texts) => texts.filter((text) => text.includes('runBenchSmoke(')));
  expect(benches.filter((name) => !smokeTests.some((text) => text.includes(`${name} --smoke`)))).toEqual([]);
});
