// Every deployable's image, from its Dockerfile (infra/docker), built with podman on the local bases.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../local/src/paths.ts';
import type { Deployable } from '../../k8s/src/checks.ts';
import type { BaseImage } from './base.ts';
import { SYSTEM_CA_BUNDLE } from './base.ts';
import { ImageError, podman, ulimits } from './podman.ts';

/** Goals of issue 26, in MB as podman counts them (10^6 bytes). */
export const SIZE_GOALS_MB = { service: 250, frontend: 60 } as const;

export const imageRef = (name: string) => `localhost/ruilplein/${name}:local`;

/**
 * `podman build` arguments of one deployable. Host networking: podman's bridge needs iptables,
 * which a CI container lacks; `caBundle`: the host's CA store over the build image's for the RUN
 * steps only (npm behind a TLS-inspecting proxy), never part of a layer.
 */
export function buildArgs(d: Deployable, bases: Record<BaseImage['arg'], string>, caBundle?: string): string[] {
  const [dockerfile, arg, images] =
    d.kind === 'service'
      ? (['infra/docker/service.Dockerfile', 'SERVICE', ['NODE_IMAGE', 'RUNTIME_IMAGE']] as const)
      : (['infra/docker/frontend.Dockerfile', 'APP', ['NODE_IMAGE', 'NGINX_IMAGE']] as const);
  return [
    'build',
    // docker format: OCI images drop the HEALTHCHECK.
    '--format', 'docker',
    '--network', 'host',
    ...ulimits,
    ...(caBundle ? ['--volume', `${caBundle}:${SYSTEM_CA_BUNDLE}:ro`] : []),
    '--file', dockerfile,
    '--build-arg', `${arg}=${d.name}`,
    ...images.flatMap((i) => ['--build-arg', `${i}=${bases[i]}`]),
    '--tag', imageRef(d.name),
    '.',
  ];
}

/** The CA bundle the host's npm trusts (its cafile, else NODE_EXTRA_CA_CERTS, else the system's). */
export function hostCaBundle(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return [env.npm_config_cafile, env.NODE_EXTRA_CA_CERTS, SYSTEM_CA_BUNDLE].find((f): f is string => !!f && existsSync(f));
}

export interface Built {
  deployable: Deployable;
  ref: string;
  seconds: number;
  sizeMb: number;
}

export async function buildImage(d: Deployable, bases: Record<BaseImage['arg'], string>, log: (line: string) => void): Promise<Built> {
  const started = performance.now();
  const r = await podman(buildArgs(d, bases, hostCaBundle()), { cwd: join(repoRoot) });
  if (!r.ok) throw new ImageError(`podman build ${d.name} failed:\n${(r.stdout + r.stderr).split('\n').slice(-40).join('\n')}`);
  const size = await podman(['image', 'inspect', '--format', '{{.Size}}', imageRef(d.name)]);
  const built = { deployable: d, ref: imageRef(d.name), seconds: (performance.now() - started) / 1000, sizeMb: Number(size.stdout.trim()) / 1e6 };
  log(`${d.name}: built ${built.ref} in ${built.seconds.toFixed(0)} s, ${built.sizeMb.toFixed(1)} MB`);
  return built;
}

/** The images over their size goal. */
export function sizeProblems(built: Array<Pick<Built, 'deployable' | 'sizeMb'>>): string[] {
  return built
    .filter((b) => b.sizeMb > SIZE_GOALS_MB[b.deployable.kind])
    .map((b) => `${b.deployable.name}: ${b.sizeMb.toFixed(1)} MB, over the ${SIZE_GOALS_MB[b.deployable.kind]} MB goal for a ${b.deployable.kind} image`);
}
