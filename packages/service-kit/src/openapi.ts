import { ErrorBodySchema, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, type RouteDef } from '@ruilplein/contracts';
import { z } from 'zod';

type Json = Record<string, unknown>;
/** components.schemas of the document being built; a named schema (`.meta({ id })`) lands there once. */
type Components = Record<string, Json>;

/**
 * The route's schema as JSON Schema. zod puts named schemas under the schema's own `$defs` and
 * points at them with `#/$defs/X`, which inside an OpenAPI document resolves against the document's
 * root: they are hoisted into `components.schemas` and the references rewritten. An input whose
 * shape differs from the output of the same name (defaults, transforms) is `XInput`.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output', components: Components): Json {
  const { $defs, $schema: _, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json & { $defs?: Record<string, Json> };
  const names: Record<string, string> = {};
  const rewrite = <T>(value: T): T =>
    JSON.parse(JSON.stringify(value).replace(/"#\/\$defs\/([^"]+)"/g, (_m, id: string) => JSON.stringify(`#/components/schemas/${names[id] ?? id}`)));
  const defs = Object.entries($defs ?? {});
  for (const [id] of defs) names[id] = id;
  for (const [id, def] of defs) {
    const existing = components[id];
    if (existing && JSON.stringify(existing) !== JSON.stringify(rewrite(def))) names[id] = `${id}${io === 'input' ? 'Input' : 'Output'}`;
  }
  for (const [id, def] of defs) components[names[id]!] = rewrite(def);
  return rewrite(rest);
}

const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query', components: Components) {
  if (!schema) return [];
  const obj = jsonSchema(schema, 'input', components) as { properties?: Record<string, object>; required?: string[] };
  return Object.entries(obj.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (obj.required ?? []).includes(name),
    schema: s,
  }));
}

/** The header of an idempotent route (RouteDef.idempotent). */
const idempotencyKey = { name: IDEMPOTENCY_KEY_HEADER, in: 'header', required: false, schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN.source } };

const errorResponse = (description: string, components: Components) => ({
  description,
  content: { 'application/json': { schema: jsonSchema(ErrorBodySchema, 'output', components) } },
});

/** JSON, or for a form route its text fields plus each file field as binary. */
function requestContent(route: RouteDef, components: Components) {
  const schema = jsonSchema(route.body!, 'input', components);
  if (!route.form) return { 'application/json': { schema } };
  const binary = { type: 'string', format: 'binary' };
  const files = Object.entries(route.form.files).map(([name, f]) => [name, (f.maxCount ?? 1) > 1 ? { type: 'array', items: binary, maxItems: f.maxCount } : binary]);
  return { 'multipart/form-data': { schema: { allOf: [schema, { type: 'object', properties: Object.fromEntries(files) }] } } };
}

/** OpenAPI 3.1 generated from the same route definitions the service validates with. */
export function openApiDocument(service: string, routes: readonly RouteDef[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  const components: Components = {};
  for (const route of routes) {
    const response = jsonSchema(route.response, 'output', components);
    // A bare string answer is sent as plain text (auth's reset and change-password answers).
    const mediaType = route.html ? 'text/html' : response.type === 'string' ? 'text/plain' : 'application/json';
    const responses: Record<string, unknown> = {
      // A 204 has no body (RFC 9110), so no content to declare.
      [String(route.status ?? 200)]: route.status === 204 ? { description: 'Geen inhoud' } : { description: 'OK', content: { [mediaType]: { schema: response } } },
    };
    if (route.params || route.query || route.body) responses['400'] = errorResponse('Ongeldige invoer', components);
    if (route.access !== 'public') responses['401'] = errorResponse('Niet ingelogd', components);
    if (route.access === 'admin' || route.caller) responses['403'] = errorResponse(route.access === 'admin' ? 'Geen beheerder' : 'Niet namens jezelf', components);
    (paths[toOpenApiPath(route.path)] ??= {})[route.method] = {
      summary: route.summary,
      ...(route.access !== 'public' && { security: [{ bearer: [] }] }),
      parameters: [...parameters(route.params, 'path', components), ...parameters(route.query, 'query', components), ...(route.idempotent ? [idempotencyKey] : [])],
      ...(route.body && { requestBody: { required: true, content: requestContent(route, components) } }),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: `Ruilplein ${service}`, version: '1.0.0' },
    components: { schemas: components, securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    paths,
  };
}
