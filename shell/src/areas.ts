import { useQuery } from '@tanstack/react-query';
import { matchPath } from 'react-router-dom';
import { fullPath, type Mount, type PublishedArea, type AreaPage } from '@ruilplein/ui/area';
import { satisfies } from './versions.ts';

/** The versions of the shared singletons the shell provides, from their package.json files (packages/frontend-build). */
declare const SHARED_VERSIONS: Record<string, string>;

/** A remote as the shell knows it from `/remotes.json` and its `area.json`. */
export interface KnownArea extends PublishedArea {
  /** Its `mf-manifest.json`. */
  entry: string;
  /** What it requires that the shell does not provide (`@ruilplein/ui ^2.0.0, shell has 1.0.0`); empty when it fits. */
  mismatches: string[];
}

export interface Areas {
  areas: KnownArea[];
  /** Remotes whose `area.json` could not be read: their pages are unknown until a retry. */
  unreachable: string[];
}

/** Where each remote's manifest lives: `/remotes.json`, served with the shell and replaced per environment. */
async function remoteEntries(signal?: AbortSignal): Promise<Record<string, string>> {
  const res = await fetch('/remotes.json', { cache: 'no-cache', signal });
  if (!res.ok) throw new Error(`/remotes.json answered ${res.status}`);
  return (await res.json()) as Record<string, string>;
}

/** The shared singletons `area` requires that the shell does not provide in a fitting version. */
export function mismatchesOf(requires: Record<string, string>, provided: Record<string, string> = SHARED_VERSIONS): string[] {
  return Object.entries(requires).flatMap(([name, range]) => {
    const version = provided[name];
    if (!version) return [`${name} ${range}: the shell provides none`];
    return satisfies(version, range) ? [] : [`${name} ${range}: the shell provides ${version}`];
  });
}

/**
 * Every remote's declaration: its pages, its menu entries, what it requires. JSON only, no remote
 * code: the dashboard's sidebar and router need it, a page of the shell alone (like `/`) never asks.
 * One unreachable remote leaves the others working.
 */
export async function loadAreas(signal?: AbortSignal): Promise<Areas> {
  const entries = await remoteEntries(signal);
  const unreachable: string[] = [];
  const areas = await Promise.all(
    Object.entries(entries).map(async ([name, entry]) => {
      try {
        // Beside the manifest, wherever that is (a path here, another origin elsewhere).
        const res = await fetch(entry.replace(/[^/]*$/, 'area.json'), { cache: 'no-cache', signal });
        if (!res.ok) throw new Error(`${name}/area.json answered ${res.status}`);
        const area = (await res.json()) as PublishedArea;
        // The name in /remotes.json is the one the federation runtime registers; the build's must agree.
        if (area.name !== name) throw new Error(`/remotes.json calls ${area.name} ${name}`);
        return [{ ...area, entry, mismatches: mismatchesOf(area.requires ?? {}) }];
      } catch (err) {
        if (signal?.aborted) throw err;
        console.warn(`Onderdeel ${name} kon niet worden gelezen`, err);
        unreachable.push(name);
        return [];
      }
    }),
  );
  return { areas: areas.flat(), unreachable };
}

/** The remote and its page that serve `pathname` within `mount`, if any. */
export function pageAt(areas: readonly KnownArea[], mount: Mount, pathname: string): { area: KnownArea; page: AreaPage } | undefined {
  for (const area of areas) {
    if (area.mount !== mount) continue;
    const page = area.pages.find((candidate) => matchPath(fullPath(mount, candidate), pathname));
    if (page) return { area, page };
  }
  return undefined;
}

/**
 * The remotes' declarations for the dashboard's sidebar and router, read once per visit of the
 * member area (and again after 5 minutes, so a long-open tab learns of a newly deployed remote).
 */
export const useAreas = () => useQuery({ queryKey: ['remote-areas'], queryFn: ({ signal }) => loadAreas(signal), staleTime: 5 * 60_000, retry: 1 });
