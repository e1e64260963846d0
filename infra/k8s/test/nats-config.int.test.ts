// The umbrella chart's in-cluster NATS configuration: rendered from files/nats-users.json (the
// registry's users and rights), it must be one nats-server accepts, with those rights.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { natsUsers, services } from '@ruilplein/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingTools, prepareCharts, render, repoRoot, umbrella, type K8sObject } from '../src/checks.ts';

let helmDir = '';
let tmp = '';
beforeAll(async () => {
  const missing = missingTools();
  if (missing) throw new Error(missing);
  helmDir = (await prepareCharts()).dir;
  tmp = await mkdtemp(join(tmpdir(), 'ruilplein-nats-conf-'));
}, 60_000);
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('the in-cluster NATS', () => {
  it('gets a configuration nats-server accepts, with a user and the registry’s rights for every service', async () => {
    const r = await render(join(helmDir, umbrella), [join(helmDir, umbrella, 'values.yaml')]);
    expect(r.problems).toEqual([]);
    const configMap = r.objects.find((o: K8sObject) => o.kind === 'ConfigMap' && o.metadata?.name === 'nats-config') as { data: Record<string, string> } | undefined;
    const conf = configMap?.data['nats.conf'];
    expect(conf).toBeDefined();
    const secret = r.objects.find((o: K8sObject) => o.kind === 'Secret' && o.metadata?.name === 'ruilplein-nats-users') as { data: Record<string, string> } | undefined;
    expect(Object.keys(secret?.data ?? {}).sort()).toEqual(['ruilplein-admin', ...services.map((s) => s.name)].sort());

    for (const { user, permissions } of natsUsers(services)) {
      expect(conf, user).toContain(`publish: { allow: [${permissions.publish.allow.map((s) => JSON.stringify(s)).join(', ')}] }`);
    }
    expect(conf).not.toContain('$JS.API.>');

    // As the pod runs it: passwords from the Secret in PASSWORD_<USER>.
    const file = join(tmp, 'nats.conf');
    await writeFile(file, conf!);
    const env = Object.fromEntries(Object.keys(secret!.data).map((u) => [`PASSWORD_${u.toUpperCase().replace(/-/g, '_')}`, 'secret']));
    const checked = await promisify(execFile)(join(repoRoot, '.tools', 'bin', 'nats-server'), ['-t', '-c', file], { env: { ...env, PATH: process.env.PATH } }).then(
      (out) => `${out.stdout}${out.stderr}`,
      (err: { stdout?: string; stderr?: string }) => `FAILED ${err.stdout ?? ''}${err.stderr ?? ''}`,
    );
    expect(checked).not.toMatch(/FAILED|error/i);
  });
});
