// Static checks of the Kubernetes delivery (helm/, skaffold.yaml, infra/docker, infra/kind):
// no container engine or cluster is needed, only Helm and kubernetes-validate from .tools/
// (`npm run bootstrap` installs both). Each check returns a list of problems; empty = fine.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FRONTENDS, GATEWAY, SERVICE_NAMES } from '@ruilplein/contracts';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { z } from 'zod';

export const repoRoot = resolve(import.meta.dirname, '..', '..', '..');
export const helmBin = join(repoRoot, '.tools', 'bin', 'helm');
export const kubernetesValidateBin = join(repoRoot, '.tools', 'venv', 'bin', 'kubernetes-validate');
/** The Kubernetes version every rendered object is validated against (schemas bundled offline). */
export const kubernetesVersion = '1.34.0';
export const umbrella = 'ruilplein';
export const library = 'ruilplein-lib';

export type Kind = 'service' | 'frontend';
export interface Deployable {
  name: string;
  kind: Kind;
}

export function missingTools(): string | undefined {
  const missing = [helmBin, kubernetesValidateBin].filter((p) => !existsSync(p));
  if (!missing.length) return undefined;
  return `missing ${missing.join(', ')}: run \`npm run bootstrap\` (installs helm v3.19.0 into .tools/bin and kubernetes-validate into .tools/venv)`;
}

/**
 * Every deployable, from the contracts registry: the gateway and each registered service once its
 * folder services/<name>/src/main.ts exists, the shell and each remote (FRONTENDS). The registry
 * test fails on a service or frontend folder the registry does not name.
 */
export function deployables(root = repoRoot): Deployable[] {
  const services = [GATEWAY.name, ...SERVICE_NAMES]
    .filter((name) => existsSync(join(root, 'services', name, 'src', 'main.ts')))
    .map((name) => ({ name, kind: 'service' as const }));
  const frontends = FRONTENDS.filter((name) => existsSync(join(root, name, 'package.json'))).map((name) => ({ name, kind: 'frontend' as const }));
  return [...services, ...frontends].sort((a, b) => a.name.localeCompare(b.name));
}

export interface Run {
  ok: boolean;
  stdout: string;
  stderr: string;
}

export function run(command: string, args: string[], cwd = repoRoot): Promise<Run> {
  return new Promise((done) => {
    execFile(command, args, { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, HELM_CACHE_HOME: join(tmpdir(), 'ruilplein-helm-cache') } }, (err, stdout, stderr) =>
      done({ ok: !err, stdout: String(stdout), stderr: String(stderr) || (err?.message ?? '') }),
    );
  });
}

/**
 * Copies helm/ to a temp folder and builds the file:// dependencies there (library into each
 * deployable chart, then the deployable charts into the umbrella), so the repo gets no charts/.
 */
export async function prepareCharts(helmDir = join(repoRoot, 'helm')): Promise<{ dir: string; problems: string[] }> {
  const dir = join(await mkdtemp(join(tmpdir(), 'ruilplein-helm-')), 'helm');
  await cp(helmDir, dir, { recursive: true, filter: (src) => !/[/\\]charts([/\\]|$)|\.tgz$|Chart\.lock$/.test(src.slice(helmDir.length)) });
  const problems: string[] = [];
  const charts = chartDirs(dir).filter((c) => c !== library);
  const order = [...charts.filter((c) => c !== umbrella), ...charts.filter((c) => c === umbrella)];
  for (const chart of order) {
    if (!parseYaml(readFileSync(join(dir, chart, 'Chart.yaml'), 'utf8'))?.dependencies?.length) continue;
    const r = await run(helmBin, ['dependency', 'build', '--skip-refresh', join(dir, chart)]);
    if (!r.ok) problems.push(`helm dependency build ${chart}: ${r.stderr.trim()}`);
  }
  return { dir, problems };
}

export function chartDirs(helmDir: string): string[] {
  return readdirSync(helmDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(helmDir, d.name, 'Chart.yaml')))
    .map((d) => d.name)
    .sort();
}

