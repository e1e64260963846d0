// The pinned binaries of the loopback cluster, built from the Go module proxy into .tools/k8s/,
// one folder per tool and key (version + hash of what it is built from), reused while the key holds.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onPath, repoRoot, toolsBin } from '../../local/src/paths.ts';

export const KUBERNETES_VERSION = '1.34.4';
/** Debian's etcd 3.4 lacks watch progress requests, which made rollouts flaky. */
export const ETCD_VERSION = '3.6.16';
export const KWOK_VERSION = 'v0.8.0';
const toolsDir = join(repoRoot, '.tools', 'k8s');
const goModules = join(repoRoot, 'infra', 'cluster', 'go');

export interface ClusterTools {
  kubeApiserver: string;
  kubeControllerManager: string;
  kubeScheduler: string;
  kubectl: string;
  etcd: string;
  kwok: string;
  /** kwok's Stage objects (node heartbeat, pod ready/complete/delete): kwok needs them with -c. */
  kwokStages: string;
  helm: string;
}

export class ToolError extends Error {}

/**
 * The folder name of a build: the tool, its version and the first 12 hex digits of a hash over
 * everything else it is built from (wrapper go.mod/go.sum, flags), so a changed pin rebuilds.
 */
export function toolKey(tool: string, version: string, inputs: string[]): string {
  const hash = createHash('sha256');
  for (const input of inputs) hash.update(`${input.length}:${input}`);
  return `${tool}-${version.replace(/^v/, '')}-${hash.digest('hex').slice(0, 12)}`;
}

/** -X flags that make the binaries report their version (what `kubectl version` and the apiserver print). */
export function kubernetesLdflags(version: string): string {
  const [major, minor] = version.split('.');
  const vars = { gitVersion: `v${version}`, gitMajor: major, gitMinor: minor, gitTreeState: 'clean', buildDate: '1970-01-01T00:00:00Z' };
  const x = ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version'].flatMap((pkg) => Object.entries(vars).map(([k, v]) => `-X ${pkg}.${k}=${v}`));
  return ['-s', '-w', ...x].join(' ');
}

const kwokStageFiles = ['node/fast/node-initialize', 'node/heartbeat-with-lease/node-heartbeat-with-lease', 'pod/fast/pod-ready', 'pod/fast/pod-complete', 'pod/fast/pod-delete'];

