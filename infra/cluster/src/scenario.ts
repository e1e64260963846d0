// What `npm run cluster` proves against the running control plane: fake nodes, the umbrella chart
// with development and with production values, the skaffold-style release of each deployable's
// own chart, one deployable upgraded alone, and a privileged chart refused.
import { spawn } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deployables, run, umbrella, type Run } from '../../k8s/src/checks.ts';
import { ClusterError } from './control-plane.ts';
import { failedCreates, hpasBelowMin, pendingRollouts, replicaSetChanges, replicaSetSnapshot, upgradeProblems, warningLines, type Workload } from './rollout.ts';
import type { ClusterTools } from './tools.ts';

export const namespaces = { dev: 'rp-dev', prod: 'rp-prod', modules: 'rp-modules', privileged: 'rp-privileged' } as const;
const FAKE_NODES = 3;
const UPGRADED = 'listing';

export interface ScenarioContext {
  tools: ClusterTools;
  kubeconfig: string;
  /** helm/ copied with its file:// dependencies built (prepareCharts). */
  charts: string;
  workDir: string;
  log: (line: string) => void;
  /** Throws when a control-plane process has exited. */
  assertAlive: () => void;
}

/** Kubernetes fake nodes that kwok manages (the annotation selects them), roomy enough for every pod. */
export function fakeNodes(count: number): string {
  return Array.from({ length: count }, (_, i) =>
    [
      'apiVersion: v1',
      'kind: Node',
      'metadata:',
      `  name: kwok-node-${i}`,
      '  annotations: {kwok.x-k8s.io/node: fake, node.alpha.kubernetes.io/ttl: "0"}',
      `  labels: {kubernetes.io/hostname: kwok-node-${i}, kubernetes.io/os: linux, kubernetes.io/arch: amd64, type: kwok}`,
      'status:',
      '  allocatable: {cpu: "32", memory: 256Gi, pods: "110"}',
      '  capacity: {cpu: "32", memory: 256Gi, pods: "110"}',
    ].join('\n'),
  ).join('\n---\n');
}

