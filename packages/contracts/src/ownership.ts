// Which service owns a path: the registry's prefix patterns, compiled. Zod-free and pure, so the
// gateway, the local edge and the registry test all read the same rules.

/**
 * A prefix pattern: `/x/*` is `/x` and everything below it, `/x*` every path that starts with `/x`
 * (`/api/listing`, `/api/listings`, `/api/listing/5`), a bare `/x` that path alone (a trailing
 * slash allowed, as express allows it). Matched case-insensitively, as express matches routes.
 */
export type PrefixPattern = string;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function prefixRegExp(pattern: PrefixPattern): RegExp {
  if (pattern.endsWith('/*')) return new RegExp(`^${escape(pattern.slice(0, -2))}(?:/.*)?$`, 'i');
  if (pattern.endsWith('*')) return new RegExp(`^${escape(pattern.slice(0, -1))}`, 'i');
  return new RegExp(`^${escape(pattern)}/?$`, 'i');
}

/** The path without its wildcard: the shortest path the pattern matches. */
const base = (pattern: PrefixPattern) => pattern.replace(/\/?\*$/, '') || '/';

/**
 * Whether some path matches both patterns. Every overlap has a witness among the bases of the two
 * patterns and those bases followed by `/`, `/x` or `x`, so trying these is exact.
 */
export function prefixesOverlap(a: PrefixPattern, b: PrefixPattern): boolean {
  const ra = prefixRegExp(a);
  const rb = prefixRegExp(b);
  const witnesses = [base(a), base(b)].flatMap((p) => [p, `${p}/`, `${p}/x`, `${p}x`]);
  return witnesses.some((w) => ra.test(w) && rb.test(w));
}

/** `find(path)`: the owner of a path (without query string), or undefined when nobody owns it. */
export function ownerMatcher<S extends string>(table: Readonly<Record<S, readonly PrefixPattern[]>>): (path: string) => S | undefined {
  const compiled = (Object.entries(table) as [S, readonly PrefixPattern[]][]).flatMap(([service, patterns]) =>
    patterns.map((p) => ({ service, regex: prefixRegExp(p) })),
  );
  return (path) => compiled.find((entry) => entry.regex.test(path))?.service;
}

/**
 * A path that an express route pattern matches: each `:param` filled with `x1`, each `*name`
 * wildcard with `x1/x2`; optional `{…}` groups taken. Checks that a route lies under its prefixes.
 */
export const examplePath = (routePath: string): string =>
  routePath
    .replace(/[{}]/g, '')
    .replace(/\*\w+/g, 'x1/x2')
    .replace(/:\w+/g, 'x1');
