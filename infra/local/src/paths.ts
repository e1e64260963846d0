import { accessSync, constants } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..', '..', '..');
/** What bootstrap installs (gitignored). */
export const toolsDir = join(repoRoot, '.tools');
/** Binaries we build ourselves. */
export const toolsBin = join(toolsDir, 'bin');

const isExecutable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

export function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** Our own builds in .tools/bin win over whatever the machine has on its PATH. */
export function findBinary(name: string): string | undefined {
  const own = join(toolsBin, name);
  return isExecutable(own) ? own : onPath(name);
}
