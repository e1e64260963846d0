// Static validation of the Kubernetes delivery: Helm charts, skaffold.yaml, the kind walk-through.
// Needs .tools/bin/helm and .tools/venv/bin/kubernetes-validate (`npm run bootstrap`).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml, stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  chartDirs,
  deployables,
  library,
  lint,
  missingTools,
  namesProblems,
  networkPolicyProblems,
  parseSkaffold,
  podSpec,
  prepareCharts,
  productionProblems,
  readChart,
  recipeProblems,
  render,
  repoRoot,
  releasesFor,
  skaffoldConfig,
  skaffoldProblems,
  umbrella,
  validateObjects,
  workloadProblems,
  type Deployable,
} from '../src/checks.ts';

const expected: Deployable[] = deployables();
const names = expected.map((d) => d.name);
const skaffoldText = readFileSync(join(repoRoot, 'skaffold.yaml'), 'utf8');
const umbrellaValues = ['values.yaml', 'values-production.yaml', 'values-one-service.yaml'];

let helmDir = '';
let prepareProblems: string[] = [];

/** Lint, render and check one chart (alone, with each values file given): the problems found. */
async function checkChart(dir: string, chart: string, valuesFiles: string[] = [], production = false): Promise<string[]> {
  const label = [chart, ...valuesFiles.map((f) => f.split('/').pop())].join(' ');
  const r = await render(join(dir, chart), valuesFiles.map((f) => join(dir, chart, f)));
  if (r.problems.length) return r.problems;
  const problems = [...(await validateObjects(r.text, label)), ...workloadProblems(r.objects, label)];
  if (production) problems.push(...productionProblems(r.objects, label));
  return problems;
}

beforeAll(async () => {
  const missing = missingTools();
  if (missing) throw new Error(missing);
  ({ dir: helmDir, problems: prepareProblems } = await prepareCharts());
}, 60_000);

describe('deployables', () => {
  it('are found: services with src/main.ts, the shell and each remote', () => {
    expect(names).toContain('gateway');
    expect(names).toContain('shell');
    expect(expected.filter((d) => d.kind === 'frontend').length).toBeGreaterThanOrEqual(2);
  });
});

describe('image recipes', () => {
  it('pin their base images and Node, run as non-root, check /healthz', () => {
    expect(recipeProblems()).toEqual([]);
  });
});

