// etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kwok as child processes on
// free loopback ports. No kubelet: kwok plays the nodes and marks pods Running.
import { execFile, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hasExited, spawnChild, stopChild } from '../../local/src/children.ts';
import { makePki, type Pki } from './pki.ts';
import { freePorts } from './ports.ts';
import type { ClusterTools } from './tools.ts';

/**
 * Pod Security "restricted" enforced (and warned, audited) in every namespace by the admission
 * plugin's defaults, with no exemptions: a namespace label cannot loosen what this proves.
 */
export const admissionConfiguration = `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
  - name: PodSecurity
    configuration:
      apiVersion: pod-security.admission.config.k8s.io/v1
      kind: PodSecurityConfiguration
      defaults:
        enforce: restricted
        enforce-version: latest
        audit: restricted
        audit-version: latest
        warn: restricted
        warn-version: latest
      exemptions:
        usernames: []
        runtimeClasses: []
        namespaces: []
`;

export interface ControlPlane {
  pki: Pki;
  /** The admin kubeconfig (system:masters). */
  kubeconfig: string;
  /** Throws when one of the processes has exited. */
  assertAlive(): void;
  /** Stops every process (kwok and the controllers first, etcd last) and waits until each has exited. */
  stop(): Promise<void>;
}

export class ClusterError extends Error {}

export async function startControlPlane(tools: ClusterTools, dir: string, log: (line: string) => void): Promise<ControlPlane> {
  const [etcdClient, etcdPeer, apiserverPort, kwokPort] = (await freePorts(4)) as [number, number, number, number];
  mkdirSync(join(dir, 'pki'), { recursive: true });
  mkdirSync(join(dir, 'logs'), { recursive: true });
  const pki = await makePki(join(dir, 'pki'), apiserverPort);
  const admission = join(dir, 'admission.yaml');
  writeFileSync(admission, admissionConfiguration);

  const children: Array<{ name: string; child: ChildProcess }> = [];
  const start = (name: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
    const out = createWriteStream(join(dir, 'logs', `${name}.log`));
    const child = spawnChild(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    child.stdout?.pipe(out);
    child.stderr?.pipe(out);
    children.push({ name, child });
    return child;
  };
  const stop = async () => {
    for (const { child } of [...children].reverse()) await stopChild(child, 5000);
  };
  const died = () => children.find((c) => hasExited(c.child));

  try {
    const etcdUrl = `http://127.0.0.1:${etcdClient}`;
    const peerUrl = `http://127.0.0.1:${etcdPeer}`;
    // --unsafe-no-fsync: a throw-away store; fsync per write would dominate the run on a slow disk.
    start('etcd', tools.etcd, [
      '--name=local', `--data-dir=${join(dir, 'etcd')}`, `--listen-client-urls=${etcdUrl}`, `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=${peerUrl}`, `--initial-advertise-peer-urls=${peerUrl}`, `--initial-cluster=local=${peerUrl}`, '--unsafe-no-fsync', '--log-level=warn',
    ]);
    // --endpoint-reconciler-type=none: the reconciler would publish the loopback advertise address
    // as the `kubernetes` Service's endpoint, which the API refuses, and keep failing.
    start('kube-apiserver', tools.kubeApiserver, [
      `--etcd-servers=${etcdUrl}`, '--bind-address=127.0.0.1', '--advertise-address=127.0.0.1', `--secure-port=${apiserverPort}`,
      `--tls-cert-file=${pki.apiserver.cert}`, `--tls-private-key-file=${pki.apiserver.key}`, `--client-ca-file=${pki.ca.cert}`,
      `--service-account-key-file=${pki.serviceAccount.pub}`, `--service-account-signing-key-file=${pki.serviceAccount.key}`,
      '--service-account-issuer=https://kubernetes.default.svc', '--service-cluster-ip-range=10.96.0.0/16',
      '--authorization-mode=Node,RBAC', '--enable-admission-plugins=NodeRestriction,PodSecurity', `--admission-control-config-file=${admission}`,
      '--enable-priority-and-fairness=false', '--endpoint-reconciler-type=none',
      // As real clusters (kubeadm) do: then Pod Security admission, not this flag, is what refuses privileged pods.
      '--allow-privileged=true',
    ]);
    await waitFor('kube-apiserver /readyz', 60_000, died, async () => (await kubectlOk(tools.kubectl, pki.kubeconfig.admin, ['get', '--raw', '/readyz'])));
    log('control plane: etcd and kube-apiserver ready');

    // --secure-port=0: no serving endpoints for the controllers, so no further ports to pick.
    start('kube-controller-manager', tools.kubeControllerManager, [
      `--kubeconfig=${pki.kubeconfig['kube-controller-manager']}`, '--use-service-account-credentials=true',
      `--service-account-private-key-file=${pki.serviceAccount.key}`, `--root-ca-file=${pki.ca.cert}`,
      `--cluster-signing-cert-file=${pki.ca.cert}`, `--cluster-signing-key-file=${pki.ca.key}`, '--leader-elect=false', '--secure-port=0',
      '--controllers=*,-nodeipam,-cloud-node-lifecycle,-service-lb-controller,-route',
      // The HPAs of the production values raise their Deployments to minReplicas on a sync: every 2 s, not 15 s.
      '--horizontal-pod-autoscaler-sync-period=2s',
    ]);
    start('kube-scheduler', tools.kubeScheduler, [`--kubeconfig=${pki.kubeconfig['kube-scheduler']}`, '--leader-elect=false', '--secure-port=0']);
    start(
      'kwok',
      tools.kwok,
      [
        `--kubeconfig=${pki.kubeconfig.admin}`, '--manage-all-nodes=false', '--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake',
        '--cidr=10.0.0.0/16', '--node-ip=10.0.0.1', '--node-lease-duration-seconds=40', `--server-address=127.0.0.1:${kwokPort}`, '-c', tools.kwokStages,
      ],
      // Streaming watch-lists for kwok's informers: fewer full LISTs against the API server.
      { KUBE_FEATURE_WatchListClient: 'true' },
    );
    const assertAlive = () => {
      const dead = died();
      if (dead) throw new ClusterError(`${dead.name} exited (see ${join(dir, 'logs', `${dead.name}.log`)})`);
    };
    return { pki, kubeconfig: pki.kubeconfig.admin, stop, assertAlive };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function kubectlOk(kubectl: string, kubeconfig: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => execFile(kubectl, ['--kubeconfig', kubeconfig, '--request-timeout=2s', ...args], (err) => resolve(!err)));
}

/** Polls `check` until it holds; fails early when one of the processes has exited. */
export async function waitFor(what: string, timeoutMs: number, died: () => { name: string } | undefined, check: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const dead = died();
    if (dead) throw new ClusterError(`${dead.name} exited while waiting for ${what} (see its log)`);
    if (await check()) return;
    if (performance.now() > deadline) throw new ClusterError(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
