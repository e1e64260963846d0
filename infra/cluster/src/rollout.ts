// What the cluster run reads back from the API server, as pure functions over `kubectl get -o json`.

type Meta = { name?: string; namespace?: string; uid?: string; generation?: number; annotations?: Record<string, string>; ownerReferences?: Array<{ kind?: string; name?: string }> };

export interface Workload {
  kind?: string;
  metadata?: Meta;
  spec?: { replicas?: number; updateStrategy?: { type?: string } };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    updatedReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    currentRevision?: string;
    updateRevision?: string;
    conditions?: Array<{ type?: string; reason?: string; message?: string }>;
  };
}

export const workloadName = (w: { kind?: string; metadata?: Meta }) => `${w.metadata?.namespace}/${w.kind}/${w.metadata?.name}`;

/**
 * Why a Deployment or StatefulSet has not rolled out yet, or undefined once it has: the checks
 * `kubectl rollout status` makes, for many objects from one list call instead of one process each.
 */
export function notRolledOut(w: Workload): string | undefined {
  const s = w.status ?? {};
  const wanted = w.spec?.replicas ?? 1;
  if ((s.observedGeneration ?? 0) < (w.metadata?.generation ?? 1)) return 'spec not yet observed';
  if (w.kind === 'Deployment') {
    const deadline = s.conditions?.find((c) => c.type === 'Progressing' && c.reason === 'ProgressDeadlineExceeded');
    if (deadline) return `progress deadline exceeded: ${deadline.message ?? ''}`;
    const updated = s.updatedReplicas ?? 0;
    if (updated < wanted) return `${updated} of ${wanted} replicas updated`;
    if ((s.replicas ?? 0) > updated) return `${(s.replicas ?? 0) - updated} old replicas pending termination`;
    if ((s.availableReplicas ?? 0) < updated) return `${s.availableReplicas ?? 0} of ${updated} updated replicas available`;
    return undefined;
  }
  if (w.kind === 'StatefulSet') {
    if ((s.readyReplicas ?? 0) < wanted) return `${s.readyReplicas ?? 0} of ${wanted} pods ready`;
    if ((w.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate' && s.updateRevision !== s.currentRevision) return 'update revision not yet current';
    return undefined;
  }
  return undefined;
}

/** The workloads of a list that have not rolled out, each with its reason. */
export function pendingRollouts(items: Workload[]): string[] {
  return items.flatMap((w) => {
    const why = notRolledOut(w);
    return why ? [`${workloadName(w)}: ${why}`] : [];
  });
}

export interface ReplicaSetState {
  key: string;
  uid: string;
  owner: string;
  replicas: number;
  revision: string;
}

/** ReplicaSets by namespace/name, with their uid, owning Deployment, wanted replicas and revision. */
export function replicaSetSnapshot(items: Array<{ metadata?: Meta; spec?: { replicas?: number } }>): Map<string, ReplicaSetState> {
  return new Map(
    items.map((rs) => {
      const key = `${rs.metadata?.namespace}/${rs.metadata?.name}`;
      const owner = rs.metadata?.ownerReferences?.find((o) => o.kind === 'Deployment')?.name ?? '';
      const revision = rs.metadata?.annotations?.['deployment.kubernetes.io/revision'] ?? '';
      return [key, { key, uid: rs.metadata?.uid ?? '', owner: `${rs.metadata?.namespace}/${owner}`, replicas: rs.spec?.replicas ?? 0, revision }];
    }),
  );
}

export interface ReplicaSetChange {
  key: string;
  owner: string;
  change: 'added' | 'removed' | 'replaced' | 'scaled' | 'revision';
}

/** Every ReplicaSet that appeared, disappeared, was recreated, scaled or re-revisioned between two snapshots. */
export function replicaSetChanges(before: Map<string, ReplicaSetState>, after: Map<string, ReplicaSetState>): ReplicaSetChange[] {
  const changes: ReplicaSetChange[] = [];
  for (const [key, a] of after) {
    const b = before.get(key);
    if (!b) changes.push({ key, owner: a.owner, change: 'added' });
    else if (b.uid !== a.uid) changes.push({ key, owner: a.owner, change: 'replaced' });
    else if (b.replicas !== a.replicas) changes.push({ key, owner: a.owner, change: 'scaled' });
    else if (b.revision !== a.revision) changes.push({ key, owner: a.owner, change: 'revision' });
  }
  for (const [key, b] of before) if (!after.has(key)) changes.push({ key, owner: b.owner, change: 'removed' });
  return changes.sort((x, y) => x.key.localeCompare(y.key));
}

/**
 * Problems with an upgrade of one Deployment (`namespace/name`): it must have a new ReplicaSet
 * and its old one scaled down, and no other ReplicaSet may have changed in any way.
 */
export function upgradeProblems(changes: ReplicaSetChange[], deployment: string): string[] {
  const problems = changes.filter((c) => c.owner !== deployment).map((c) => `${c.key} (of ${c.owner}) was ${c.change}, but only ${deployment} was upgraded`);
  const own = changes.filter((c) => c.owner === deployment);
  if (!own.some((c) => c.change === 'added')) problems.push(`${deployment} got no new ReplicaSet`);
  if (!own.some((c) => c.change === 'scaled' || c.change === 'removed')) problems.push(`${deployment}: its old ReplicaSet was not scaled down`);
  return problems;
}

/**
 * Lines of a kubectl or helm run that carry an API server warning (client-go prints them as
 * "Warning: …", klog-style "W1126 …" or "walker.go] …would violate PodSecurity…").
 */
export function warningLines(output: string): string[] {
  return output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^warning\b/i.test(l) || /^W\d{4} /.test(l) || /would violate PodSecurity/i.test(l));
}

type Event = { reason?: string; message?: string; type?: string; involvedObject?: { kind?: string; name?: string; namespace?: string } };

/** FailedCreate events (a ReplicaSet or StatefulSet whose pods the API server refused), as lines. */
export function failedCreates(events: Event[], namespace?: string): string[] {
  return events
    .filter((e) => e.reason === 'FailedCreate' && (!namespace || e.involvedObject?.namespace === namespace))
    .map((e) => `${e.involvedObject?.namespace}/${e.involvedObject?.kind}/${e.involvedObject?.name}: ${e.message ?? ''}`);
}

type Hpa = { metadata?: Meta; spec?: object };

/** HorizontalPodAutoscalers whose Deployment still runs fewer than minReplicas (the controller raises it on its first pass). */
export function hpasBelowMin(hpas: Hpa[], workloads: Workload[]): string[] {
  return hpas.flatMap((hpa) => {
    const h = hpa as { metadata?: Meta; spec?: { minReplicas?: number; scaleTargetRef?: { kind?: string; name?: string } } };
    const ns = h.metadata?.namespace;
    const target = workloads.find((w) => w.kind === h.spec?.scaleTargetRef?.kind && w.metadata?.namespace === ns && w.metadata?.name === h.spec?.scaleTargetRef?.name);
    const min = h.spec?.minReplicas ?? 1;
    if (!target) return [`${ns}/HorizontalPodAutoscaler/${h.metadata?.name}: its target ${h.spec?.scaleTargetRef?.kind}/${h.spec?.scaleTargetRef?.name} does not exist`];
    return (target.spec?.replicas ?? 1) < min ? [`${workloadName(target)}: ${target.spec?.replicas ?? 1} of at least ${min} replicas (HPA)`] : [];
  });
}
