// The engine stays a pure package: it imports the contracts and its own files only (no store, NATS,
// HTTP or service kit), and reads no clock: time comes in as an argument.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const src = join(import.meta.dirname, '..', 'src');
const files = readdirSync(src).filter((f) => f.endsWith('.ts'));

it('imports only @ruilplein/contracts and its own files', () => {
  expect(files.length).toBeGreaterThan(5);
  for (const file of files) {
    const text = readFileSync(join(src, file), 'utf8');
    const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
    for (const specifier of specifiers) expect(specifier === '@ruilplein/contracts' || /^\.\/[\w-]+\.ts$/.test(specifier), `${file}: ${specifier}`).toBe(true);
    expect(text, file).not.toMatch(/\bimport\s*\(/);
  }
});

it('reads no clock', () => {
  for (const file of files) {
    const text = readFileSync(join(src, file), 'utf8');
    expect(text, file).not.toMatch(/Date\.now\s*\(|new Date\(\s*\)|performance\.now\s*\(/);
  }
});
