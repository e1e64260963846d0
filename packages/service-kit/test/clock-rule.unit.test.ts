// The lint rule that keeps one clock: services and the kit read the platform's time (clock.ts),
// never the machine's, except where a line says why. Checked on the repository's own eslint.config.js.
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const eslint = new ESLint({ cwd: root });

/** The messages of the clock rule for `code` as if it were the file at `path`. */
async function clockFindings(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

const READINGS = 'export const a = Date.now();\nexport const b = new Date();\nexport const c = [1].map(Date.now);\n';

describe('the clock rule', () => {
  it("refuses the machine's time in services and the kit", async () => {
    for (const path of ['services/listing/src/listings/example.ts', 'services/gateway/src/example.ts', 'packages/service-kit/src/example.ts']) {
      const found = await clockFindings(path, READINGS);
      expect(found, path).toHaveLength(3);
      expect(found[0]).toContain('@ruilplein/service-kit');
    }
  });

  it('allows dates made from a value, durations by performance.now(), and the clock itself', async () => {
    expect(await clockFindings('services/trade/src/example.ts', 'export const a = new Date(0);\nexport const b = new Date("2026-01-01");\nexport const c = performance.now();\n')).toEqual([]);
    expect(await clockFindings('packages/service-kit/src/clock.ts', READINGS)).toEqual([]);
  });

  it('allows a real-time reading whose line is disabled with its reason', async () => {
    const code = "// Real time: verifiers check `exp` against their own clock.\n// eslint-disable-next-line no-restricted-syntax\nexport const exp = Math.floor(Date.now() / 1000) + 900;\n";
    expect(await clockFindings('services/auth/src/accounts/example.ts', code)).toEqual([]);
  });

  it('leaves tests, browsers and tools alone', async () => {
    for (const path of ['services/listing/test/example.test.ts', 'packages/ui/src/example.ts', 'e2e/example.ts']) {
      expect(await clockFindings(path, READINGS), path).toEqual([]);
    }
  });
});