export async function runScenario(ctx: ScenarioContext): Promise<void> {
  const { tools, kubeconfig, charts, log } = ctx;
  const kubectl = (args: string[], input?: string) => exec(tools.kubectl, ['--kubeconfig', kubeconfig, ...args], input);
  const getJson = async <T>(args: string[]): Promise<T[]> => {
    const r = await kubectl(['get', ...args, '-o', 'json']);
    if (!r.ok) throw new ClusterError(`kubectl get ${args.join(' ')}: ${r.stderr.trim()}`);
    return (JSON.parse(r.stdout) as { items: T[] }).items;
  };
  const must = async (what: string, r: Run, { allowWarnings = false } = {}) => {
    if (!r.ok) throw new ClusterError(`${what} failed:\n${(r.stderr || r.stdout).trim()}`);
    const warnings = warningLines(`${r.stdout}\n${r.stderr}`);
    if (warnings.length && !allowWarnings) throw new ClusterError(`${what}: the API server warned (warnings are errors here):\n${warnings.join('\n')}`);
    return r;
  };
  const until = async (what: string, timeoutMs: number, check: () => Promise<string[]>) => {
    const deadline = performance.now() + timeoutMs;
    let left: string[] = [];
    while (performance.now() < deadline) {
      ctx.assertAlive();
      left = await check();
      if (!left.length) return;
      await new Promise((r) => setTimeout(r, 400));
    }
    throw new ClusterError(`timed out after ${timeoutMs / 1000} s waiting for ${what}:\n${left.join('\n')}`);
  };

  await until('the controllers (the default ServiceAccount)', 60_000, async () => ((await kubectl(['-n', 'default', 'get', 'serviceaccount', 'default'])).ok ? [] : ['not yet']));
  await must('create fake nodes', await kubectl(['apply', '--warnings-as-errors', '-f', '-'], fakeNodes(FAKE_NODES)));
  await must('wait for nodes', await kubectl(['wait', '--for=condition=Ready', 'node', '--all', '--timeout=60s']));
  log(`${FAKE_NODES} fake nodes Ready`);
  // No namespace labels: the API server's admission configuration enforces "restricted" everywhere.
  for (const ns of Object.values(namespaces)) await must(`create namespace ${ns}`, await kubectl(['create', 'namespace', ns, '--warnings-as-errors']));

  const helm = (args: string[]) => run(tools.helm, [...args, '--kubeconfig', kubeconfig]);
  const umbrellaDir = join(charts, umbrella);
  const values = (...files: string[]) => files.flatMap((f) => ['--values', join(umbrellaDir, f)]);
  const names = deployables().map((d) => d.name);
  // The skaffold modules' releases: the platform (umbrella, every deployable off) and each chart alone.
  const moduleArgs = (name: string, tag: string) => ['--namespace', namespaces.modules, ...values('values.yaml'), '--set', 'global.imageRegistry=', '--set', `image.repository=ruilplein/${name}`, '--set', `image.tag=${tag}`];
  const installs: Array<[string, string[]]> = [
    [`umbrella, development values (${namespaces.dev})`, ['install', umbrella, umbrellaDir, '--namespace', namespaces.dev, ...values('values.yaml')]],
    [`umbrella, production values (${namespaces.prod})`, ['install', umbrella, umbrellaDir, '--namespace', namespaces.prod, ...values('values.yaml', 'values-production.yaml'), '--set', 'global.imageTag=1.0.0']],
    [`platform release (${namespaces.modules})`, ['install', umbrella, umbrellaDir, '--namespace', namespaces.modules, ...values('values.yaml'), ...names.flatMap((n) => ['--set', `${n}.enabled=false`])]],
    ...names.map((n): [string, string[]] => [`${n} chart (${namespaces.modules})`, ['install', n, join(charts, n), ...moduleArgs(n, 'v1')]]),
  ];
  // Three at a time: each helm is a short CPU burst, and two cores also run the control plane.
  await inBatches(installs, 3, async ([what, args]) => must(`helm install ${what}`, await helm(args)));
  log(`helm install: the umbrella twice (development, production) and ${names.length} charts plus the platform the skaffold way`);

  const waitRollouts = async (what: string) => {
    await until(what, 120_000, async () => {
      const items = await getJson<Workload & { reason?: string }>(['deployments,statefulsets,horizontalpodautoscalers,events', '--all-namespaces']);
      const refused = failedCreates(items.filter((i) => i.kind === 'Event'), undefined).filter((l) => !l.startsWith(`${namespaces.privileged}/`));
      if (refused.length) throw new ClusterError(`the API server refused pods:\n${refused.join('\n')}`);
      const workloads = items.filter((i) => i.kind === 'Deployment' || i.kind === 'StatefulSet');
      return [...pendingRollouts(workloads), ...hpasBelowMin(items.filter((i) => i.kind === 'HorizontalPodAutoscaler'), workloads)];
    });
  };
  await waitRollouts('every Deployment and StatefulSet to roll out');
  const workloads = await getJson<Workload>(['deployments,statefulsets', '--all-namespaces']);
  const perNs = (kind: string) => Object.values(namespaces).map((ns) => `${ns} ${workloads.filter((w) => w.kind === kind && w.metadata?.namespace === ns).length}`);
  const pods = await getJson<{ status?: { phase?: string } }>(['pods', '--all-namespaces']);
  const hpas = await getJson<unknown>(['horizontalpodautoscalers', '--namespace', namespaces.prod]);
  const pdbs = await getJson<{ status?: { currentHealthy?: number; desiredHealthy?: number } }>(['poddisruptionbudgets', '--namespace', namespaces.prod]);
  const unhealthyPdbs = pdbs.filter((p) => (p.status?.currentHealthy ?? 0) < (p.status?.desiredHealthy ?? 1));
  if (!hpas.length || !pdbs.length) throw new ClusterError(`production values: expected HPAs and PDBs in ${namespaces.prod}, got ${hpas.length} and ${pdbs.length}`);
  if (unhealthyPdbs.length) throw new ClusterError(`production values: ${unhealthyPdbs.length} PodDisruptionBudgets below their desired healthy pods`);
  log(`rolled out: Deployments (${perNs('Deployment').join(', ')}), StatefulSets (${perNs('StatefulSet').join(', ')}); ${pods.filter((p) => p.status?.phase === 'Running').length} of ${pods.length} pods Running; ${hpas.length} HPAs at their minimum, ${pdbs.length} PDBs healthy in ${namespaces.prod}`);

  // One team upgrades its own chart: only its Deployment may roll.
  const rsBefore = replicaSetSnapshot(await getJson(['replicasets', '--all-namespaces']));
  await must(`helm upgrade ${UPGRADED}`, await helm(['upgrade', UPGRADED, join(charts, UPGRADED), ...moduleArgs(UPGRADED, 'v2')]));
  await waitRollouts(`${UPGRADED} to roll out v2`);
  const image = (await getJson<Workload & { spec?: { template?: { spec?: { containers?: Array<{ image?: string }> } } } }>(['deployments', '--namespace', namespaces.modules]))
    .find((d) => d.metadata?.name === UPGRADED)?.spec?.template?.spec?.containers?.[0]?.image;
  if (image !== `ruilplein/${UPGRADED}:v2`) throw new ClusterError(`after the upgrade ${UPGRADED} runs ${image}, not ruilplein/${UPGRADED}:v2`);
  const changes = replicaSetChanges(rsBefore, replicaSetSnapshot(await getJson(['replicasets', '--all-namespaces'])));
  const problems = upgradeProblems(changes, `${namespaces.modules}/${UPGRADED}`);
  if (problems.length) throw new ClusterError(`upgrade of ${UPGRADED} alone:\n${problems.join('\n')}`);
  log(`upgrade: ${UPGRADED} rolled to ${image} (${changes.map((c) => `${c.key} ${c.change}`).join(', ')}); the other ${[...rsBefore.keys()].filter((k) => !changes.some((c) => c.key === k)).length} ReplicaSets unchanged`);

  // A chart made privileged (a post-renderer sets privileged: true): its Deployment is accepted with
  // a warning, and every pod its ReplicaSet tries to create is refused.
  const postRenderer = join(ctx.workDir, 'privileged.sh');
  writeFileSync(postRenderer, `#!/bin/sh\nexec "${process.execPath}" "${join(import.meta.dirname, 'privileged.ts')}"\n`);
  chmodSync(postRenderer, 0o755);
  const privileged = await must(
    'helm install of the privileged chart',
    await helm(['install', UPGRADED, join(charts, UPGRADED), '--namespace', namespaces.privileged, ...values('values.yaml'), '--post-renderer', postRenderer]),
    { allowWarnings: true },
  );
  if (!warningLines(`${privileged.stdout}\n${privileged.stderr}`).some((l) => /PodSecurity/.test(l))) throw new ClusterError('the privileged chart installed without a PodSecurity warning');
  let refusal = '';
  await until('the privileged pods to be refused', 30_000, async () => {
    const events = await getJson<Parameters<typeof failedCreates>[0][number]>(['events', '--namespace', namespaces.privileged]);
    refusal = failedCreates(events, namespaces.privileged).find((l) => /violates PodSecurity "restricted/.test(l)) ?? '';
    return refusal ? [] : ['no FailedCreate event yet'];
  });
  const privilegedPods = await getJson<unknown>(['pods', '--namespace', namespaces.privileged]);
  if (privilegedPods.length) throw new ClusterError(`${privilegedPods.length} privileged pods were created`);
  log(`privileged chart refused: 0 pods; ${refusal.slice(0, 200)}`);
}

async function inBatches<T>(items: T[], size: number, work: (item: T) => Promise<unknown>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: size }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

function exec(command: string, args: string[], input?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', (err) => resolve({ ok: false, stdout, stderr: err.message }));
    child.on('close', (code) => resolve({ ok: code === 0, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}
