// Runs as `prestart`/`pretest` on whatever node the machine has (often 20), before the project's
// own Node 24 (the `node` devDependency) exists: plain JS, no dependencies.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const mtime = (path) => statSync(join(root, path), { throwIfNoEntry: false })?.mtimeMs;

const installed = mtime('node_modules/.package-lock.json');
const current = installed !== undefined && installed >= (mtime('package-lock.json') ?? 0) && mtime('node_modules/.bin/node') !== undefined;
if (!current) {
  console.log('node_modules is missing or older than package-lock.json: npm install');
  const { status } = spawnSync('npm', ['install'], { cwd: root, stdio: 'inherit' });
  if (status !== 0) {
    console.error(`npm install failed (exit code ${status ?? 'none'})`);
    process.exit(1);
  }
}
