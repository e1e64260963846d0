// The fuzzing must be able to fail: schemathesis through fuzzService against a server that answers
// one operation with a 500 and another outside its declared schema.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fuzzService } from '../src/fuzz.ts';

const answer = { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] };
const doc = {
  openapi: '3.1.0',
  info: { title: 'broken', version: '1' },
  paths: {
    '/boom': { get: { responses: { '200': { description: 'OK', content: { 'application/json': { schema: answer } } } } } },
    '/wrong': { get: { responses: { '200': { description: 'OK', content: { 'application/json': { schema: answer } } } } } },
  },
};

const server = createServer((req, res) => {
  const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (req.url === '/openapi.json') return send(200, doc);
  if (req.url === '/boom') return send(500, { message: 'kapot' });
  if (req.url === '/wrong') return send(200, { count: 'veel' });
  send(404, { message: 'niet gevonden' });
});
let url: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

it('fails on a 5xx and on an answer outside its schema, and says where', async () => {
  const result = await fuzzService({ service: 'broken', schemaUrl: `${url}/openapi.json`, baseUrl: url, token: 'x', lastOperations: [] });
  expect(result.ok).toBe(false);
  expect(result.calls).toBeGreaterThan(0);
  expect(result.output).toContain('GET /boom');
  expect(result.output).toContain('GET /wrong');
}, 60_000);