describe('helm charts', () => {
  it('build their file:// dependencies', () => {
    expect(prepareProblems).toEqual([]);
  });

  it('every chart passes helm lint --strict', async () => {
    const problems = (await Promise.all(chartDirs(helmDir).map((c) => lint(join(helmDir, c))))).flat();
    expect(problems).toEqual([]);
  });

  it('each deployable chart alone renders valid, locked-down workloads with NetworkPolicies', async () => {
    const problems: string[] = [];
    for (const d of expected) {
      problems.push(...(await checkChart(helmDir, d.name)));
      const r = await render(join(helmDir, d.name));
      problems.push(...networkPolicyProblems(r.objects, [d.name], d.name));
      if (!r.objects.some((o) => o.kind === 'Deployment')) problems.push(`${d.name}: renders no Deployment`);
    }
    expect(problems).toEqual([]);
  });

  for (const values of umbrellaValues) {
    it(`the umbrella renders with ${values}: valid objects, locked-down workloads`, async () => {
      expect(existsSync(join(helmDir, umbrella, values)), `helm/${umbrella}/${values} exists`).toBe(true);
      const files = values === 'values.yaml' ? [values] : ['values.yaml', values];
      expect(await checkChart(helmDir, umbrella, files, values === 'values-production.yaml')).toEqual([]);
    });
  }

  it('the umbrella with kind and production values has a NetworkPolicy for every deployable and an Ingress', async () => {
    for (const files of [['values.yaml'], ['values.yaml', 'values-production.yaml']]) {
      const r = await render(join(helmDir, umbrella), files.map((f) => join(helmDir, umbrella, f)));
      expect(r.problems).toEqual([]);
      expect(networkPolicyProblems(r.objects, names, files.join('+'))).toEqual([]);
      expect(r.objects.some((o) => o.kind === 'Ingress')).toBe(true);
    }
  });

  it('production values: no local mode, no literal JWT/SMTP/payment Secret', async () => {
    const r = await render(join(helmDir, umbrella), ['values.yaml', 'values-production.yaml'].map((f) => join(helmDir, umbrella, f)));
    expect(r.problems).toEqual([]);
    expect(r.text).not.toMatch(/RUILPLEIN_MODE:\s*"?local/);
    expect(productionProblems(r.objects, 'production')).toEqual([]);
  });
});

describe('values rules', () => {
  const umbrellaFiles = (...files: string[]) => files.map((f) => join(helmDir, umbrella, f));
  const failure = async (chart: string, files: string[], set: Record<string, string>) => (await render(join(helmDir, chart), files, chart, set)).problems.join('\n');

  it('production refuses local mode, in-cluster stores and secrets given as values', async () => {
    const production = umbrellaFiles('values.yaml', 'values-production.yaml');
    expect(await failure(umbrella, production, { 'global.mode': 'local' })).toMatch(/global.mode=local .* not allowed/);
    expect(await failure(umbrella, production, { 'stores.inCluster': 'true' })).toMatch(/stores.inCluster is for kind/);
    expect(await failure('listing', production, { 'global.secrets.jwt.privateKey': 'abc' })).toMatch(/referenced by name only/);
  });

  it('secretEnv reads a Secret named by global.secrets; production requires it, development may leave it out', async () => {
    const set = { 'secretEnv[0].name': 'SMTP_URL', 'secretEnv[0].secret': 'smtp', 'secretEnv[0].key': 'url' };
    const production = umbrellaFiles('values.yaml', 'values-production.yaml');
    expect(await failure('listing', production, { ...set, 'secretEnv[0].secret': 'other' })).toMatch(/env SMTP_URL needs global.secrets.other.existingSecret/);
    const env = async (files: string[]) => {
      const r = await render(join(helmDir, 'listing'), files, 'listing', set);
      expect(r.problems).toEqual([]);
      return podSpec(r.objects.find((o) => o.kind === 'Deployment')!)?.containers?.[0]?.env ?? [];
    };
    const inProduction = await env(production);
    expect(inProduction).toContainEqual({ name: 'SMTP_URL', valueFrom: { secretKeyRef: { name: 'ruilplein-smtp', key: 'url' } } });
    expect(inProduction).toContainEqual({ name: 'MONGODB_URL', valueFrom: { secretKeyRef: { name: 'ruilplein-mongodb', key: 'url' } } });
    expect(inProduction).toContainEqual({ name: 'PUBLIC_URL', value: 'https://ruilplein.example.com' });
    expect((await env(umbrellaFiles('values.yaml'))).map((e) => e.name)).not.toContain('SMTP_URL');
  });

  it("the shell's remotes.json and map.json come from the environment's values and are mounted over the built ones", async () => {
    const r = await render(join(helmDir, 'shell'), [], 'shell', { 'remotes.trades': 'https://cdn.example.com/trades/v2/mf-manifest.json' });
    expect(r.problems).toEqual([]);
    const files = r.objects.find((o) => o.kind === 'ConfigMap' && o.metadata?.name === 'shell-files') as { data: Record<string, string> } | undefined;
    expect(JSON.parse(files?.data['remotes.json'] ?? '{}')).toMatchObject({ trades: 'https://cdn.example.com/trades/v2/mf-manifest.json', listings: '/mfe/listings/mf-manifest.json' });
    expect(JSON.parse(files?.data['map.json'] ?? '{}')).toMatchObject({ tileUrl: expect.stringContaining('{z}') });
    const mounts = (podSpec(r.objects.find((o) => o.kind === 'Deployment')!)?.containers?.[0] as { volumeMounts?: Array<{ mountPath: string }> }).volumeMounts ?? [];
    expect(mounts.map((m) => m.mountPath)).toEqual(expect.arrayContaining(['/usr/share/nginx/html/remotes.json', '/usr/share/nginx/html/map.json']));
  });

  it('the Ingress never routes the mail outbox; services trust the ingress controller and the gateway as proxies', async () => {
    for (const files of [['values.yaml'], ['values.yaml', 'values-production.yaml']]) {
      const r = await render(join(helmDir, umbrella), umbrellaFiles(...files));
      expect(r.problems).toEqual([]);
      const ingress = r.objects.find((o) => o.kind === 'Ingress') as { spec: { rules: Array<{ http: { paths: Array<{ path: string }> } }> } };
      expect(ingress.spec.rules.flatMap((rule) => rule.http.paths.map((p) => p.path))).not.toContain('/dev/mail');
      const hops = Object.fromEntries(
        r.objects.filter((o) => o.kind === 'Deployment').flatMap((o) => (podSpec(o)?.containers?.[0]?.env ?? []).filter((e) => e.name === 'TRUSTED_PROXY_HOPS').map((e) => [o.metadata?.name, e.value])),
      );
      expect(hops, files.join('+')).toEqual({ gateway: '1', auth: '2', listing: '2', ...Object.fromEntries(Object.keys(hops).filter((n) => n !== 'gateway').map((n) => [n, '2'])) });
    }
  });

  it('NetworkPolicies: services take HTTP from the gateway only, the gateway from the ingress controller', async () => {
    type Policy = { spec: { ingress: Array<{ from: unknown[] }>; egress: Array<{ to?: Array<{ podSelector?: { matchLabels: Record<string, string> } }> }> } };
    const policy = async (chart: string) => (await render(join(helmDir, chart))).objects.find((o) => o.kind === 'NetworkPolicy') as unknown as Policy;
    const listing = await policy('listing');
    expect(listing.spec.ingress.flatMap((i) => i.from)).toEqual([{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'gateway' } } }]);
    expect(listing.spec.egress.flatMap((e) => e.to ?? []).map((t) => t.podSelector?.matchLabels['app.kubernetes.io/name'])).toEqual(['auth']);
    const gateway = await policy('gateway');
    expect(gateway.spec.ingress.flatMap((i) => i.from)).toEqual([{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }]);
    expect(gateway.spec.egress.flatMap((e) => e.to ?? [])).toEqual([{ podSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'ruilplein', 'app.kubernetes.io/component': 'service' } } }]);
  });

  it('Prometheus scraping (production): every service serves /metrics on its metrics port, open to the monitoring namespace only; frontends and development do not', async () => {
    type Pod = { metadata?: { annotations?: Record<string, string> } };
    type Policy = { metadata: { name: string }; spec: { ingress: Array<{ ports: Array<{ port: number }>; from: unknown[] }> } };
    for (const files of [['values.yaml'], ['values.yaml', 'values-production.yaml']]) {
      const production = files.length === 2;
      const r = await render(join(helmDir, umbrella), files.map((f) => join(helmDir, umbrella, f)));
      expect(r.problems).toEqual([]);
      for (const d of expected) {
        const deployment = r.objects.find((o) => o.kind === 'Deployment' && o.metadata?.name === d.name);
        const scraped = production && d.kind === 'service';
        const template = (deployment?.spec as { template?: Pod } | undefined)?.template;
        const container = podSpec(deployment!)?.containers?.[0];
        expect(template?.metadata?.annotations?.['prometheus.io/scrape'], d.name).toBe(scraped ? 'true' : undefined);
        expect((container?.ports ?? []).map((p) => p.name), d.name).toEqual(scraped ? ['http', 'metrics'] : ['http']);
        expect((container?.env ?? []).find((e) => e.name === 'OTEL_METRICS_EXPORTER')?.value, d.name).toBe(scraped ? 'otlp,prometheus' : undefined);
        const policy = r.objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata?.name === d.name) as unknown as Policy;
        const metricsRule = policy.spec.ingress.find((rule) => rule.ports.some((p) => p.port === 9464));
        expect(metricsRule?.from, d.name).toEqual(scraped ? [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }] : undefined);
      }
    }
  });
});

