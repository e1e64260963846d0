import type { RouteDef } from '@ruilplein/contracts';
import type { Request } from 'express';
import { badRequest, MESSAGES } from './errors.ts';

/** A file of a form body, held in memory (form routes declare how large it may be). */
export interface UploadedFile {
  /** Name and type as the client declared them: never trust them for what the content is. */
  filename: string;
  declaredType: string;
  size: number;
  data: Buffer;
}

export interface ParsedForm {
  fields: Record<string, string | string[]>;
  files: Record<string, UploadedFile[]>;
}

/**
 * When each form's body had fully arrived (performance.now()). A gateway's wait for the answer is
 * refreshed while the body is still being sent, so this is where a handler's time budget starts
 * (listing photos: LISTING_PHOTO_BUDGET_MS), not when the upload began.
 */
const receivedAt = new WeakMap<Request, number>();

/** performance.now() when the request's form body had arrived; undefined for a request without one. */
export const formReceivedAt = (req: Request): number | undefined => receivedAt.get(req);

/** Room for the text fields next to the declared files. */
const FIELDS_ALLOWANCE = 64 * 1024;
const FORM_TYPES = /^(multipart\/form-data|application\/x-www-form-urlencoded)\s*(;|$)/i;

/**
 * Reads a form body within the route's limits and parses it with the platform's own FormData
 * parser. A body beyond the sum of the declared file sizes is read to its end but not kept, so the
 * client still gets the answer instead of a reset connection.
 */
export async function readForm(req: Request, form: NonNullable<RouteDef['form']>): Promise<ParsedForm> {
  const type = req.headers['content-type'] ?? '';
  if (!FORM_TYPES.test(type)) throw badRequest(MESSAGES.notAForm);
  const declared = Object.entries(form.files);
  const { total } = form;
  const cap = FIELDS_ALLOWANCE + (total?.maxBytes ?? declared.reduce((sum, [, f]) => sum + f.maxBytes * (f.maxCount ?? 1), 0));
  const raw = await readCapped(req, cap);
  receivedAt.set(req, performance.now());
  if (!raw) {
    // Only a file can make a form that large; with one file field (or a total), say which limit it broke.
    throw badRequest(total?.tooLarge ?? (declared.length === 1 ? declared[0]![1].tooLarge : MESSAGES.tooLarge));
  }

  let data: FormData;
  try {
    data = await new Response(raw, { headers: { 'content-type': type } }).formData();
  } catch {
    throw badRequest(MESSAGES.notAForm);
  }

  const fields: ParsedForm['fields'] = {};
  const files: ParsedForm['files'] = {};
  let count = 0;
  let bytes = 0;
  for (const [name, value] of data) {
    if (typeof value === 'string') {
      const seen = fields[name];
      fields[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
      continue;
    }
    // A browser sends an empty, nameless part for a file input left empty.
    if (value.size === 0 && !value.name) continue;
    const def = form.files[name];
    if (!def) throw badRequest(MESSAGES.invalidInput, [{ path: `files.${name}`, message: MESSAGES.unexpectedFile }]);
    if (value.size > def.maxBytes) throw badRequest(def.tooLarge, [{ path: `files.${name}`, message: def.tooLarge }]);
    const list = (files[name] ??= []);
    const tooMany = total?.tooMany ?? MESSAGES.tooManyFiles;
    if (list.length === (def.maxCount ?? 1) || (total && count === total.maxCount)) throw badRequest(tooMany, [{ path: `files.${name}`, message: tooMany }]);
    count += 1;
    bytes += value.size;
    if (total && bytes > total.maxBytes) throw badRequest(total.tooLarge, [{ path: `files.${name}`, message: total.tooLarge }]);
    list.push({ filename: value.name, declaredType: value.type, size: value.size, data: Buffer.from(await value.arrayBuffer()) });
  }
  return { fields, files };
}

/**
 * The whole body, or undefined when it is larger than `cap`: the rest is drained, not kept, up to
 * a hard limit past which the connection is dropped (nobody honest sends that much).
 */
async function readCapped(req: Request, cap: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= cap) chunks.push(chunk);
    else if (size > cap * 4) {
      req.destroy();
      throw badRequest(MESSAGES.tooLarge);
    }
  }
  return size <= cap ? Buffer.concat(chunks) : undefined;
}
