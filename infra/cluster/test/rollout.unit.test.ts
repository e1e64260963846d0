import { describe, expect, it } from 'vitest';
import { failedCreates, hpasBelowMin, notRolledOut, pendingRollouts, replicaSetChanges, replicaSetSnapshot, upgradeProblems, warningLines, type Workload } from '../src/rollout.ts';

const deployment = (name: string, status: Workload['status'], replicas = 1, generation = 1): Workload => ({
  kind: 'Deployment',
  metadata: { name, namespace: 'ns', generation },
  spec: { replicas },
  status: { observedGeneration: generation, ...status },
});

describe('notRolledOut', () => {
  it('a Deployment is rolled out when all replicas are updated and available and no old ones remain', () => {
    expect(notRolledOut(deployment('a', { replicas: 2, updatedReplicas: 2, availableReplicas: 2 }, 2))).toBeUndefined();
    expect(notRolledOut(deployment('a', { replicas: 2, updatedReplicas: 1, availableReplicas: 2 }, 2))).toBe('1 of 2 replicas updated');
    expect(notRolledOut(deployment('a', { replicas: 3, updatedReplicas: 2, availableReplicas: 2 }, 2))).toBe('1 old replicas pending termination');
    expect(notRolledOut(deployment('a', { replicas: 2, updatedReplicas: 2, availableReplicas: 1 }, 2))).toBe('1 of 2 updated replicas available');
  });

  it('waits for the controller to observe a new generation, and fails on a passed progress deadline', () => {
    expect(notRolledOut({ ...deployment('a', { replicas: 1, updatedReplicas: 1, availableReplicas: 1 }), metadata: { generation: 2 } })).toBe('spec not yet observed');
    const stuck = deployment('a', { conditions: [{ type: 'Progressing', reason: 'ProgressDeadlineExceeded', message: 'too slow' }] });
    expect(notRolledOut(stuck)).toMatch(/progress deadline exceeded: too slow/);
  });

  it('a StatefulSet needs its pods ready and its update revision current', () => {
    const sts = (status: Workload['status']): Workload => ({ kind: 'StatefulSet', metadata: { name: 's', generation: 1 }, spec: { replicas: 1 }, status: { observedGeneration: 1, ...status } });
    expect(notRolledOut(sts({ readyReplicas: 1, currentRevision: 'r1', updateRevision: 'r1' }))).toBeUndefined();
    expect(notRolledOut(sts({ readyReplicas: 0, currentRevision: 'r1', updateRevision: 'r1' }))).toBe('0 of 1 pods ready');
    expect(notRolledOut(sts({ readyReplicas: 1, currentRevision: 'r1', updateRevision: 'r2' }))).toBe('update revision not yet current');
  });

  it('pendingRollouts names each waiting workload', () => {
    expect(pendingRollouts([deployment('a', { replicas: 1, updatedReplicas: 1, availableReplicas: 1 }), deployment('b', {})])).toEqual(['ns/Deployment/b: 0 of 1 replicas updated']);
  });
});

describe('hpasBelowMin', () => {
  it('lists Deployments the HPA has not yet raised to minReplicas, and HPAs without a target', () => {
    const hpa = (target: string, minReplicas = 2) => ({ metadata: { name: target, namespace: 'ns' }, spec: { minReplicas, scaleTargetRef: { kind: 'Deployment', name: target } } });
    const workloads = [deployment('a', {}, 1), deployment('b', {}, 2)];
    expect(hpasBelowMin([hpa('a'), hpa('b'), hpa('c')], workloads)).toEqual([
      'ns/Deployment/a: 1 of at least 2 replicas (HPA)',
      'ns/HorizontalPodAutoscaler/c: its target Deployment/c does not exist',
    ]);
  });
});

describe('replica set comparison', () => {
  const rs = (name: string, owner: string, uid: string, replicas: number, revision: string) => ({
    metadata: { name, namespace: 'ns', uid, annotations: { 'deployment.kubernetes.io/revision': revision }, ownerReferences: [{ kind: 'Deployment', name: owner }] },
    spec: { replicas },
  });
  const before = replicaSetSnapshot([rs('listing-1', 'listing', 'u1', 1, '1'), rs('auth-1', 'auth', 'u2', 1, '1')]);

  it('an upgrade of one Deployment: its new ReplicaSet added, its old one scaled down, nothing else', () => {
    const after = replicaSetSnapshot([rs('listing-1', 'listing', 'u1', 0, '1'), rs('listing-2', 'listing', 'u3', 1, '2'), rs('auth-1', 'auth', 'u2', 1, '1')]);
    const changes = replicaSetChanges(before, after);
    expect(changes).toEqual([
      { key: 'ns/listing-1', owner: 'ns/listing', change: 'scaled' },
      { key: 'ns/listing-2', owner: 'ns/listing', change: 'added' },
    ]);
    expect(upgradeProblems(changes, 'ns/listing')).toEqual([]);
  });

  it('any other ReplicaSet that changed, or an upgrade that rolled nothing, is a problem', () => {
    const after = replicaSetSnapshot([rs('listing-1', 'listing', 'u1', 1, '1'), rs('auth-1', 'auth', 'u9', 1, '1')]);
    expect(upgradeProblems(replicaSetChanges(before, after), 'ns/listing')).toEqual([
      'ns/auth-1 (of ns/auth) was replaced, but only ns/listing was upgraded',
      'ns/listing got no new ReplicaSet',
      'ns/listing: its old ReplicaSet was not scaled down',
    ]);
    const removed = replicaSetChanges(before, replicaSetSnapshot([rs('listing-1', 'listing', 'u1', 1, '1')]));
    expect(removed).toEqual([{ key: 'ns/auth-1', owner: 'ns/auth', change: 'removed' }]);
  });
});

describe('warnings and refusals', () => {
  it('finds API server warnings in kubectl and helm output', () => {
    const out = [
      'NAME: listing',
      'W1126 14:51:02.123456   123 warnings.go:70] would violate PodSecurity "restricted:latest": privileged',
      'Warning: spec.template: deprecated',
      'STATUS: deployed',
    ].join('\n');
    expect(warningLines(out)).toHaveLength(2);
    expect(warningLines('NAME: listing\nSTATUS: deployed')).toEqual([]);
  });

  it('lists FailedCreate events, optionally of one namespace', () => {
    const events = [
      { reason: 'FailedCreate', message: 'violates PodSecurity', involvedObject: { kind: 'ReplicaSet', name: 'x-1', namespace: 'a' } },
      { reason: 'SuccessfulCreate', involvedObject: { kind: 'ReplicaSet', name: 'y-1', namespace: 'a' } },
      { reason: 'FailedCreate', message: 'quota', involvedObject: { kind: 'StatefulSet', name: 'z', namespace: 'b' } },
    ];
    expect(failedCreates(events)).toEqual(['a/ReplicaSet/x-1: violates PodSecurity', 'b/StatefulSet/z: quota']);
    expect(failedCreates(events, 'b')).toEqual(['b/StatefulSet/z: quota']);
  });
});