/** Builds (or reuses) every pinned binary; the first time takes ~12 minutes on two cores. */
export async function ensureClusterTools(log: (line: string) => void = console.log): Promise<ClusterTools> {
  const go = onPath('go') ?? (existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
  const helm = join(toolsBin, 'helm');
  if (!existsSync(helm)) throw new ToolError(`${helm} is missing: run \`npm run bootstrap\` first`);

  const k8sModule = join(goModules, 'kubernetes');
  const ldflags = kubernetesLdflags(KUBERNETES_VERSION);
  const k8s = await ensureBuild(
    { tool: 'kubernetes', version: KUBERNETES_VERSION, inputs: [...moduleFiles(k8sModule), ldflags], binaries: ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubectl'], go, log },
    (out) => [{ args: ['build', '-trimpath', '-ldflags', ldflags, '-o', `${out}/`, ...['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubectl'].map((c) => `k8s.io/kubernetes/cmd/${c}`)], cwd: k8sModule }],
  );
  const etcdModule = join(goModules, 'etcd');
  const etcd = await ensureBuild({ tool: 'etcd', version: ETCD_VERSION, inputs: moduleFiles(etcdModule), binaries: ['etcd'], go, log }, (out) => [
    { args: ['build', '-trimpath', '-ldflags', '-s -w', '-o', join(out, 'etcd'), 'go.etcd.io/etcd/server/v3'], cwd: etcdModule },
  ]);
  const kwok = await ensureBuild(
    { tool: 'kwok', version: KWOK_VERSION, inputs: kwokStageFiles, binaries: ['kwok', 'stages.yaml'], go, log },
    (out) => [{ args: ['install', '-trimpath', '-ldflags', '-s -w', `sigs.k8s.io/kwok/cmd/kwok@${KWOK_VERSION}`], cwd: repoRoot, env: { GOBIN: out } }],
    // The stage files ship in kwok's module, which `go install` just put into the module cache.
    async (out) => {
      const modcache = (await goOutput(go!, ['env', 'GOMODCACHE'])).trim();
      const dir = join(modcache, `sigs.k8s.io/kwok@${KWOK_VERSION}`, 'kustomize', 'stage');
      writeFileSync(join(out, 'stages.yaml'), kwokStageFiles.map((f) => `---\n${readFileSync(join(dir, `${f}.yaml`), 'utf8')}`).join('\n'));
    },
  );
  return {
    kubeApiserver: join(k8s, 'kube-apiserver'),
    kubeControllerManager: join(k8s, 'kube-controller-manager'),
    kubeScheduler: join(k8s, 'kube-scheduler'),
    kubectl: join(k8s, 'kubectl'),
    etcd: join(etcd, 'etcd'),
    kwok: join(kwok, 'kwok'),
    kwokStages: join(kwok, 'stages.yaml'),
    helm,
  };
}

const moduleFiles = (dir: string) => ['go.mod', 'go.sum', 'tools.go'].map((f) => readFileSync(join(dir, f), 'utf8'));

interface BuildSpec {
  tool: string;
  version: string;
  inputs: string[];
  binaries: string[];
  go: string | undefined;
  log: (line: string) => void;
}
type GoStep = { args: string[]; cwd: string; env?: Record<string, string> };

/** A finished build lives in .tools/k8s/<key>/; it is made in <key>.partial and renamed, so a broken build is never reused. */
async function ensureBuild(spec: BuildSpec, steps: (out: string) => GoStep[], after?: (out: string) => Promise<void>): Promise<string> {
  const key = toolKey(spec.tool, spec.version, spec.inputs);
  const dir = join(toolsDir, key);
  if (spec.binaries.every((b) => existsSync(join(dir, b)))) {
    spec.log(`${spec.tool} ${spec.version}: ok (${dir})`);
    return dir;
  }
  if (!spec.go) throw new ToolError(`${spec.tool}: Go is needed to build it; install Go >= 1.24 (https://go.dev/dl/)`);
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const started = performance.now();
  spec.log(`${spec.tool} ${spec.version}: building into ${dir} …`);
  for (const step of steps(partial)) {
    const env = { ...process.env, CGO_ENABLED: '0', GOTOOLCHAIN: 'local', GOFLAGS: '-buildvcs=false', ...step.env };
    const r = await runGo(spec.go, step.args, step.cwd, env);
    if (!r.ok) throw new ToolError(`${spec.tool}: go ${step.args.join(' ')} failed:\n${r.tail}`);
  }
  await after?.(partial);
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  spec.log(`${spec.tool} ${spec.version}: built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return dir;
}

function runGo(go: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ ok: boolean; tail: string }> {
  return new Promise((resolve) => {
    const child = spawn(go, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-6000));
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', (err) => resolve({ ok: false, tail: err.message }));
    child.on('close', (code) => resolve({ ok: code === 0, tail: output.trim().split('\n').slice(-30).join('\n') }));
  });
}

async function goOutput(go: string, args: string[]): Promise<string> {
  const chunks: Buffer[] = [];
  const child = spawn(go, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  await new Promise((resolve) => child.on('close', resolve));
  return Buffer.concat(chunks).toString();
}

if (import.meta.main) {
  // `node infra/cluster/src/tools.ts`: only the builds (to time a cold build with empty caches).
  const started = performance.now();
  try {
    await ensureClusterTools();
    console.log(`cluster tools ready in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } catch (err) {
    console.error(err instanceof ToolError ? err.message : err);
    process.exitCode = 1;
  }
}
