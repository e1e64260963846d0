// Schema fuzzing with schemathesis (PyPI, installed into .tools/venv by `npm run bootstrap`): each
// service's generated OpenAPI document, requests through the edge, a bounded number of cases.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RouteDef } from '@ruilplein/contracts';
import { repoRoot } from '@ruilplein/local';
import { toOpenApiPath } from './routes.ts';

const binary = join(repoRoot, '.tools', 'venv', 'bin', 'schemathesis');

/** The installed CLI, or undefined before `npm run bootstrap`. */
export const schemathesisBinary = () => (existsSync(binary) ? binary : undefined);

/** Cases per operation and phase: enough to find a 500 from odd input, few enough for `npm test`. */
const MAX_EXAMPLES = Number(process.env.CHECKS_FUZZ_EXAMPLES ?? 8);
/** Fixed, so a failure reproduces; CHECKS_FUZZ_SEED=<n> explores other cases. */
const SEED = process.env.CHECKS_FUZZ_SEED ?? '20261123';
/**
 * No 5xx, and every answer whose status the document declares matches its schema and media type;
 * input the schema forbids gets a 4xx; an operation that declares a bearer token refuses a request
 * without one. Not status_code_conformance: the contracts do not declare their 404, 409 and 429.
 */
const CHECKS = 'not_a_server_error,response_schema_conformance,content_type_conformance,negative_data_rejection,ignored_auth';

export interface FuzzOptions {
  service: string;
  /** The service's own /openapi.json. */
  schemaUrl: string;
  /** Where the requests go: the edge. */
  baseUrl: string;
  /** A member's access token for the signed-in pass. */
  token: string;
  /** Operations that end the session: fuzzed after everything else, so the token lives until then. */
  lastOperations: readonly Pick<RouteDef, 'method' | 'path'>[];
  /** A Beheerder's token and the admin operations to fuzz with it (none that destroys what it finds). */
  admin?: { token: string; operations: readonly Pick<RouteDef, 'method' | 'path'>[] };
}

/** schemathesis' name of an operation: `POST /api/auth/logout`. */
const operationName = (op: Pick<RouteDef, 'method' | 'path'>) => `${op.method.toUpperCase()} ${toOpenApiPath(op.path)}`;

export interface FuzzResult {
  ok: boolean;
  /** Requests sent over all passes. */
  calls: number;
  /** Requests per pass, e.g. `member 540`. */
  passes: string[];
  /** What schemathesis printed, per pass, for the failure message. */
  output: string;
}

/**
 * As a member without the session-ending operations, as a guest over everything, the
 * session-ending ones as the member, then the admin operations as a Beheerder.
 */
export async function fuzzService(opts: FuzzOptions): Promise<FuzzResult> {
  const bin = schemathesisBinary();
  if (!bin) throw new Error(`missing ${binary}: run \`npm run bootstrap\` (installs schemathesis into .tools/venv)`);
  const dir = await mkdtemp(join(tmpdir(), `ruilplein-fuzz-${opts.service}-`));
  const auth = ['--header', `Authorization: Bearer ${opts.token}`];
  const last = opts.lastOperations.flatMap((op) => ['--exclude-name', operationName(op)]);
  const only = opts.lastOperations.flatMap((op) => ['--include-name', operationName(op)]);
  const passes: Array<{ name: string; args: string[] }> = [
    { name: 'member', args: [...auth, ...last] },
    // The member pass already sends each operation without its token (ignored_auth): a short one.
    { name: 'guest', args: ['--exclude-checks', 'ignored_auth', '--phases', 'fuzzing', '--max-examples', '3'] },
    ...(only.length ? [{ name: 'member, session-ending operations', args: [...auth, ...only] }] : []),
    // Members only ever see 403 there: the answers of admin operations need a Beheerder.
    ...(opts.admin?.operations.length
      ? [{ name: 'admin, admin operations', args: ['--header', `Authorization: Bearer ${opts.admin.token}`, ...opts.admin.operations.flatMap((op) => ['--include-name', operationName(op)])] }]
      : []),
  ];
  let ok = true;
  let calls = 0;
  const counts: string[] = [];
  const output: string[] = [];
  try {
    for (const [i, pass] of passes.entries()) {
      const report = join(dir, `${i}.ndjson`);
      const result = await run(bin, [
        'run',
        opts.schemaUrl,
        '--url',
        opts.baseUrl,
        '--checks',
        CHECKS,
        '--max-examples',
        `${MAX_EXAMPLES}`,
        '--seed',
        SEED,
        '--generation-database',
        'none',
        '--request-timeout',
        '10',
        '--no-color',
        '--report',
        'ndjson',
        '--report-ndjson-path',
        report,
        ...pass.args,
      ]);
      const sent = await countRequests(report);
      calls += sent;
      counts.push(`${pass.name} ${sent}`);
      if (result.code !== 0) {
        ok = false;
        output.push(`schemathesis, ${opts.service}, as ${pass.name} (exit ${result.code}):\n${result.output}`);
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return { ok, calls, passes: counts, output: output.join('\n\n') };
}

/** Interactions recorded in the NDJSON report (0 when it is missing). */
async function countRequests(file: string): Promise<number> {
  const text = await readFile(file, 'utf8').catch(() => '');
  let count = 0;
  for (const line of text.split('\n')) {
    if (!line.includes('"ScenarioFinished"')) continue;
    const event = JSON.parse(line) as { ScenarioFinished?: { recorder?: { interactions?: Record<string, unknown> } } };
    count += Object.keys(event.ScenarioFinished?.recorder?.interactions ?? {}).length;
  }
  return count;
}

function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SCHEMATHESIS_HOOKS: '' } });
    let output = '';
    const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-60_000));
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: output.trim() }));
  });
}
