// A throw-away PKI (openssl) and kubeconfigs for a loopback-only API server.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const openssl = (args: string[], cwd: string) => exec('openssl', args, { cwd });

/** Client identities: the admin (system:masters) and the two control-plane components (their RBAC is built in). */
const clients = [
  { name: 'admin', subject: '/O=system:masters/CN=admin' },
  { name: 'kube-controller-manager', subject: '/CN=system:kube-controller-manager' },
  { name: 'kube-scheduler', subject: '/CN=system:kube-scheduler' },
] as const;
export type ClientName = (typeof clients)[number]['name'];

export interface Pki {
  dir: string;
  ca: { cert: string; key: string };
  apiserver: { cert: string; key: string };
  serviceAccount: { key: string; pub: string };
  kubeconfig: Record<ClientName, string>;
}

/** A kubeconfig with the certificates embedded (so nothing else reads the PKI folder). */
export function kubeconfigYaml(server: string, user: string, ca: string, cert: string, key: string): string {
  const b64 = (pem: string) => Buffer.from(pem).toString('base64');
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: local`,
    `  cluster: {server: "${server}", certificate-authority-data: ${b64(ca)}}`,
    'users:',
    `- name: ${user}`,
    `  user: {client-certificate-data: ${b64(cert)}, client-key-data: ${b64(key)}}`,
    'contexts:',
    `- name: local`,
    `  context: {cluster: local, user: ${user}}`,
    'current-context: local',
    '',
  ].join('\n');
}

export async function makePki(dir: string, apiserverPort: number): Promise<Pki> {
  const days = ['-days', '2'];
  // EC keys: generating them takes milliseconds, RSA-2048 a noticeable part of a second each.
  const key = (file: string) => openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', file], dir);
  await key('ca.key');
  await openssl(['req', '-x509', '-new', '-key', 'ca.key', '-out', 'ca.crt', ...days, '-subj', '/CN=ruilplein-local-ca'], dir);
  const sign = async (name: string, subject: string, ext: string) => {
    await key(`${name}.key`);
    await openssl(['req', '-new', '-key', `${name}.key`, '-out', `${name}.csr`, '-subj', subject], dir);
    writeFileSync(join(dir, `${name}.ext`), ext);
    // A random serial per certificate: -CAcreateserial would share one serial file between the parallel signings.
    const serial = `0x${randomBytes(8).toString('hex')}`;
    await openssl(['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-set_serial', serial, '-out', `${name}.crt`, ...days, '-extfile', `${name}.ext`], dir);
  };
  const sans = 'IP:127.0.0.1,IP:10.96.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc';
  await Promise.all([
    sign('apiserver', '/CN=kube-apiserver', `subjectAltName=${sans}\nextendedKeyUsage=serverAuth\n`),
    ...clients.map((c) => sign(c.name, c.subject, 'extendedKeyUsage=clientAuth\n')),
    // Service account tokens are signed with RSA (the default the components expect).
    openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'sa.key'], dir).then(() => openssl(['pkey', '-in', 'sa.key', '-pubout', '-out', 'sa.pub'], dir)),
  ]);
  const read = (f: string) => readFileSync(join(dir, f), 'utf8');
  const server = `https://127.0.0.1:${apiserverPort}`;
  const kubeconfig = {} as Record<ClientName, string>;
  for (const c of clients) {
    kubeconfig[c.name] = join(dir, `${c.name}.kubeconfig`);
    writeFileSync(kubeconfig[c.name], kubeconfigYaml(server, c.name, read('ca.crt'), read(`${c.name}.crt`), read(`${c.name}.key`)), { mode: 0o600 });
  }
  return {
    dir,
    ca: { cert: join(dir, 'ca.crt'), key: join(dir, 'ca.key') },
    apiserver: { cert: join(dir, 'apiserver.crt'), key: join(dir, 'apiserver.key') },
    serviceAccount: { key: join(dir, 'sa.key'), pub: join(dir, 'sa.pub') },
    kubeconfig,
  };
}