export async function lint(chartDir: string): Promise<string[]> {
  const r = await run(helmBin, ['lint', '--strict', chartDir]);
  return r.ok ? [] : [`helm lint --strict ${chartDir}:\n${(r.stdout + r.stderr).trim()}`];
}

export interface Rendered {
  text: string;
  objects: K8sObject[];
  problems: string[];
}
export type K8sObject = { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string }; [key: string]: unknown };

/** `helm template`; `set` goes in as `--set`, the way skaffold hands over setValues. */
export async function render(chartDir: string, valuesFiles: string[] = [], release = 'ruilplein', set: Record<string, string> = {}): Promise<Rendered> {
  const args = ['template', release, chartDir, '--namespace', 'ruilplein', ...valuesFiles.flatMap((f) => ['--values', f]), ...Object.entries(set).flatMap(([k, v]) => ['--set', `${k}=${v}`])];
  const r = await run(helmBin, args);
  if (!r.ok) return { text: '', objects: [], problems: [`helm ${args.join(' ')}:\n${r.stderr.trim()}`] };
  const objects = parseAllDocuments(r.stdout)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => !!o && typeof o === 'object');
  return { text: r.stdout, objects, problems: [] };
}

/** kubernetes-validate --strict of every rendered object against the pinned Kubernetes version. */
export async function validateObjects(text: string, label: string): Promise<string[]> {
  if (!text.trim()) return [`${label}: nothing rendered`];
  const file = join(await mkdtemp(join(tmpdir(), 'ruilplein-render-')), `${label.replace(/[^\w.-]+/g, '_')}.yaml`);
  await writeFile(file, text);
  const r = await run(kubernetesValidateBin, ['--strict', '--quiet', '--no-warn', '-k', kubernetesVersion, file]);
  return r.ok ? [] : [`kubernetes-validate ${label} (Kubernetes ${kubernetesVersion}):\n${(r.stdout + r.stderr).trim()}`];
}

type Container = {
  name?: string;
  image?: string;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
  livenessProbe?: unknown;
  readinessProbe?: unknown;
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
  env?: Array<{ name?: string; value?: unknown }>;
  ports?: Array<{ name?: string; containerPort?: number }>;
};
type PodSpec = { securityContext?: { runAsNonRoot?: boolean; runAsUser?: number }; containers?: Container[]; initContainers?: Container[] };

const workloadKinds = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);

export const podSpec = (o: K8sObject): PodSpec | undefined =>
  workloadKinds.has(o.kind ?? '') ? ((o.spec as { template?: { spec?: PodSpec } } | undefined)?.template?.spec ?? {}) : undefined;

/** Non-root, read-only root FS, liveness+readiness probes, requests+limits, pinned image tag. */
export function workloadProblems(objects: K8sObject[], label: string): string[] {
  const problems: string[] = [];
  for (const o of objects) {
    const spec = podSpec(o);
    if (!spec) continue;
    const where = `${label}: ${o.kind}/${o.metadata?.name}`;
    const containers = spec.containers ?? [];
    if (!containers.length) problems.push(`${where}: no containers`);
    for (const c of [...containers, ...(spec.initContainers ?? [])]) {
      const at = `${where} container ${c.name}`;
      const nonRoot = c.securityContext?.runAsNonRoot ?? spec.securityContext?.runAsNonRoot;
      const user = c.securityContext?.runAsUser ?? spec.securityContext?.runAsUser;
      if (nonRoot !== true || user === 0) problems.push(`${at}: does not run as non-root (runAsNonRoot: true)`);
      if (c.securityContext?.readOnlyRootFilesystem !== true) problems.push(`${at}: root filesystem is not read-only`);
      const isInit = (spec.initContainers ?? []).includes(c);
      if (!isInit && !c.livenessProbe) problems.push(`${at}: no livenessProbe`);
      if (!isInit && !c.readinessProbe) problems.push(`${at}: no readinessProbe`);
      for (const r of ['cpu', 'memory']) {
        if (c.resources?.requests?.[r] === undefined) problems.push(`${at}: no ${r} request`);
        if (c.resources?.limits?.[r] === undefined) problems.push(`${at}: no ${r} limit`);
      }
      const image = c.image ?? '';
      const tag = image.includes('@') ? 'digest' : /:([^/:]+)$/.exec(image)?.[1];
      if (!image) problems.push(`${at}: no image`);
      else if (!tag) problems.push(`${at}: image ${image} has no tag`);
      else if (tag === 'latest') problems.push(`${at}: image ${image} uses :latest`);
    }
  }
  return problems;
}

