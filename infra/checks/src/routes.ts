// The routes the generated checks cover, read from the contracts: a route is checked the day it is
// declared, and a declared route its running service does not serve is a failure.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { routesOf, services, type RouteDef } from '@ruilplein/contracts';
import { repoRoot } from '@ruilplein/local';
import { z } from 'zod';

/** Every HTTP route the registry declares, service by service. */
export const declaredRoutes = (): readonly RouteDef[] => services.flatMap((s) => routesOf(s.name));

/** `METHOD path`, the key of the fixture table and of every report line. */
export const routeKey = (route: Pick<RouteDef, 'method' | 'path'>) => `${route.method.toUpperCase()} ${route.path}`;

/**
 * The services the local platform starts (infra/local/src/platform.ts starts every services/<name>
 * with a src/main.ts): only their routes can be called; the others are listed as skipped.
 */
export const serviceIsBuilt = (service: string) => existsSync(join(repoRoot, 'services', service, 'src', 'main.ts'));

export const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** What one call sends; path parameters fill the route's `:name`s. */
export interface RequestInput {
  params?: Record<string, string>;
  query?: Record<string, string | string[]>;
  body?: unknown;
}

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
};

/** Strings that satisfy most patterns the contracts use (ids are 24 hex digits, MongoDB's). */
const CANDIDATE_STRINGS = ['000000000000000000000000', 'Voorbeeld', 'a', '1', 'lid@voorbeeld.nl', 'x'];

function sampleString(s: JsonSchema): string {
  if (s.format === 'email') return 'lid@voorbeeld.nl';
  if (s.format === 'date-time') return new Date().toISOString();
  if (s.format === 'uri' || s.format === 'url') return 'https://voorbeeld.nl/';
  const fits = (v: string) =>
    (!s.pattern || new RegExp(s.pattern, 'u').test(v)) && v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity);
  return CANDIDATE_STRINGS.find(fits) ?? 'x'.repeat(Math.max(1, s.minLength ?? 1));
}

/** A small value its JSON schema accepts: required properties only, the lowest numbers. */
export function sampleFromJsonSchema(s: JsonSchema): unknown {
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  if (s.enum?.length) return s.enum[0];
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives?.length) return sampleFromJsonSchema(alternatives.find((a) => a.type !== 'null') ?? alternatives[0]!);
  if (s.allOf?.length) return Object.assign({}, ...s.allOf.map((part) => sampleFromJsonSchema(part)));
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      return sampleString(s);
    case 'integer':
    case 'number':
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sampleFromJsonSchema(s.items ?? {}));
    case 'object':
    case undefined:
      if (!s.properties) return type ? {} : 'x';
      return Object.fromEntries((s.required ?? []).map((name) => [name, sampleFromJsonSchema(s.properties![name] ?? {})]));
    default:
      return 'x';
  }
}

const inputSample = (schema: z.ZodType) =>
  sampleFromJsonSchema(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonSchema);

/**
 * Inputs made from the route's schemas, for a route without a fixture: params and query as
 * strings, the body as the schema's smallest value. Where nothing fits the answer is a 400, which
 * still tells an allowed call from a refused one. Throws when a schema cannot be sampled.
 */
export function dummyInput(route: RouteDef): RequestInput {
  const asStrings = (value: unknown) =>
    Object.fromEntries(Object.entries((value ?? {}) as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  const input: RequestInput = {};
  if (route.params) input.params = asStrings(inputSample(route.params));
  for (const name of route.path.matchAll(/:(\w+)/g)) (input.params ??= {})[name[1]!] ??= sampleString({});
  if (route.query) input.query = asStrings(inputSample(route.query));
  if (route.body) input.body = inputSample(route.body);
  return input;
}

/** The route's path with its parameters filled in (percent-encoded). */
export function fillPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${path}: no value for :${name}`);
    return encodeURIComponent(value);
  });
}
