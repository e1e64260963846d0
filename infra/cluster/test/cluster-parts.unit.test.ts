import { createServer } from 'node:net';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { admissionConfiguration } from '../src/control-plane.ts';
import { kubeconfigYaml } from '../src/pki.ts';
import { freePorts } from '../src/ports.ts';
import { makePrivileged } from '../src/privileged.ts';
import { fakeNodes } from '../src/scenario.ts';
import { kubernetesLdflags, toolKey } from '../src/tools.ts';

describe('tool keys', () => {
  it('change with the version and with every input, and name the tool', () => {
    const key = toolKey('etcd', '3.6.16', ['go.mod text', 'go.sum text']);
    expect(key).toMatch(/^etcd-3\.6\.16-[0-9a-f]{12}$/);
    expect(toolKey('etcd', '3.6.16', ['go.mod text', 'go.sum text'])).toBe(key);
    expect(toolKey('etcd', '3.6.17', ['go.mod text', 'go.sum text'])).not.toBe(key);
    expect(toolKey('etcd', '3.6.16', ['go.mod text', 'go.sum changed'])).not.toBe(key);
    // Inputs are length-prefixed: moving text between two inputs is a different key.
    expect(toolKey('etcd', '3.6.16', ['go.mod tex', 't go.sum text'])).not.toBe(key);
    expect(toolKey('kwok', 'v0.8.0', [])).toMatch(/^kwok-0\.8\.0-/);
  });

  it('the Kubernetes binaries report their version', () => {
    const flags = kubernetesLdflags('1.34.4');
    expect(flags).toContain('-X k8s.io/component-base/version.gitVersion=v1.34.4');
    expect(flags).toContain('-X k8s.io/client-go/pkg/version.gitMinor=34');
  });
});

describe('freePorts', () => {
  it('returns distinct ports that can be listened on', async () => {
    const ports = await freePorts(5);
    expect(new Set(ports).size).toBe(5);
    for (const port of ports) {
      const server = createServer();
      await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('manifests of the run', () => {
  it('Pod Security restricted is the default for every namespace, with no exemptions', () => {
    const config = parse(admissionConfiguration);
    const psa = config.plugins.find((p: { name: string }) => p.name === 'PodSecurity').configuration;
    expect(psa.defaults).toMatchObject({ enforce: 'restricted', warn: 'restricted', audit: 'restricted' });
    expect(Object.values(psa.exemptions).flat()).toEqual([]);
  });

  it('fake nodes carry the annotation kwok selects', () => {
    const nodes = parseAllDocuments(fakeNodes(3)).map((d) => d.toJS());
    expect(nodes.map((n) => n.metadata.name)).toEqual(['kwok-node-0', 'kwok-node-1', 'kwok-node-2']);
    for (const n of nodes) expect(n.metadata.annotations['kwok.x-k8s.io/node']).toBe('fake');
  });

  it('a kubeconfig embeds the certificates and points at the server', () => {
    const config = parse(kubeconfigYaml('https://127.0.0.1:40001', 'admin', 'CA', 'CERT', 'KEY'));
    expect(config.clusters[0].cluster).toEqual({ server: 'https://127.0.0.1:40001', 'certificate-authority-data': Buffer.from('CA').toString('base64') });
    expect(Buffer.from(config.users[0].user['client-key-data'], 'base64').toString()).toBe('KEY');
    expect(config['current-context']).toBe('local');
  });

  it('the post-renderer makes every container privileged and leaves other objects alone', () => {
    const input = [
      'apiVersion: v1\nkind: Service\nmetadata: {name: listing}',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: listing}\nspec:\n  template:\n    spec:\n      containers:\n        - name: listing\n          securityContext: {allowPrivilegeEscalation: false, runAsNonRoot: true}',
    ].join('\n---\n');
    const [service, deployment] = parseAllDocuments(makePrivileged(input)).map((d) => d.toJS());
    expect(service).toEqual({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'listing' } });
    expect(deployment.spec.template.spec.containers[0].securityContext).toEqual({ allowPrivilegeEscalation: true, runAsNonRoot: true, privileged: true });
  });
});