/** Production: nothing in local mode, and no Secret carrying JWT/SMTP/payment material in clear. */
export function productionProblems(objects: K8sObject[], label: string): string[] {
  const problems: string[] = [];
  for (const o of objects) {
    const where = `${label}: ${o.kind}/${o.metadata?.name}`;
    for (const c of podSpec(o)?.containers ?? []) {
      for (const e of c.env ?? []) if (e.name === 'RUILPLEIN_MODE' && e.value === 'local') problems.push(`${where}: RUILPLEIN_MODE=local`);
    }
    if (o.kind === 'ConfigMap' && (o.data as Record<string, string> | undefined)?.RUILPLEIN_MODE === 'local') problems.push(`${where}: RUILPLEIN_MODE=local`);
    if (o.kind === 'Secret') {
      const data = { ...((o.data as Record<string, string>) ?? {}), ...((o.stringData as Record<string, string>) ?? {}) };
      const secretish = Object.keys(data).filter((k) => /jwt|smtp|mail|payment|stripe|mollie|private|signing/i.test(k) || /jwt|smtp|payment/i.test(o.metadata?.name ?? ''));
      if (secretish.length) problems.push(`${where}: Secret with literal data for ${secretish.join(', ')} (production takes existing Secrets)`);
    }
  }
  return problems;
}

/** Every deployable is selected by at least one NetworkPolicy's podSelector. */
export function networkPolicyProblems(objects: K8sObject[], names: string[], label: string): string[] {
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  const selected = (name: string) =>
    policies.some((p) => {
      const labels = ((p.spec as { podSelector?: { matchLabels?: Record<string, string> } })?.podSelector?.matchLabels ?? {}) as Record<string, string>;
      return Object.values(labels).includes(name) || (p.metadata?.name ?? '').endsWith(name);
    });
  return names.filter((n) => !selected(n)).map((n) => `${label}: no NetworkPolicy selects ${n}`);
}

// ---- skaffold.yaml ----
// Skaffold publishes its JSON schema only in its GitHub repo (docs-v2/content/en/schemas), not in
// an npm or PyPI package, and its Go module cannot be fetched here: so this checks, strictly, the
// fields skaffold reads from our configs (unknown keys are errors, as skaffold makes them).
const helmRelease = z
  .object({
    name: z.string().min(1),
    chartPath: z.string().min(1),
    valuesFiles: z.array(z.string().min(1)).optional(),
    setValues: z.record(z.string(), z.string()).optional(),
    setValueTemplates: z.record(z.string(), z.string()).optional(),
    namespace: z.string().optional(),
    createNamespace: z.boolean().optional(),
    skipBuildDependencies: z.boolean().optional(),
    wait: z.boolean().optional(),
  })
  .strict();
const artifact = z
  .object({
    image: z.string().regex(/^[a-z0-9]+(?:[._/-][a-z0-9]+)*$/, 'an image name without tag'),
    context: z.string().min(1),
    docker: z.object({ dockerfile: z.string().min(1), buildArgs: z.record(z.string(), z.string()).optional(), target: z.string().optional() }).strict(),
  })
  .strict();
const build = z
  .object({
    artifacts: z.array(artifact).min(1).optional(),
    tagPolicy: z.object({ gitCommit: z.object({}).passthrough().optional(), sha256: z.object({}).strict().optional(), inputDigest: z.object({}).strict().optional() }).strict().optional(),
    local: z.object({ push: z.boolean().optional(), useBuildkit: z.boolean().optional(), concurrency: z.number().int().optional() }).strict().optional(),
  })
  .strict();
