// The authorization matrix: what a route's declared access implies for each kind of caller, and
// one call as that caller through the edge.
import type { RouteDef } from '@ruilplein/contracts';
import type { Role, Session, SignedInRole } from './platform.ts';
import { fillPath, type RequestInput } from './routes.ts';

export type Expectation = 'allowed' | 401 | 403;

/**
 * public: nobody is refused; user: a guest gets 401, every member is let through; admin: a guest
 * 401, members and Premium members 403, the Beheerder is let through.
 */
export function expectedFor(route: Pick<RouteDef, 'access'>, role: Role): Expectation {
  if (route.access === 'public') return 'allowed';
  if (role === 'guest') return 401;
  if (route.access === 'user' || role === 'admin') return 'allowed';
  return 403;
}

export interface Answer {
  status: number;
  text: string;
}

/** Whether the answer is what was expected; 'allowed' is anything but a refusal, a throttle or a server error. */
export function meets(answer: Answer, expected: Expectation): boolean {
  if (expected !== 'allowed') return answer.status === expected;
  return answer.status !== 401 && answer.status !== 403 && answer.status !== 429 && answer.status < 500;
}

export interface Call extends RequestInput {
  cookies?: boolean;
}

/** One request as `session` (none: a guest) to `base` (the edge). */
export async function callRoute(base: string, route: RouteDef, call: Call, session: Session | undefined): Promise<Answer> {
  const url = new URL(fillPath(route.path, call.params), base);
  for (const [name, value] of Object.entries(call.query ?? {})) for (const v of [value].flat()) url.searchParams.append(name, v);
  const headers: Record<string, string> = {};
  if (session) headers.authorization = `Bearer ${session.token}`;
  if (session && call.cookies && session.cookie) headers.cookie = session.cookie;
  let body: string | FormData | undefined;
  if (call.body !== undefined && route.method !== 'get') {
    if (route.form) {
      body = new FormData();
      for (const [name, value] of Object.entries(call.body as Record<string, unknown>)) {
        for (const v of [value].flat()) body.append(name, typeof v === 'string' ? v : JSON.stringify(v));
      }
    } else {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(call.body);
    }
  }
  const res = await fetch(url, { method: route.method.toUpperCase(), headers, body, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
  return { status: res.status, text: (await res.text()).slice(0, 300) };
}

/**
 * The requests a declared caller field implies: naming oneself is allowed as the access says,
 * naming another member is a 403 for every signed-in caller.
 */
export function callerFieldCalls(route: RouteDef, base: Call, role: Role, ids: Record<SignedInRole, string>): Array<{ name: string; call: Call; expected: Expectation }> {
  if (!route.caller || role === 'guest') return [];
  const own = ids[role];
  const someoneElse = role === 'other' ? ids.member : ids.other;
  const calls: Array<{ name: string; call: Call; expected: Expectation }> = [];
  for (const field of route.caller.body ?? []) {
    const body = (value: string) => ({ ...(base.body as object), [field]: value });
    calls.push({ name: `body.${field} = own id`, call: { ...base, body: body(own) }, expected: expectedFor(route, role) });
    calls.push({ name: `body.${field} = another member`, call: { ...base, body: body(someoneElse) }, expected: 403 });
  }
  for (const field of route.caller.query ?? []) {
    const query = (value: string) => ({ ...base.query, [field]: value });
    calls.push({ name: `query.${field} = own id`, call: { ...base, query: query(own) }, expected: expectedFor(route, role) });
    calls.push({ name: `query.${field} = another member`, call: { ...base, query: query(someoneElse) }, expected: 403 });
  }
  return calls;
}
