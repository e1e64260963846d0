import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { dockerAnswers } from './docker.ts';
import { findBinary, onPath, repoRoot, toolsBin, toolsDir } from './paths.ts';
import { storeEnv, type StoreName } from './stores.ts';

export interface BootstrapOptions {
  log?: (line: string) => void;
  /** As in startStores: a store named by `<envPrefix>MONGODB_URL` etc. needs nothing installed. */
  envPrefix?: string;
  /** Also what only the tests use: Chromium, Helm and kubernetes-validate (`npm start` needs none). */
  testTools?: boolean;
}

export class BootstrapError extends Error {}

export const nginxBinary = () => onPath('nginx') ?? (existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : undefined);

const NATS_VERSION = 'v2.12.2';
/**
 * Jaeger v2.13.0: its Go module github.com/jaegertracing/jaeger keeps the v1 tags (v1.76.0 is
 * v2.13.0), and `cmd/jaeger` is the v2 binary (OpenTelemetry Collector based).
 */
const JAEGER_VERSION = 'v1.76.0';
const HELM_VERSION = 'v3.19.0';
/** Offline Kubernetes JSON schemas for the chart validation tests (PyPI). */
const KUBERNETES_VALIDATE_VERSION = '1.34.1';
/** Schema fuzzing of the services' OpenAPI documents (infra/checks), PyPI. */
const SCHEMATHESIS_VERSION = '4.32.5';
export const toolsVenv = join(repoRoot, '.tools', 'venv');
const ferretdbSource = join(repoRoot, 'infra', 'ferretdb');
/** Our fix of FerretDB's `_id` lookups, over the file of the vendored module it replaces. */
const ferretdbOverlay = { from: 'overlay/sqlite-collection.go', to: 'github.com/FerretDB/FerretDB/internal/backends/sqlite/collection.go' };
const goHint = 'install Go >= 1.24 (https://go.dev/dl/) and run `npm run bootstrap` again';

/**
 * Makes sure the binaries the local platform (and, with testTools, its tests) need exist, installing what it can:
 * Debian packages with one apt-get call when root, Go-built servers into .tools/bin.
 * Throws a BootstrapError that says what to install by hand otherwise.
 */
export async function bootstrap(opts: BootstrapOptions = {}): Promise<void> {
  const log = opts.log ?? console.log;
  const problems: string[] = [];
  const needs = (store: StoreName) => !process.env[(opts.envPrefix ?? '') + storeEnv[store]];
  const stores = (['mongo', 'redis', 'nats'] as const).filter(needs);
  if (stores.length && (await dockerAnswers())) {
    log('stores: a Docker engine answers, containers will be used');
    stores.length = 0;
  }

  const apt: Array<{ name: string; pkg: string; path?: string }> = [];
  if (stores.includes('redis')) apt.push({ name: 'redis-server', pkg: 'redis-server', path: findBinary('redis-server') });
  if (opts.testTools) {
    apt.push({ name: 'chromium', pkg: 'chromium', path: onPath('chromium') ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined) });
    // Serves the frontend images' nginx configuration in its test (infra/docker/test).
    apt.push({ name: 'nginx', pkg: 'nginx', path: nginxBinary() });
  }
  const aptMissing = apt.filter((p) => !p.path);
  for (const p of apt) if (p.path) log(`${p.name}: ok (${p.path})`);
  if (aptMissing.length) {
    const pkgs = aptMissing.map((p) => p.pkg).join(' ');
    if (process.getuid?.() === 0 && onPath('apt-get')) {
      log(`${aptMissing.map((p) => p.name).join(', ')}: installing with apt-get (${pkgs})…`);
      const result = await run('sh', ['-c', `apt-get update -qq && apt-get install -y -qq ${pkgs}`], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
      if (!result.ok) problems.push(`apt-get install ${pkgs} failed:\n${result.tail}`);
      for (const p of aptMissing) if (result.ok) log(`${p.name}: ok (${findBinary(p.name) ?? `/usr/bin/${p.name}`})`);
    } else {
      problems.push(`${aptMissing.map((p) => p.name).join(', ')}: missing; install with \`sudo apt-get install -y ${pkgs}\` (Debian/Ubuntu) or your system's package manager`);
    }
  }

  if (stores.includes('nats')) await ensureNats(log, problems);
  if (stores.includes('mongo')) await ensureMongo(log, problems);
  // The trace viewer of `npm start`, and of the test that sends it a span.
  await ensureJaeger(log, problems);
  await ensureJaegerUi(log, problems);
  if (opts.testTools) {
    await ensureHelm(log, problems);
    await ensurePythonTool('kubernetes-validate', KUBERNETES_VALIDATE_VERSION, log, problems);
    await ensurePythonTool('schemathesis', SCHEMATHESIS_VERSION, log, problems);
  }
  if (problems.length) throw new BootstrapError(problems.join('\n'));
}