const manifests = z.object({ helm: z.object({ releases: z.array(helmRelease).min(1) }).strict() }).strict();
const deploy = z.object({ helm: z.object({}).passthrough().optional(), kubeContext: z.string().optional(), statusCheck: z.boolean().optional() }).strict();
const profile = z
  .object({
    name: z.string().min(1),
    activation: z.array(z.object({ env: z.string().optional(), kubeContext: z.string().optional(), command: z.string().optional() }).strict()).optional(),
    patches: z.array(z.object({ op: z.enum(['add', 'remove', 'replace']), path: z.string(), value: z.unknown().optional(), from: z.string().optional() }).strict()).optional(),
    build: build.optional(),
    manifests: manifests.optional(),
    deploy: deploy.optional(),
  })
  .strict();
export const skaffoldConfig = z
  .object({
    apiVersion: z.string().regex(/^skaffold\/v4beta(1[0-3]|[1-9])$/, 'skaffold/v4beta1 … v4beta13'),
    kind: z.literal('Config'),
    metadata: z.object({ name: z.string().regex(/^[a-z0-9-]+$/) }).strict(),
    requires: z.array(z.object({ configs: z.array(z.string()).min(1), path: z.string().optional(), activeProfiles: z.array(z.unknown()).optional() }).strict()).optional(),
    build: build.optional(),
    manifests: manifests.optional(),
    deploy: deploy.optional(),
    profiles: z.array(profile).optional(),
  })
  .strict();
export type SkaffoldConfig = z.infer<typeof skaffoldConfig>;

export function parseSkaffold(text: string): unknown[] {
  return parseAllDocuments(text).map((d) => d.toJS());
}

type Release = z.infer<typeof helmRelease>;

/**
 * The helm releases of a config with a profile active, as skaffold resolves them: the profile's
 * `manifests` replace the config's, then its JSON patches (add/replace/remove) apply.
 */
export function releasesFor(config: SkaffoldConfig, profileName?: string): Release[] {
  const profile = config.profiles?.find((p) => p.name === profileName);
  const resolved = structuredClone({ ...config, ...(profile?.manifests ? { manifests: profile.manifests } : {}) }) as Record<string, unknown>;
  for (const patch of profile?.patches ?? []) {
    const keys = patch.path.split('/').slice(1).map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'));
    const last = keys.pop();
    let parent: unknown = resolved;
    for (const k of keys) parent = (parent as Record<string, unknown> | undefined)?.[k];
    if (parent === undefined || last === undefined) throw new Error(`skaffold profile ${profileName}: patch path ${patch.path} does not exist`);
    if (Array.isArray(parent)) {
      const at = last === '-' ? parent.length : Number(last);
      if (patch.op === 'add') parent.splice(at, 0, patch.value);
      else if (patch.op === 'replace') parent[at] = patch.value;
      else if (patch.op === 'remove') parent.splice(at, 1);
    } else {
      const obj = parent as Record<string, unknown>;
      if (patch.op === 'remove') delete obj[last];
      else obj[last] = patch.value;
    }
  }
  return (resolved.manifests as SkaffoldConfig['manifests'])?.helm.releases ?? [];
}

/** The releases of a config without a profile and with each of its profiles. */
function allReleases(c: SkaffoldConfig, problems: string[]): Release[] {
  return [undefined, ...(c.profiles ?? []).map((p) => p.name)].flatMap((p) => {
    try {
      return releasesFor(c, p);
    } catch (err) {
      problems.push((err as Error).message);
      return [];
    }
  });
}

/**
 * Field check of every config, plus what our layout needs: one module per deployable building
 * ruilplein/<name> from the right recipe (context: repo root, build arg SERVICE/APP = <name>) and
 * deploying only its release helm/<name>; `platform` requires them all and builds nothing; every
 * path named exists under root.
 */