describe('skaffold.yaml', () => {
  it('has valid configs: one module per deployable, platform requiring all, kind and production profiles', () => {
    expect(skaffoldProblems(parseSkaffold(skaffoldText), expected)).toEqual([]);
  });

  it('names agree: recipe, chart helm/<name> named <name>, umbrella dependency, skaffold module', () => {
    expect(namesProblems(join(repoRoot, 'helm'), parseSkaffold(skaffoldText), expected)).toEqual([]);
  });

  it('each module renders its release as skaffold would, in every profile (production: production globals)', async () => {
    const problems: string[] = [];
    for (const c of parseSkaffold(skaffoldText).map((d) => skaffoldConfig.parse(d))) {
      for (const profile of [undefined, ...(c.profiles ?? []).map((p) => p.name)]) {
        for (const r of releasesFor(c, profile)) {
          const inCopy = (p: string) => join(helmDir, p.replace(/^helm\//, ''));
          // skaffold fills image.repository/tag from its build; stand-ins with the same shape here.
          const templated = Object.fromEntries(Object.keys(r.setValueTemplates ?? {}).map((k) => [k, k === 'image.tag' ? 'v1-test' : `ruilplein/${r.name}`]));
          const out = await render(inCopy(r.chartPath), (r.valuesFiles ?? []).map(inCopy), r.name, { ...r.setValues, ...templated });
          const label = `skaffold ${c.metadata.name} (${profile ?? 'no profile'})`;
          problems.push(...out.problems, ...(await validateObjects(out.text, label)), ...workloadProblems(out.objects, label));
          if (profile === 'production') problems.push(...productionProblems(out.objects, label));
          if (c.metadata.name === 'platform' && out.objects.some((o) => podSpec(o) && names.includes(o.metadata?.name ?? '')))
            problems.push(`${label}: releases a deployable that its own module releases`);
          if (c.metadata.name !== 'platform' && !out.objects.some((o) => o.kind === 'Deployment' && o.metadata?.name === r.name))
            problems.push(`${label}: renders no Deployment ${r.name}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('the platform release only disables subcharts the umbrella has', () => {
    const deps = ((readChart(join(repoRoot, 'helm'), umbrella)?.dependencies ?? []) as Array<{ name: string; condition?: string }>).map((d) => d.condition ?? `${d.name}.enabled`);
    const platform = parseSkaffold(skaffoldText).find((d) => (d as { metadata: { name: string } }).metadata.name === 'platform') as {
      manifests: { helm: { releases: Array<{ setValues?: Record<string, string> }> } };
    };
    for (const key of Object.keys(platform.manifests.helm.releases[0]?.setValues ?? {})) expect(deps.join(',').split(','), key).toContain(key);
  });
});

describe('kind walk-through in the README', () => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((s) => s.startsWith('Kubernetes with kind')) ?? '';
  const commands = [...section.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)].flatMap((m) => (m[1] ?? '').split('\n')).map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const cluster = parseYaml(readFileSync(join(repoRoot, 'infra/kind/cluster.yaml'), 'utf8')) as {
    name: string;
    nodes: Array<{ labels?: Record<string, string>; extraPortMappings?: Array<{ containerPort: number; hostPort: number }> }>;
  };
  const configs = parseSkaffold(skaffoldText) as Array<{ metadata: { name: string }; profiles?: Array<{ name: string }> }>;
  const option = (cmd: string, ...flags: string[]) => flags.map((f) => new RegExp(`(?:^|\\s)${f}[ =](\\S+)`).exec(cmd)?.[1]).find(Boolean);

  it('names every step, and the kind cluster maps the Ingress to 8080 on an ingress-ready node', () => {
    expect(commands.some((c) => c.startsWith('kind create cluster'))).toBe(true);
    expect(commands.some((c) => c.startsWith('skaffold run'))).toBe(true);
    expect(cluster.name).toBe('ruilplein');
    expect(cluster.nodes[0]?.labels?.['ingress-ready']).toBe('true');
    expect(cluster.nodes[0]?.extraPortMappings).toContainEqual(expect.objectContaining({ containerPort: 80, hostPort: 8080 }));
    expect(section).toContain('http://localhost:8080');
  });

  it('every path, cluster, context, module and profile a command names exists in the checked configuration', () => {
    const problems: string[] = [];
    for (const cmd of commands) {
      const [tool] = cmd.split(/\s+/);
      if (!['kind', 'kubectl', 'skaffold'].includes(tool ?? '')) problems.push(`unexpected command (not checked): ${cmd}`);
      for (const path of [option(cmd, '--config', '-f', '--filename', '-k', '--kustomize')].filter((p): p is string => !!p)) {
        if (!existsSync(join(repoRoot, path))) problems.push(`${cmd}: ${path} does not exist`);
        if (/-k|--kustomize/.test(cmd)) {
          const k = parseYaml(readFileSync(join(repoRoot, path, 'kustomization.yaml'), 'utf8')) as { resources: string[] };
          for (const url of k.resources.filter((r) => r.startsWith('http')))
            if (!/\/controller-v\d+\.\d+\.\d+\//.test(url)) problems.push(`${path}: ${url} is not pinned to a release`);
        }
      }
      const name = option(cmd, '--name');
      if (tool === 'kind' && name && name !== cluster.name) problems.push(`${cmd}: cluster ${name} is not ${cluster.name}`);
      const context = option(cmd, '--context', '--kube-context');
      if (context && context !== `kind-${cluster.name}`) problems.push(`${cmd}: context ${context} is not kind-${cluster.name}`);
      if (tool === 'kubectl' && !context) problems.push(`${cmd}: names no --context (kind-${cluster.name})`);
      if (tool === 'skaffold') {
        for (const p of (option(cmd, '-p', '--profile') ?? '').split(',').filter(Boolean))
          if (!configs.some((c) => c.profiles?.some((x) => x.name === p))) problems.push(`${cmd}: no skaffold profile ${p}`);
        for (const m of (option(cmd, '-m', '--module') ?? '').split(',').filter(Boolean))
          if (!configs.some((c) => c.metadata.name === m)) problems.push(`${cmd}: no skaffold module ${m}`);
      }
    }
    expect(commands.length).toBeGreaterThanOrEqual(3);
    expect(problems).toEqual([]);
  });
});

describe('the checks bite', () => {
  it('a library template without readinessProbe fails the workload check', async () => {
    const { dir } = await prepareCharts();
    const libDir = join(dir, library, 'templates');
    let removed = false;
    for (const f of readdirSync(libDir)) {
      const lines = readFileSync(join(libDir, f), 'utf8').split('\n');
      const at = lines.findIndex((l) => /^\s*readinessProbe:/.test(l));
      if (at < 0) continue;
      const indent = /^\s*/.exec(lines[at] ?? '')?.[0].length ?? 0;
      let end = at + 1;
      const deeper = (l: string) => l.trim() !== '' && (/^\s*/.exec(l)?.[0].length ?? 0) > indent;
      while (end < lines.length && deeper(lines[end] ?? '')) end++;
      lines.splice(at, end - at);
      writeFileSync(join(libDir, f), lines.join('\n'));
      removed = true;
    }
    expect(removed, 'the library templates carry a readinessProbe').toBe(true);
    // The deployable charts vendor the library at dependency build: rebuild from the edited copy.
    const rebuilt = await prepareCharts(dir);
    expect(rebuilt.problems).toEqual([]);
    const problems = await checkChart(rebuilt.dir, 'gateway');
    expect(problems.join('\n')).toMatch(/readinessProbe|readiness/);
  });

  it('an object Kubernetes would reject fails kubernetes-validate', async () => {
    const r = await render(join(helmDir, 'gateway'));
    const broken = r.text.replace(/^kind: Deployment\nmetadata:\n/m, 'kind: Deployment\nmetadata:\n  colour: blue\n');
    expect(broken).not.toBe(r.text);
    expect((await validateObjects(broken, 'broken')).join('\n')).toMatch(/colour|Additional properties/);
  });

  it('a Chart.yaml without name fails lint and the names check', async () => {
    const { dir } = await prepareCharts();
    const file = join(dir, 'gateway', 'Chart.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^name:.*\n/m, ''));
    expect(await lint(join(dir, 'gateway'))).not.toEqual([]);
    expect(namesProblems(dir, parseSkaffold(skaffoldText), expected).join('\n')).toMatch(/gateway: helm\/gateway\/Chart.yaml name/);
  });

  it('a skaffold module without its artifact image fails the skaffold and names checks', () => {
    const docs = parseSkaffold(skaffoldText) as Array<{ metadata: { name: string }; build: { artifacts: Array<Record<string, unknown>> } }>;
    const listing = docs.find((d) => d.metadata.name === (names.includes('listing') ? 'listing' : 'gateway'));
    expect(listing).toBeDefined();
    delete listing!.build.artifacts[0]!.image;
    const broken = parseSkaffold(docs.map((d) => stringify(d)).join('---\n'));
    expect(skaffoldProblems(broken, expected).join('\n')).toMatch(/image/);
    expect(namesProblems(join(repoRoot, 'helm'), broken, expected).join('\n')).toMatch(new RegExp(`no skaffold artifact ruilplein/${listing!.metadata.name}`));
  });

  it('a missing module or an unknown skaffold field is caught', () => {
    const docs = parseSkaffold(skaffoldText) as Array<Record<string, unknown> & { metadata: { name: string } }>;
    expect(skaffoldProblems(docs.filter((d) => d.metadata.name !== 'shell'), expected).join('\n')).toMatch(/shell/);
    expect(skaffoldProblems([{ ...docs[0], biuld: {} }, ...docs.slice(1)], expected).join('\n')).toMatch(/biuld|Unrecognized/);
  });
});
