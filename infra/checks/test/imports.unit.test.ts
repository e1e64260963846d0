// Imports point one way and form no cycle (.dependency-cruiser.mjs), and no file or export is
// unused (knip.jsonc). Both tools run over the whole tree as their own processes.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../..', import.meta.url));
const depcruise = join(repo, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
const knip = join(repo, 'node_modules/knip/bin/knip.js');

/** Runs a tool's script with this Node; both exit non-zero when they find something, so the output is what counts. */
function run(script: string, args: string[], cwd = repo): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [script, ...args], { cwd, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (stdout.trim()) resolve(stdout);
      else reject(new Error(`${script} printed nothing (${err?.message ?? 'exit 0'}): ${stderr}`));
    }),
  );
}

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: { name: string }[];
}

async function violations(cwd: string, config: string): Promise<string[]> {
  const { summary } = JSON.parse(await run(depcruise, ['--config', config, '--output-type', 'json', '.'], cwd)) as { summary: { violations: Violation[] } };
  return summary.violations.map((v) => `${v.rule.name}: ${v.cycle ? [v.from, ...v.cycle.map((c) => c.name)].join(' → ') : `${v.from} → ${v.to}`}`).sort();
}

describe('imports', () => {
  it('point one way, resolve and form no cycle', async () => {
    expect(await violations(repo, join(repo, '.dependency-cruiser.mjs'))).toEqual([]);
  }, 60_000);

  describe('the rules', () => {
    let dir: string;
    afterAll(() => dir && rm(dir, { recursive: true, force: true }));

    // A small tree with one of each wrong import and the allowed ones next to them: the rules catch
    // exactly the wrong ones (a rule that matches nothing would let the check above pass forever).
    it('catch each wrong direction and allow the right ones', async () => {
      dir = await mkdtemp(join(tmpdir(), 'imports-'));
      const files: Record<string, string> = {
        'tsconfig.web.json': '{ "compilerOptions": { "allowImportingTsExtensions": true } }',
        'packages/kit/src/index.ts': `import '../../contracts/src/index.ts';\nimport '../../../services/auth/src/app.ts';\nexport const kit = 1;`,
        'packages/kit/test/kit.test.ts': `import '../../../infra/local/src/testing.ts';`,
        'packages/contracts/src/index.ts': `export const contracts = 1;`,
        'services/auth/src/app.ts': `import '../../../packages/contracts/src/index.ts';\nimport '../../trade/src/app.ts';\nimport '../../../infra/local/src/index.ts';\nimport './a.ts';`,
        'services/auth/src/a.ts': `import './b.ts';`,
        'services/auth/src/b.ts': `import './a.ts';`,
        'services/auth/test/app.test.ts': `import '../../../infra/local/src/testing.ts';\nimport '../../../infra/local/src/stores.ts';`,
        'services/trade/src/app.ts': `export const trade = 1;`,
        'infra/local/src/index.ts': `export const local = 1;`,
        'infra/local/src/testing.ts': `export const testing = 1;`,
        'infra/local/src/stores.ts': `export const stores = 1;`,
        'infra/checks/src/check.ts': `import '../../../services/trade/src/app.ts';\nimport '../../local/src/index.ts';\nimport './missing.ts';`,
        'shell/src/remotes.ts': `import type {} from '../../mfe-a/src/routes.tsx';\nimport '../../mfe-a/src/area.ts';`,
        'shell/src/remotes.bundled.ts': `import '../../mfe-a/src/routes.tsx';`,
        'shell/test/areas.test.ts': `import '../../mfe-a/src/area.ts';`,
        'mfe-a/src/routes.tsx': `import '../../shell/src/session.ts';\nimport '../../mfe-b/src/routes.tsx';\nexport default 1;`,
        'shell/src/session.ts': `export const session = 1;`,
        'shell/src/menu.ts': `import type {} from '../../mfe-a/src/area.ts';`,
        'mfe-a/src/area.ts': `export const area = 1;`,
        'mfe-b/src/routes.tsx': `import '../../services/trade/src/app.ts';\nexport default 1;`,
        'e2e/setup.ts': `import '../services/auth/src/app.ts';\nimport '../shell/src/session.ts';`,
        'services/trade/test/x.test.ts': `import '../../../e2e/setup.ts';`,
      };
      for (const [path, text] of Object.entries(files)) {
        await mkdir(dirname(join(dir, path)), { recursive: true });
        await writeFile(join(dir, path), text);
      }
      expect(await violations(dir, join(repo, '.dependency-cruiser.mjs'))).toEqual([
        'e2e-not-service-code: e2e/setup.ts → services/auth/src/app.ts',
        'frontends-not-backend: mfe-b/src/routes.tsx → services/trade/src/app.ts',
        'infra-not-service-code: infra/checks/src/check.ts → services/trade/src/app.ts',
        'no-cycles: services/auth/src/a.ts → services/auth/src/b.ts → services/auth/src/a.ts',
        'not-to-unresolvable: infra/checks/src/check.ts → ./missing.ts',
        'nothing-imports-e2e: services/trade/test/x.test.ts → e2e/setup.ts',
        'packages-import-packages-only: packages/kit/src/index.ts → services/auth/src/app.ts',
        'packages-import-packages-only: packages/kit/test/kit.test.ts → infra/local/src/testing.ts',
        'remotes-independent: mfe-a/src/routes.tsx → mfe-b/src/routes.tsx',
        'remotes-independent: mfe-a/src/routes.tsx → shell/src/session.ts',
        'service-code-not-infra: services/auth/src/app.ts → infra/local/src/index.ts',
        'service-tests-only-the-local-harness: services/auth/test/app.test.ts → infra/local/src/stores.ts',
        'services-not-each-other: services/auth/src/app.ts → services/trade/src/app.ts',
        'shell-loads-remotes-at-run-time: shell/src/remotes.ts → mfe-a/src/area.ts',
        'shell-types-remotes-in-one-place: shell/src/menu.ts → mfe-a/src/area.ts',
      ]);
    }, 60_000);
  });
});

describe('unused code', () => {
  it('no file or export is unused', async () => {
    type Item = { name: string };
    const report = JSON.parse(await run(knip, ['--reporter', 'json', '--no-progress'])) as { issues: ({ file: string } & Record<string, Item[] | string>)[] };
    const found = report.issues.flatMap(({ file, ...kinds }) =>
      Object.entries(kinds)
        .filter((entry): entry is [string, Item[]] => Array.isArray(entry[1]) && entry[1].length > 0)
        .map(([kind, items]) => (kind === 'files' ? `${file}: unused file` : `${file}: ${kind} ${items.map((i) => i.name).join(', ')}`)),
    );
    expect(found).toEqual([]);
  }, 120_000);
});
