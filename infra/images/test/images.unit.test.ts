import { describe, expect, it } from 'vitest';
import { baseImages, baseTag, mmdebstrapArgs, NODE_VERSION } from '../src/base.ts';
import { buildArgs, imageRef, sizeProblems } from '../src/build.ts';
import { frontendPaths, isNonRootUser, serviceEnv } from '../src/smoke.ts';

const bases = { NODE_IMAGE: 'localhost/b/node-build:t1', RUNTIME_IMAGE: 'localhost/b/node:t2', NGINX_IMAGE: 'localhost/b/nginx:t3' };
const versions = { node: NODE_VERSION, npm: '11.19.1', suite: 'bookworm' };
const after = (args: string[], flag: string) => args.flatMap((a, i) => (a === flag ? [args[i + 1]] : []));

describe('base images', () => {
  it('the Node of the images is the one the project pins', () => {
    expect(NODE_VERSION).toMatch(/^24\.\d+\.\d+$/);
  });

  it('a tag per recipe: the same recipe keeps its tag, another version or image gets another', () => {
    const [build, runtime] = baseImages;
    expect(baseTag(build!, versions)).toBe(baseTag(build!, versions));
    expect(baseTag(build!, versions)).toMatch(/^bookworm-[0-9a-f]{12}$/);
    expect(baseTag(build!, { ...versions, node: '24.0.0' })).not.toBe(baseTag(build!, versions));
    expect(baseTag(runtime!, versions)).not.toBe(baseTag(build!, versions));
  });

  it('unpacked (extract) images get extract hooks and a loader cache; minbase ones customize hooks', () => {
    const files = { node: '/n/node', npm: '/n/npm', passwd: '/p', group: '/g' };
    for (const image of baseImages) {
      const args = mmdebstrapArgs(image, '/out.tar', files);
      const hook = image.variant === 'extract' ? '--extract-hook=' : '--customize-hook=';
      expect(args.filter((a) => a.startsWith('--extract-hook=') || a.startsWith('--customize-hook=')).every((a) => a.startsWith(hook))).toBe(true);
      expect(args.some((a) => a.includes('ldconfig -r'))).toBe(image.variant === 'extract');
      expect(args.some((a) => a.includes('/n/node'))).toBe(image.node);
      expect(args.slice(-3)).toEqual(['bookworm', '/out.tar', 'http://deb.debian.org/debian']);
    }
  });
});

describe('builds', () => {
  it('a service builds from service.Dockerfile with the build and runtime bases; a frontend with nginx', () => {
    const service = buildArgs({ name: 'listing', kind: 'service' }, bases, '/etc/ssl/certs/host.pem');
    expect(after(service, '--file')).toEqual(['infra/docker/service.Dockerfile']);
    expect(after(service, '--build-arg')).toEqual(['SERVICE=listing', 'NODE_IMAGE=localhost/b/node-build:t1', 'RUNTIME_IMAGE=localhost/b/node:t2']);
    expect(after(service, '--volume')).toEqual(['/etc/ssl/certs/host.pem:/etc/ssl/certs/ca-certificates.crt:ro']);
    expect(after(service, '--tag')).toEqual([imageRef('listing')]);
    const frontend = buildArgs({ name: 'shell', kind: 'frontend' }, bases);
    expect(after(frontend, '--build-arg')).toEqual(['APP=shell', 'NODE_IMAGE=localhost/b/node-build:t1', 'NGINX_IMAGE=localhost/b/nginx:t3']);
    expect(after(frontend, '--volume')).toEqual([]);
    expect(after(frontend, '--format')).toEqual(['docker']);
  });

  it('images over their size goal are problems', () => {
    expect(
      sizeProblems([
        { deployable: { name: 'auth', kind: 'service' }, sizeMb: 249.9 },
        { deployable: { name: 'chat', kind: 'service' }, sizeMb: 250.1 },
        { deployable: { name: 'shell', kind: 'frontend' }, sizeMb: 61 },
      ]),
    ).toEqual(['chat: 250.1 MB, over the 250 MB goal for a service image', 'shell: 61.0 MB, over the 60 MB goal for a frontend image']);
  });
});

describe('runs', () => {
  it('only a named non-root USER passes', () => {
    expect(isNonRootUser('10001:10001')).toBe(true);
    expect(isNonRootUser('101')).toBe(true);
    expect(isNonRootUser('')).toBe(false);
    expect(isNonRootUser('0:0')).toBe(false);
    expect(isNonRootUser('root')).toBe(false);
  });

  it('a service gets the stores, its own NATS user and its upstreams; only auth gets the signing key', () => {
    const stores = { mongoUrl: 'mongodb://m', redisUrl: 'redis://r', natsUrlFor: (s: string) => `nats://${s}:pw@n` };
    const ports = { gateway: 1, auth: 2, listing: 3 };
    const gateway = serviceEnv('gateway', ports, stores, 'KEY');
    expect(gateway).toMatchObject({ PORT: '1', MONGODB_URL: 'mongodb://m', TRUSTED_PROXY_HOPS: '1' });
    expect(gateway.NATS_URL).toBeUndefined();
    expect(Object.values(gateway)).toContain('http://127.0.0.1:3');
    const auth = serviceEnv('auth', ports, stores, 'KEY');
    expect(auth).toMatchObject({ NATS_URL: 'nats://auth:pw@n', AUTH_JWT_PRIVATE_KEY: 'KEY', TRUSTED_PROXY_HOPS: '2' });
    expect(serviceEnv('listing', ports, stores, 'KEY').AUTH_JWT_PRIVATE_KEY).toBeUndefined();
  });

  it('the shell serves its page, a remote its manifest under /mfe/<name>/', () => {
    expect(frontendPaths('shell').map((p) => p.path)).toEqual(['/healthz', '/']);
    expect(frontendPaths('mfe-trades').map((p) => p.path)).toEqual(['/healthz', '/mfe/trades/mf-manifest.json']);
  });
});