async function ensureNats(log: (line: string) => void, problems: string[]) {
  const own = join(toolsBin, 'nats-server');
  if (existsSync(own)) return log(`nats-server: ok (${own})`);
  const system = onPath('nats-server');
  if (system) {
    // Debian ships 2.9, whose JetStream lacks what the services use.
    const version = (await run(system, ['--version'])).tail.match(/v?(\d+)\.(\d+)/);
    if (version && (Number(version[1]) > 2 || (Number(version[1]) === 2 && Number(version[2]) >= 10))) return log(`nats-server: ok (${system})`);
    log(`nats-server: ${system} is older than 2.10, building ${NATS_VERSION} into .tools/bin`);
  }
  await goBuild('nats-server', ['install', `github.com/nats-io/nats-server/v2@${NATS_VERSION}`], repoRoot, log, problems);
}

async function ensureMongo(log: (line: string) => void, problems: string[]) {
  const mongod = onPath('mongod');
  if (mongod) return log(`mongod: ok (${mongod})`);
  const binary = join(toolsBin, 'ferretdb');
  const built = statSync(binary, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const sources = ['main.go', 'go.mod', 'go.sum', ferretdbOverlay.from];
  const stale = sources.some((f) => (statSync(join(ferretdbSource, f), { throwIfNoEntry: false })?.mtimeMs ?? 0) > built);
  if (!stale) return log(`ferretdb: ok (${binary})`);
  // The module cache is read-only (and `go build -overlay` refuses files in it), so FerretDB is
  // built from a vendored copy with our one replaced file (see that file's header).
  const work = join(repoRoot, '.tools', 'ferretdb-build');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  for (const f of ['main.go', 'go.mod', 'go.sum']) copyFileSync(join(ferretdbSource, f), join(work, f));
  if (!(await goBuild('ferretdb', ['mod', 'vendor'], work, log, problems))) return;
  copyFileSync(join(ferretdbSource, ferretdbOverlay.from), join(work, 'vendor', ferretdbOverlay.to));
  await goBuild('ferretdb', ['build', '-mod=vendor', '-o', binary, '.'], work, log, problems);
}

/**
 * Jaeger v2 into .tools/bin. Its module has a replace directive, so `go install module@version`
 * refuses it: the module is downloaded, copied out of the read-only module cache and built there
 * as the main module (about 10 minutes of two cores the first time; `-trimpath` lets a fresh
 * clone reuse Go's build cache). The Go module has no UI assets (they come from the jaeger-ui
 * repository): the built UI is vendored and unpacked into .tools/jaeger-ui (ensureJaegerUi), or
 * JAEGER_UI_ASSETS names one (stores.ts jaegerUiAssets). The query API works either way.
 */
async function ensureJaeger(log: (line: string) => void, problems: string[]) {
  const own = join(toolsBin, 'jaeger');
  const stamp = join(toolsBin, 'jaeger.version');
  if (existsSync(own) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === JAEGER_VERSION) return log(`jaeger: ok (${own})`);
  const go = onPath('go');
  if (!go) {
    problems.push(`jaeger: missing, and Go is needed to build it; ${goHint} (or put Jaeger v2's \`jaeger\` binary into .tools/bin)`);
    return;
  }
  const module = `github.com/jaegertracing/jaeger@${JAEGER_VERSION}`;
  log(`jaeger: building ${JAEGER_VERSION} (Jaeger v2) into ${toolsBin} with go build (10 minutes or more the first time)…`);
  const download = await run(go, ['mod', 'download', '-json', module], { cwd: repoRoot });
  const dir = download.ok ? (JSON.parse(download.output) as { Dir?: string }).Dir : undefined;
  if (!dir) {
    problems.push(`jaeger: go mod download ${module} failed:\n${download.tail}`);
    return;
  }
  const work = join(toolsDir, 'jaeger-build');
  rmSync(work, { recursive: true, force: true });
  cpSync(dir, work, { recursive: true });
  // The module cache's files are read-only; a later rebuild must be able to remove the copy.
  const copied = await run('chmod', ['-R', 'u+w', work]);
  if (!copied.ok) {
    problems.push(`jaeger: chmod -R u+w ${work} failed:\n${copied.tail}`);
    return;
  }
  mkdirSync(toolsBin, { recursive: true });
  const niced = onPath('nice');
  const build = ['build', '-trimpath', '-o', own, './cmd/jaeger'];
  const result = niced ? await run(niced, ['-n', '10', go, ...build], { cwd: work }) : await run(go, build, { cwd: work });
  if (!result.ok) {
    problems.push(`jaeger: go ${build.join(' ')} (in ${work}) failed:\n${result.tail}`);
    return;
  }
  writeFileSync(stamp, `${JAEGER_VERSION}\n`);
  rmSync(work, { recursive: true, force: true });
  log(`jaeger: ok (${own})`);
}

/** Jaeger's built web UI, vendored (infra/local/vendor/README.md), unpacked into .tools/jaeger-ui once per version. */
const JAEGER_UI_ARCHIVE = join(repoRoot, 'infra', 'local', 'vendor', 'jaeger-ui-v1.76.0.tar.gz');

async function ensureJaegerUi(log: (line: string) => void, problems: string[]) {
  const dir = join(toolsDir, 'jaeger-ui');
  const stamp = join(dir, 'archive.name');
  const name = basename(JAEGER_UI_ARCHIVE);
  if (existsSync(join(dir, 'index.html')) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === name) return log(`jaeger ui: ok (${dir})`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const unpacked = await run('tar', ['-xzf', JAEGER_UI_ARCHIVE, '-C', dir]);
  if (!unpacked.ok) {
    problems.push(`jaeger ui: tar -xzf ${JAEGER_UI_ARCHIVE} failed:\n${unpacked.tail}`);
    return;
  }
  writeFileSync(stamp, `${name}\n`);
  log(`jaeger ui: ok (${dir})`);
}

/** Helm for `helm lint`/`helm template` in the chart tests (infra/k8s/test). */
async function ensureHelm(log: (line: string) => void, problems: string[]) {
  const own = join(toolsBin, 'helm');
  if (existsSync(own)) return log(`helm: ok (${own})`);
  await goBuild('helm', ['install', `helm.sh/helm/v3/cmd/helm@${HELM_VERSION}`], repoRoot, log, problems);
}

/**
 * A PyPI command-line tool in .tools/venv at its pinned version: kubernetes-validate validates
 * rendered manifests offline, schemathesis fuzzes the services' OpenAPI documents.
 */
async function ensurePythonTool(name: string, version: string, log: (line: string) => void, problems: string[]) {
  const own = join(toolsVenv, 'bin', name);
  // Both print their version; another pin than this one is installed over.
  if (existsSync(own) && (await run(own, ['--version'])).tail.includes(version)) return log(`${name}: ok (${own})`);
  const python = onPath('python3');
  if (!python) {
    problems.push(`${name}: missing, and Python 3 is needed to install it; install python3 with venv (\`sudo apt-get install -y python3-venv\`) and run \`npm run bootstrap\` again`);
    return;
  }
  log(`${name}: installing ${version} into ${toolsVenv}…`);
  const venv = existsSync(join(toolsVenv, 'bin', 'pip')) ? { ok: true, tail: '', output: '' } : await run(python, ['-m', 'venv', toolsVenv]);
  const result = venv.ok ? await run(join(toolsVenv, 'bin', 'pip'), ['install', '-q', `${name}==${version}`]) : venv;
  if (result.ok) log(`${name}: ok (${own})`);
  else problems.push(`${name}: python3 -m venv + pip install ${name}==${version} failed (on Debian: \`sudo apt-get install -y python3-venv\`):\n${result.tail}`);
}

async function goBuild(name: string, args: string[], cwd: string, log: (line: string) => void, problems: string[]) {
  const go = onPath('go');
  if (!go) {
    problems.push(`${name}: missing, and Go is needed to build it; ${goHint}${name === 'ferretdb' ? ' (or put MongoDB >= 7 `mongod` on the PATH)' : name === 'helm' ? ' (or put helm 3 into .tools/bin)' : ' (or put nats-server >= 2.10 on the PATH)'}`);
    return false;
  }
  log(`${name}: installing into ${toolsBin} with go ${args[0]} (a minute the first time)…`);
  mkdirSync(toolsBin, { recursive: true });
  const result = await run(go, args, { cwd, env: { ...process.env, GOBIN: toolsBin } });
  if (result.ok) log(`${name}: ok (${join(toolsBin, name)})`);
  else problems.push(`${name}: go ${args.join(' ')} failed:\n${result.tail}`);
  return result.ok;
}

/** Runs a command; `tail` is the end of its output (both streams), `output` its whole standard output. */
function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ ok: boolean; tail: string; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let stdout = '';
    const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      collect(chunk);
    });
    child.stderr.on('data', collect);
    const tail = () => output.trim().split('\n').slice(-20).join('\n');
    child.on('error', (err) => resolve({ ok: false, tail: err.message, output: stdout }));
    child.on('close', (code) => resolve({ ok: code === 0, tail: tail(), output: stdout }));
  });
}

if (import.meta.main) {
  // `npm test` runs this as pretest: then the TEST_* variables say which stores exist already.
  const envPrefix = process.env.npm_lifecycle_event === 'pretest' ? 'TEST_' : '';
  try {
    await bootstrap({ envPrefix, testTools: true });
  } catch (err) {
    console.error(err instanceof BootstrapError ? err.message : err);
    process.exitCode = 1;
  }
}
