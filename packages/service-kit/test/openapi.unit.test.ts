import { defineRoute } from '@ruilplein/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openApiDocument } from '../src/openapi.ts';

const Person = z.object({ name: z.string(), age: z.coerce.number().default(0) }).meta({ id: 'TestPerson' });
const routes = [
  defineRoute({ service: 'auth', method: 'post', path: '/api/auth/people', summary: 's', access: 'public', body: Person, response: z.object({ person: Person }) }),
  defineRoute({ service: 'auth', method: 'get', path: '/api/auth/text', summary: 's', access: 'user', response: z.string() }),
];

describe('the generated OpenAPI document', () => {
  const doc = openApiDocument('auth', routes) as unknown as {
    components: { schemas: Record<string, unknown> };
    paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> }; responses: Record<string, { content: Record<string, unknown> }> }>>;
  };

  // `#/$defs/X` inside an OpenAPI document points at the document's root, where nothing is.
  it('keeps named schemas in components.schemas, and every reference resolves', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toContain('$defs');
    const refs = [...text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const name of refs) expect(doc.components.schemas, name).toHaveProperty(name);
  });

  it('names an input that differs from the output of the same schema apart', () => {
    expect(doc.components.schemas.TestPerson).toMatchObject({ required: ['name', 'age'] });
    expect(doc.components.schemas.TestPersonInput).toMatchObject({ required: ['name'] });
    expect(doc.paths['/api/auth/people']!.post!.requestBody!.content['application/json']!.schema).toEqual({ $ref: '#/components/schemas/TestPersonInput' });
  });

  it('documents a bare string answer as plain text', () => {
    expect(Object.keys(doc.paths['/api/auth/text']!.get!.responses['200']!.content)).toEqual(['text/plain']);
  });
});
