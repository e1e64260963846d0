import { defineRoute } from '@ruilplein/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, type UploadedFile } from '../src/index.ts';
import { body as json, createTestIssuer, listen, silentLogger, type TestIssuer } from '../src/testing.ts';

const KB = 1024;
const routes = {
  upload: defineRoute({
    service: 'listing',
    method: 'post',
    path: '/upload',
    summary: 'upload',
    access: 'public',
    form: {
      files: {
        photo: { maxBytes: 10 * KB, tooLarge: 'De foto mag niet groter zijn dan 10 kB.' },
        extra: { maxBytes: 10 * KB, maxCount: 2, tooLarge: 'Te groot.' },
      },
    },
    body: z.object({
      name: z.string({ error: 'Naam is verplicht.' }).trim().min(1, 'Naam is verplicht.'),
      tags: z.union([z.string(), z.array(z.string())]).optional(),
    }),
    response: z.object({}).passthrough(),
  }),
  single: defineRoute({
    service: 'listing',
    method: 'post',
    path: '/single',
    summary: 'one file field',
    access: 'user',
    form: { files: { photo: { maxBytes: 10 * KB, tooLarge: 'De foto mag niet groter zijn dan 10 kB.' } } },
    body: z.object({}),
    response: z.object({ files: z.number() }),
  }),
  // Two names for one set of files, limited together.
  pair: defineRoute({
    service: 'listing',
    method: 'post',
    path: '/pair',
    summary: 'two fields, one total',
    access: 'public',
    form: {
      files: { images: { maxBytes: 10 * KB, maxCount: 3, tooLarge: 'Samen te groot.' }, Images: { maxBytes: 10 * KB, maxCount: 3, tooLarge: 'Samen te groot.' } },
      total: { maxBytes: 10 * KB, maxCount: 3, tooLarge: 'Samen te groot.', tooMany: 'Hoogstens 3.' },
    },
    body: z.object({}),
    response: z.object({ files: z.number() }),
  }),
};

let issuer: TestIssuer;
let server: Awaited<ReturnType<typeof listen>>;
const summary = (f: UploadedFile) => ({ filename: f.filename, declaredType: f.declaredType, size: f.size, text: f.data.toString() });

beforeAll(async () => {
  issuer = await createTestIssuer();
  const app = createApp({
    service: 'test',
    logger: silentLogger(),
    verifyToken: issuer.verifyToken,
    routes: { test: routes },
    handlers: {
      test: {
        upload: ({ body, files }) => ({
          body,
          files: Object.fromEntries(Object.entries(files).map(([k, list]) => [k, list.map(summary)])),
        }),
        single: ({ files }) => ({ files: Object.keys(files).length }),
        pair: ({ files }) => ({ files: Object.values(files).flat().length }),
      },
    },
  });
  server = await listen(app);
});
afterAll(async () => {
  await server.close();
  await issuer.close();
});

const send = (path: string, form: FormData | string, headers: Record<string, string> = {}) =>
  fetch(server.url + path, { method: 'POST', body: form, headers });
const formOf = (entries: [string, string | Blob, string?][]) => {
  const form = new FormData();
  for (const [k, v, name] of entries) {
    if (typeof v === 'string') form.append(k, v);
    else form.append(k, v, name);
  }
  return form;
};

