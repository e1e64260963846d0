// `npm run cluster`: a real Kubernetes API server on loopback (no container engine, no kubelet),
// every chart applied with Pod Security "restricted" enforced, then torn down. See README.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { onStopSignal } from '../../local/src/children.ts';
import { prepareCharts } from '../../k8s/src/checks.ts';
import { ClusterError, startControlPlane, type ControlPlane } from './control-plane.ts';
import { runScenario } from './scenario.ts';
import { ensureClusterTools, ToolError } from './tools.ts';

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s`;
const log = (line: string) => console.log(`[${elapsed()}] ${line}`);
const workDir = mkdtempSync(join(tmpdir(), 'ruilplein-cluster-'));
let controlPlane: ControlPlane | undefined;
let charts: string | undefined;
let prepared: ReturnType<typeof prepareCharts> | undefined;
let stopping = false;

async function cleanUp(keepLogs: boolean) {
  await controlPlane?.stop();
  controlPlane = undefined;
  charts ??= (await prepared?.catch(() => undefined))?.dir;
  if (charts) rmSync(dirname(charts), { recursive: true, force: true });
  if (keepLogs) console.error(`logs kept in ${join(workDir, 'logs')}`);
  else rmSync(workDir, { recursive: true, force: true });
}

onStopSignal(async (signal) => {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping the control plane`);
  await cleanUp(false);
  process.exit(130);
});

try {
  const tools = await ensureClusterTools(log);
  log('tools ready');
  // The charts' file:// dependencies build while the control plane starts.
  prepared = prepareCharts();
  controlPlane = await startControlPlane(tools, workDir, log);
  const p = await prepared;
  charts = p.dir;
  if (p.problems.length) throw new ClusterError(p.problems.join('\n'));
  await runScenario({ tools, kubeconfig: controlPlane.kubeconfig, charts, workDir, log, assertAlive: controlPlane.assertAlive });
  await cleanUp(false);
  log('cluster: all checks passed, every process stopped');
} catch (err) {
  // After Ctrl-C the steps still running fail against a stopped API server: nothing to report.
  if (stopping) await new Promise(() => {});
  console.error(err instanceof ClusterError || err instanceof ToolError ? `cluster: ${err.message}` : err instanceof Error ? `cluster: ${err.stack}` : err);
  await cleanUp(true);
  process.exitCode = 1;
}
