import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, ApiError } from '../src/api.ts';

// A real HTTP server answers what each test path asks for, and remembers what it was sent.
let server: Server;
let base: string;
let seen: { method?: string; headers: IncomingHttpHeaders; body: string } | undefined;

const answers: Record<string, [status: number, type: string | null, body: string]> = {
  '/ok': [200, 'application/json', '[{"id":"boeken"}]'],
  '/empty': [204, null, ''],
  '/json-error': [409, 'application/json; charset=utf-8', '{"message":"Je account is nog niet geactiveerd.","activationAvailable":true}'],
  '/text-error': [400, 'text/plain; charset=utf-8', 'Token is verlopen.\n'],
  '/html-error': [502, 'text/html', '<html><body>Bad Gateway</body></html>'],
  '/bare-401': [401, null, ''],
  '/bare-500': [500, null, ''],
  '/json-without-message': [403, 'application/json', '{"error":"forbidden"}'],
  '/broken-json': [200, 'application/json', '{"id":'],
  '/text-ok': [200, 'text/plain; charset=utf-8', 'Als dit adres bij ons bekend is, is er een resetlink verstuurd.'],
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen = { method: req.method, headers: req.headers, body };
      const [status, type, text] = answers[req.url ?? ''] ?? [404, null, ''];
      res.writeHead(status, type ? { 'content-type': type } : {}).end(text);
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

async function failure(path: string): Promise<ApiError> {
  const err = await api(`${base}${path}`).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('api', () => {
  it('returns the parsed JSON answer', async () => {
    await expect(api(`${base}/ok`)).resolves.toEqual([{ id: 'boeken' }]);
    expect(seen?.method).toBe('GET');
    expect(seen?.headers.authorization).toBeUndefined();
  });

  it('sends the token as a bearer and a body as JSON', async () => {
    await api(`${base}/ok`, { method: 'POST', token: 'abc.def', body: { title: 'Fiets' } });
    expect(seen?.method).toBe('POST');
    expect(seen?.headers.authorization).toBe('Bearer abc.def');
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen?.body ?? '')).toEqual({ title: 'Fiets' });
  });

  it('answers undefined for an empty body', async () => {
    await expect(api(`${base}/empty`, { method: 'DELETE' })).resolves.toBeUndefined();
  });

  it("takes the message of a {message} error body", async () => {
    const err = await failure('/json-error');
    expect(err.status).toBe(409);
    expect(err.message).toBe('Je account is nog niet geactiveerd.');
    expect(err.body).toEqual({ message: 'Je account is nog niet geactiveerd.', activationAvailable: true });
  });

  it('returns the text of a plain-text answer', async () => {
    await expect(api(`${base}/text-ok`, { method: 'POST', body: 'jan@example.nl' })).resolves.toBe('Als dit adres bij ons bekend is, is er een resetlink verstuurd.');
    // A bare string body goes as a JSON string (the spec's reset and resend calls).
    expect(seen?.body).toBe('"jan@example.nl"');
  });

  it('takes a plain-text error body as the message', async () => {
    const err = await failure('/text-error');
    expect(err).toMatchObject({ status: 400, message: 'Token is verlopen.', body: undefined });
  });

  it.each([
    ['/html-error', 502, 'Er ging iets mis. Probeer het later opnieuw.'],
    ['/bare-401', 401, 'Niet geautoriseerd. Log opnieuw in.'],
    ['/bare-500', 500, 'Er ging iets mis. Probeer het later opnieuw.'],
    ['/json-without-message', 403, 'Je hebt hier geen toegang toe.'],
    ['/nothing-here', 404, 'Niet gevonden.'],
  ])('gives %s without a usable message a Dutch one by status', async (path, status, message) => {
    expect(await failure(path)).toMatchObject({ status, message });
  });

  it('says so when a success body is not JSON', async () => {
    expect(await failure('/broken-json')).toMatchObject({ status: 200, message: 'Onverwacht antwoord van de server.' });
  });

  it('reports an unreachable server in Dutch, with status 0', async () => {
    const closed = createServer();
    await new Promise<void>((listening) => closed.listen(0, '127.0.0.1', listening));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((done) => closed.close(() => done()));
    const err = await api(`http://127.0.0.1:${port}/api/category`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 0, message: 'Geen verbinding met de server.' });
  });

  it('lets an aborted call reject as aborted, not as a connection failure', async () => {
    const abort = new AbortController();
    abort.abort();
    await expect(api(`${base}/ok`, { signal: abort.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