describe('form routes', () => {
  it('validates the text fields with the body schema and hands over the files', async () => {
    const res = await send(
      '/upload',
      formOf([
        ['name', '  fiets  '],
        ['tags', 'a'],
        ['tags', 'b'],
        ['photo', new Blob(['png?'], { type: 'image/png' }), 'foto.png'],
        ['extra', new Blob(['1']), 'een.txt'],
        ['extra', new Blob(['2']), 'twee.txt'],
      ]),
    );
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      body: { name: 'fiets', tags: ['a', 'b'] },
      files: {
        photo: [{ filename: 'foto.png', declaredType: 'image/png', size: 4, text: 'png?' }],
        extra: [
          { filename: 'een.txt', declaredType: 'application/octet-stream', size: 1, text: '1' },
          { filename: 'twee.txt', declaredType: 'application/octet-stream', size: 1, text: '2' },
        ],
      },
    });
  });

  it('accepts urlencoded forms and ignores the empty part of a file input left empty', async () => {
    const encoded = await send('/upload', 'name=boek', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(await json(encoded)).toEqual({ body: { name: 'boek' }, files: {} });
    const empty = await send('/upload', formOf([['name', 'boek'], ['photo', new Blob([]), '']]));
    expect(await json(empty)).toEqual({ body: { name: 'boek' }, files: {} });
  });

  it('answers a single wrong field with its own message', async () => {
    const res = await send('/upload', formOf([['name', '   ']]));
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: 'Naam is verplicht.', errors: [{ path: 'body.name', message: 'Naam is verplicht.' }] });
    const missing = await json(await send('/upload', formOf([['tags', 'x']])));
    expect(missing.message).toBe('Naam is verplicht.');
  });

  it('refuses a file over its limit with the route message, also when the body is far over', async () => {
    const over = await send('/upload', formOf([['name', 'x'], ['photo', new Blob([Buffer.alloc(10 * KB + 1)]), 'a.png']]));
    expect(over.status).toBe(400);
    expect(await json(over)).toEqual({
      message: 'De foto mag niet groter zijn dan 10 kB.',
      errors: [{ path: 'files.photo', message: 'De foto mag niet groter zijn dan 10 kB.' }],
    });
    // Far beyond every declared file: read to the end, answered with the one file field's message.
    const huge = await send('/single', formOf([['photo', new Blob([Buffer.alloc(150 * KB)]), 'a.png']]), {
      authorization: `Bearer ${await issuer.sign({ sub: 'u1' })}`,
    });
    expect(huge.status).toBe(400);
    expect((await json(huge)).message).toBe('De foto mag niet groter zijn dan 10 kB.');
  });

  it('refuses too many files, undeclared file fields, non-forms and malformed multipart with 400', async () => {
    const three = formOf([['name', 'x'], ...[1, 2, 3].map((i): [string, Blob, string] => ['extra', new Blob([String(i)]), `${i}.txt`])]);
    const tooMany = await send('/upload', three);
    expect(tooMany.status).toBe(400);
    expect((await json(tooMany)).message).toBe('Er zijn te veel bestanden meegestuurd.');

    const undeclared = await send('/upload', formOf([['name', 'x'], ['other', new Blob(['x']), 'x.bin']]));
    expect(undeclared.status).toBe(400);
    expect((await json(undeclared)).errors).toEqual([{ path: 'files.other', message: 'Dit veld verwacht geen bestand.' }]);

    const asJson = await send('/upload', JSON.stringify({ name: 'x' }), { 'content-type': 'application/json' });
    expect(asJson.status).toBe(400);
    expect(await json(asJson)).toEqual({ message: 'De invoer is geen geldig formulier.' });

    const broken = await send('/upload', '--zz\r\nContent-Disposition: form-data; name="name"\r\n\r\nx', {
      'content-type': 'multipart/form-data; boundary=zz',
    });
    expect(broken.status).toBe(400);
    expect(await json(broken)).toEqual({ message: 'De invoer is geen geldig formulier.' });
  });

  it('limits the files of all fields together when the route declares a total', async () => {
    const file = (field: string, size: number, name: string): [string, Blob, string] => [field, new Blob([Buffer.alloc(size)]), name];
    const fits = await send('/pair', formOf([file('images', 3 * KB, 'a'), file('Images', 3 * KB, 'b'), file('images', 3 * KB, 'c')]));
    expect(await json(fits)).toEqual({ files: 3 });
    const four = await send('/pair', formOf([file('images', 1, 'a'), file('Images', 1, 'b'), file('images', 1, 'c'), file('Images', 1, 'd')]));
    expect(four.status).toBe(400);
    expect((await json(four)).message).toBe('Hoogstens 3.');
    const together = await send('/pair', formOf([file('images', 6 * KB, 'a'), file('Images', 6 * KB, 'b')]));
    expect(together.status).toBe(400);
    expect((await json(together)).message).toBe('Samen te groot.');
    // Far over the total (not the sum of the fields' own limits): read to the end, not kept.
    const huge = await send('/pair', formOf([file('images', 200 * KB, 'a')]));
    expect(huge.status).toBe(400);
    expect((await json(huge)).message).toBe('Samen te groot.');
  });

  it('checks the token before reading the form', async () => {
    const res = await send('/single', formOf([['photo', new Blob(['x']), 'a.png']]));
    expect(res.status).toBe(401);
  });

  it('documents form routes as multipart with binary file fields', async () => {
    const doc = await json(await fetch(`${server.url}/openapi.json`));
    const [fields, files] = doc.paths['/upload'].post.requestBody.content['multipart/form-data'].schema.allOf;
    expect(fields.properties.name.type).toBe('string');
    expect(fields.required).toEqual(['name']);
    expect(files.properties.photo).toEqual({ type: 'string', format: 'binary' });
    expect(files.properties.extra).toEqual({ type: 'array', items: { type: 'string', format: 'binary' }, maxItems: 2 });
  });
});