export function skaffoldProblems(docs: unknown[], expected: Deployable[], root = repoRoot): string[] {
  const problems: string[] = [];
  const configs: SkaffoldConfig[] = [];
  docs.forEach((doc, i) => {
    const r = skaffoldConfig.safeParse(doc);
    if (r.success) configs.push(r.data);
    else problems.push(`skaffold.yaml document ${i + 1}: ${r.error.issues.map((e) => `${e.path.join('.')}: ${e.message}`).join('; ')}`);
  });
  const byName = new Map(configs.map((c) => [c.metadata.name, c]));
  if (byName.size !== configs.length) problems.push('skaffold.yaml: module names are not unique');
  const names = expected.map((d) => d.name);
  const modules = configs.map((c) => c.metadata.name).filter((n) => n !== 'platform');
  if (JSON.stringify([...modules].sort()) !== JSON.stringify([...names].sort())) problems.push(`skaffold.yaml modules [${modules.join(', ')}] differ from the deployables [${names.join(', ')}]`);
  const exists = (p: string, what: string) => {
    if (!existsSync(join(root, p))) problems.push(`skaffold.yaml ${what}: ${p} does not exist`);
  };
  for (const d of expected) {
    const c = byName.get(d.name);
    if (!c) continue;
    const arts = c.build?.artifacts ?? [];
    const [recipe, arg] = d.kind === 'service' ? ['infra/docker/service.Dockerfile', 'SERVICE'] : ['infra/docker/frontend.Dockerfile', 'APP'];
    if (arts.length !== 1 || arts[0]?.image !== `ruilplein/${d.name}`) problems.push(`skaffold module ${d.name}: must build exactly the image ruilplein/${d.name}`);
    for (const a of arts) {
      if (a.context !== '.') problems.push(`skaffold module ${d.name}: context must be the repo root (.)`);
      if (a.docker.dockerfile !== recipe) problems.push(`skaffold module ${d.name}: dockerfile must be ${recipe}`);
      if (a.docker.buildArgs?.[arg] !== d.name) problems.push(`skaffold module ${d.name}: build arg ${arg} must be ${d.name}`);
      exists(a.docker.dockerfile, `module ${d.name} dockerfile`);
    }
    const releases = allReleases(c, problems);
    if (!releases.length) problems.push(`skaffold module ${d.name}: deploys no release`);
    for (const r of releases) {
      if (r.name !== d.name || r.chartPath !== `helm/${d.name}`) problems.push(`skaffold module ${d.name}: deploys ${r.name} from ${r.chartPath}, not ${d.name} from helm/${d.name}`);
      for (const f of r.valuesFiles ?? []) exists(f, `module ${d.name} valuesFiles`);
    }
    if (c.requires?.length) problems.push(`skaffold module ${d.name}: must not require other modules (skaffold dev -m ${d.name} touches only ${d.name})`);
  }
  const platform = byName.get('platform');
  if (!platform) problems.push('skaffold.yaml: no platform module');
  else {
    const required = (platform.requires ?? []).flatMap((r) => r.configs);
    for (const n of names) if (!required.includes(n)) problems.push(`skaffold module platform: does not require ${n}`);
    if (platform.build?.artifacts?.length) problems.push('skaffold module platform: must build nothing itself');
    for (const r of allReleases(platform, problems)) {
      exists(r.chartPath, 'platform chartPath');
      for (const f of r.valuesFiles ?? []) exists(f, 'platform valuesFiles');
    }
  }
  for (const c of configs) {
    const profiles = new Map((c.profiles ?? []).map((p) => [p.name, p]));
    const kind = profiles.get('kind');
    if (!kind) problems.push(`skaffold module ${c.metadata.name}: no kind profile`);
    else {
      if (kind.deploy?.kubeContext !== 'kind-ruilplein') problems.push(`skaffold module ${c.metadata.name}: kind profile must deploy to kubeContext kind-ruilplein`);
      if (c.build?.artifacts?.length && kind.build?.local?.push !== false) problems.push(`skaffold module ${c.metadata.name}: kind profile must not push (build.local.push: false)`);
    }
  }
  if (!configs.some((c) => c.profiles?.some((p) => p.name === 'production'))) problems.push('skaffold.yaml: no production profile');
  return problems;
}

