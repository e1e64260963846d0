// `npm run typecheck` checks the shell's use of each remote's `./routes` against the remote's source
// (tsconfig.web.json `paths`). Here a remote changes its exposed component's props in a way the shell's
// mount does not provide, and tsc must fail, naming the remote.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '../..');
let dir: string;

/** tsc over the shell with tsconfig.web.json's settings, `listings/routes` mapped to `listings`. */
async function typecheckShell(listings: string) {
  const config = join(dir, `tsconfig.${Date.now()}.json`);
  await writeFile(
    config,
    JSON.stringify({
      extends: join(repo, 'tsconfig.web.json'),
      compilerOptions: {
        paths: {
          'listings/routes': [listings],
          'trades/routes': [join(repo, 'mfe-trades/src/routes.tsx')],
          'admin/routes': [join(repo, 'mfe-admin/src/routes.tsx')],
          'react-router-dom': [join(repo, 'packages/ui/src/router.ts')],
        },
      },
      include: [join(repo, 'shell/src'), join(repo, 'packages/frontend-build/web/env.d.ts')],
    }),
  );
  const tsc = spawnSync(join(repo, 'node_modules/.bin/tsc'), ['-p', config], { cwd: repo, encoding: 'utf8' });
  return { status: tsc.status, output: tsc.stdout + tsc.stderr };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ruilplein-remote-types-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("the shell's use of a remote's ./routes", () => {
  it('passes with the real listings routes', async () => {
    const { status, output } = await typecheckShell(join(repo, 'mfe-listings/src/routes.tsx'));
    expect(output).toBe('');
    expect(status).toBe(0);
  }, 60_000);

  it('fails when the exposed component needs a prop the shell does not pass', async () => {
    const fixture = join(dir, 'listings-routes.ts');
    await writeFile(fixture, 'export default function ListingsRoutes(_props: { basename: string }) {\n  return null;\n}\n');
    const { status, output } = await typecheckShell(fixture);
    expect(status).not.toBe(0);
    // The error points at the shell's check of the listings remote and names the missing prop.
    const source = (await readFile(join(repo, 'shell/src/remotes.ts'), 'utf8')).split('\n');
    const line = source.findIndex((text) => text.includes('listings: undefined as unknown as typeof ListingsRoutes')) + 1;
    expect(line).toBeGreaterThan(0);
    expect(output).toContain(`shell/src/remotes.ts(${line},`);
    expect(output).toContain("Property 'basename' is missing");
  }, 60_000);
});
