// Inputs for the routes where the generated ones are not enough: a resource with an owner, a call
// that needs real credentials, a call that ends the session. Keyed by `METHOD path`; a route not
// listed gets inputs made from its schemas (infra/checks/src/routes.ts dummyInput).
import { randomUUID } from 'node:crypto';
import { DEMO_PASSWORD } from '../../../services/auth/src/seed/seed.ts';
import { ACCOUNT_EMAILS, type Role, type SignedInRole } from '../src/platform.ts';
import type { Expectation } from '../src/matrix.ts';
import type { RequestInput } from '../src/routes.ts';

export interface Sample extends RequestInput {
  /** Tells the samples of one route apart in a failure. */
  name: string;
  /** Sends the cookies the caller's login set (the refresh token). */
  cookies?: boolean;
  /** Per role, where this sample's answer differs (always with `why`) from the route's access (e.g. another member's resource: 403). */
  expect?: Partial<Record<Role, Expectation>>;
  why?: string;
}

export interface FixtureContext {
  /** The caller of this round. */
  role: Role;
  /** Every signed-in role's account id. */
  ids: Record<SignedInRole, string>;
}

export interface Fixture {
  samples?: (ctx: FixtureContext) => Sample[];
  /** The call ends the caller's session (or rotates its cookie): called after every other route, then signed in again. */
  endsSession?: boolean;
  /** The fuzzing leaves it out of its admin pass: with ids it finds in answers it would delete real accounts. */
  destructive?: boolean;
}

/** An id no account has (a valid ObjectId). */
export const NOBODY = 'ffffffffffffffffffffffff';

/** The member's own resource and another member's: a route with an owner lists both. */
const ownAndOthers = ({ ids }: FixtureContext): Sample[] => [
  { name: "member's id", params: { id: ids.member } },
  { name: "other member's id", params: { id: ids.other } },
];

export const FIXTURES: Record<string, Fixture> = {
  // A new address per call: the generated one is taken after the first call (409).
  'POST /api/auth/register': {
    samples: ({ role }) => [{ name: 'new member', body: { firstName: 'Nieuw', lastName: 'Lid', email: `${role}.${randomUUID().slice(0, 8)}@voorbeeld.nl`, password: DEMO_PASSWORD } }],
  },
  // Valid fields (a made-up city is a 400 from the handler), so the save itself runs.
  'PUT /api/user/update': { samples: ({ role }) => [{ name: 'names only', body: { firstName: 'Lid', lastName: role } }] },
  // Real credentials: a wrong password is a 401 by design, which would hide an access mistake.
  'POST /api/auth/login': { samples: () => [{ name: 'seeded member', body: { email: ACCOUNT_EMAILS.member, password: DEMO_PASSWORD } }] },
  // An address per call: three mails per address and hour, and the round has five callers.
  'POST /api/auth/resend-activation': { samples: ({ role }) => [{ name: 'new address', body: `${role}.${randomUUID().slice(0, 8)}@voorbeeld.nl` }] },
  'POST /api/auth/request-password-reset': { samples: ({ role }) => [{ name: 'new address', body: `${role}.${randomUUID().slice(0, 8)}@voorbeeld.nl` }] },
  'POST /api/auth/refresh': {
    endsSession: true,
    samples: () => [
      { name: 'with the login cookie', cookies: true, expect: { guest: 401 }, why: 'without a refresh cookie there is no session to renew: 401 by design' },
    ],
  },
  'POST /api/auth/logout': { endsSession: true },
  'GET /api/user/public/:id': { samples: ownAndOthers },
  'GET /api/user/public/stats/:id': { samples: ownAndOthers },
  // Admin actions on an account nobody has: the matrix must not delete or change a real one.
  'DELETE /api/admin/delete/:id': { destructive: true, samples: () => [{ name: 'unknown id', params: { id: NOBODY } }] },
  'POST /api/user/activate/:id': { samples: () => [{ name: 'unknown id', params: { id: NOBODY } }] },
};