/** Names agree everywhere: recipe usage, chart helm/<name> named <name>, umbrella dependency, skaffold module. */
export function namesProblems(helmDir: string, skaffoldDocs: unknown[], expected: Deployable[]): string[] {
  const problems: string[] = [];
  const modules = new Map(
    skaffoldDocs.map((d) => [(d as { metadata?: { name?: string } })?.metadata?.name, d as { build?: { artifacts?: Array<{ image?: string; docker?: { dockerfile?: string } }> } }]),
  );
  const umbrellaChart = readChart(helmDir, umbrella);
  const deps = (umbrellaChart?.dependencies ?? []) as Array<{ name?: string; repository?: string; alias?: string }>;
  for (const d of expected) {
    const chart = readChart(helmDir, d.name);
    if (!chart) problems.push(`${d.name}: no chart helm/${d.name}/Chart.yaml`);
    else if (chart.name !== d.name) problems.push(`${d.name}: helm/${d.name}/Chart.yaml name is ${JSON.stringify(chart.name)}, not ${d.name}`);
    if (!deps.some((dep) => dep.name === d.name && (dep.alias ?? d.name) === d.name && dep.repository === `file://../${d.name}`))
      problems.push(`${d.name}: no dependency {name: ${d.name}, repository: file://../${d.name}} in helm/${umbrella}/Chart.yaml`);
    const module = modules.get(d.name);
    if (!module) problems.push(`${d.name}: no skaffold module ${d.name}`);
    const recipe = d.kind === 'service' ? 'infra/docker/service.Dockerfile' : 'infra/docker/frontend.Dockerfile';
    if (!module?.build?.artifacts?.some((a) => a.image === `ruilplein/${d.name}` && a.docker?.dockerfile === recipe))
      problems.push(`${d.name}: no skaffold artifact ruilplein/${d.name} built with ${recipe}`);
  }
  return problems;
}

/**
 * The two image recipes: named by their build arg, Node the version the project pins (the `node`
 * dev dependency), pinned base images, a non-root USER, a HEALTHCHECK on /healthz.
 */
export function recipeProblems(root = repoRoot): string[] {
  const problems: string[] = [];
  const node = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.node;
  for (const [file, arg] of [['service.Dockerfile', 'SERVICE'], ['frontend.Dockerfile', 'APP']] as const) {
    const path = join(root, 'infra', 'docker', file);
    if (!existsSync(path)) {
      problems.push(`infra/docker/${file} is missing`);
      continue;
    }
    const text = readFileSync(path, 'utf8');
    const images = [...text.matchAll(/^ARG \w+_IMAGE=(\S+)$/gm)].map((m) => m[1] ?? '');
    if (!images.some((i) => i.startsWith(`node:${node}-`))) problems.push(`${file}: the Node image is not node:${node}-… (package.json pins node ${node})`);
    for (const i of images) if (!/:[^:]+$/.test(i) || /:latest$/.test(i)) problems.push(`${file}: base image ${i} is not pinned`);
    if (!new RegExp(`^ARG ${arg}$`, 'm').test(text)) problems.push(`${file}: no build arg ${arg}`);
    const user = [...text.matchAll(/^USER (\S+)$/gm)].at(-1)?.[1];
    if (!user || /^(0|root)(:|$)/.test(user)) problems.push(`${file}: the final stage does not run as a non-root USER`);
    if (!/^HEALTHCHECK [\s\S]*?\/healthz/m.test(text)) problems.push(`${file}: no HEALTHCHECK on /healthz`);
  }
  return problems;
}

export function readChart(helmDir: string, name: string): { name?: string; dependencies?: unknown[]; [k: string]: unknown } | undefined {
  const file = join(helmDir, name, 'Chart.yaml');
  return existsSync(file) ? parseYaml(readFileSync(file, 'utf8')) : undefined;
}
