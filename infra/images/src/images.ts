// `npm run images`: local base images (Debian minbase, Node from the npm registry), every
// deployable's image from its Dockerfile with podman, each run read-only as non-root and checked.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onStopSignal } from '../../local/src/children.ts';
import { deployables } from '../../k8s/src/checks.ts';
import { ensureBaseImages } from './base.ts';
import { buildImage, sizeProblems, SIZE_GOALS_MB, type Built } from './build.ts';
import { ensurePackages, ImageError } from './podman.ts';
import { removeContainers, smokeFrontends, smokeServices } from './smoke.ts';

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s`;
const log = (line: string) => console.log(`[${elapsed()}] ${line}`);
const dataDir = mkdtempSync(join(tmpdir(), 'ruilplein-images-'));
let stopping = false;

onStopSignal(async (signal) => {
  if (stopping) return;
  stopping = true;
  log(`${signal}: removing containers`);
  await removeContainers();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(130);
});

try {
  await ensurePackages(log);
  const bases = await ensureBaseImages(log);
  const all = deployables();
  // Two chains side by side (npm installs wait on the network as much as on the CPU): the services,
  // and the frontends, one after the other so that all reuse the first one's dependency layer.
  const chain = async (kind: 'service' | 'frontend') => {
    const done: Built[] = [];
    for (const d of all.filter((x) => x.kind === kind)) done.push(await buildImage(d, bases, log));
    return done;
  };
  const built = (await Promise.all([chain('service'), chain('frontend')])).flat();
  log(`built ${built.length} images`);
  await smokeServices(all.filter((d) => d.kind === 'service'), dataDir, log);
  await smokeFrontends(all.filter((d) => d.kind === 'frontend'), log);
  console.log(`\nimage sizes (goals: service ≤ ${SIZE_GOALS_MB.service} MB, frontend ≤ ${SIZE_GOALS_MB.frontend} MB):`);
  for (const b of built) console.log(`  ${b.ref.padEnd(42)} ${b.deployable.kind.padEnd(8)} ${b.sizeMb.toFixed(1).padStart(6)} MB  built in ${b.seconds.toFixed(0)} s`);
  const tooBig = sizeProblems(built);
  if (tooBig.length) throw new ImageError(tooBig.join('\n'));
  log('images: all built, run and checked');
} catch (err) {
  if (stopping) await new Promise(() => {});
  console.error(err instanceof ImageError ? `images: ${err.message}` : err);
  await removeContainers();
  process.exitCode = 1;
} finally {
  if (!stopping) rmSync(dataDir, { recursive: true, force: true });
}
