// Probe finding 6: a name with a bidi override (or NUL, or half a surrogate pair) was accepted, so a
// name could be made to read as another. Registration and the profile form refuse them with the one
// Dutch message (packages/contracts/src/text.ts) and change nothing.
import { TEXT_MESSAGES } from '@ruilplein/contracts';
import { body } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authStores, GOOD_PASSWORD, mailsTo, post, signUp, startAuth, uniqueEmail, type AuthStores, type RunningAuth } from './helpers.ts';

let stores: AuthStores;
let auth: RunningAuth;

beforeAll(async () => {
  stores = await authStores();
  auth = await startAuth(stores);
});
afterAll(async () => {
  await auth?.stop();
  await stores?.close();
});

/** 'Daan' followed by an override that shows 'nnaS' as 'Sann'. */
const SPOOF = 'Daan \u202Ennas';

describe('names with control or invisible characters', () => {
  it('are refused at registration with a Dutch 400, creating no account and sending no mail', async () => {
    for (const fields of [{ firstName: SPOOF }, { lastName: 'Jansen\u0000' }, { firstName: 'Sanne\uD800' }, { city: 'Utrecht\u200B' }]) {
      const email = uniqueEmail();
      const res = await post(auth.url, '/api/auth/register', { firstName: 'Sanne', lastName: 'Jansen', email, password: GOOD_PASSWORD, ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect((await body(res)).message).toBe(TEXT_MESSAGES.forbiddenCharacters);
      expect(await stores.db.collection('users').countDocuments({ email: email.toLowerCase() })).toBe(0);
      expect(await mailsTo(auth.url, email)).toEqual([]);
    }
  });

  it('are refused in the profile form with a Dutch 400, leaving the profile as it was', async () => {
    const member = await signUp(auth.url, { firstName: 'Sanne' });
    const update = (fields: Record<string, string>) => {
      const form = new FormData();
      for (const [k, v] of Object.entries({ firstName: 'Sanne', lastName: 'Jansen', ...fields })) form.append(k, v);
      return fetch(`${auth.url}/api/user/update`, { method: 'PUT', headers: { authorization: `Bearer ${member.token}` }, body: form });
    };
    const cases: Record<string, string>[] = [{ firstName: SPOOF }, { lastName: 'Jan\u2066sen' }, { city: 'Utrecht\u0007' }];
    for (const fields of cases) {
      const res = await update(fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect((await body(res)).message).toBe(TEXT_MESSAGES.forbiddenCharacters);
    }
    const my = await body(await fetch(`${auth.url}/api/user/my`, { headers: { authorization: `Bearer ${member.token}` } }));
    expect(my).toMatchObject({ firstName: 'Sanne', lastName: 'Jansen' });
    expect(my.city).toBeUndefined();
    // The same form with ordinary names goes through.
    expect((await update({ firstName: 'Zoë', lastName: "D'Hondt-Łukasz" })).status).toBe(200);
  });
});
