import { ErrorBodySchema, type RouteDef } from '@ruilplein/contracts';
import { z } from 'zod';

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });

const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const obj = jsonSchema(schema, 'input') as { properties?: Record<string, object>; required?: string[] };
  return Object.entries(obj.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (obj.required ?? []).includes(name),
    schema: s,
  }));
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: jsonSchema(ErrorBodySchema, 'output') } },
});

/** JSON, or for a form route its text fields plus each file field as binary. */
function requestContent(route: RouteDef) {
  const schema = jsonSchema(route.body!, 'input');
  if (!route.form) return { 'application/json': { schema } };
  const binary = { type: 'string', format: 'binary' };
  const files = Object.entries(route.form.files).map(([name, f]) => [name, (f.maxCount ?? 1) > 1 ? { type: 'array', items: binary, maxItems: f.maxCount } : binary]);
  return { 'multipart/form-data': { schema: { allOf: [schema, { type: 'object', properties: Object.fromEntries(files) }] } } };
}

/** OpenAPI 3.1 generated from the same route definitions the service validates with. */
export function openApiDocument(service: string, routes: readonly RouteDef[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const responses: Record<string, unknown> = {
      [String(route.status ?? 200)]: {
        description: 'OK',
        content: { 'application/json': { schema: jsonSchema(route.response, 'output') } },
      },
    };
    if (route.params || route.query || route.body) responses['400'] = errorResponse('Ongeldige invoer');
    if (route.access !== 'public') responses['401'] = errorResponse('Niet ingelogd');
    if (route.access === 'admin') responses['403'] = errorResponse('Geen beheerder');
    (paths[toOpenApiPath(route.path)] ??= {})[route.method] = {
      summary: route.summary,
      ...(route.access !== 'public' && { security: [{ bearer: [] }] }),
      parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
      ...(route.body && { requestBody: { required: true, content: requestContent(route) } }),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: `Ruilplein ${service}`, version: '1.0.0' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    paths,
  };
}
