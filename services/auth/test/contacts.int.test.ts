// `rpc.auth.member.contacts`: the notification service's way to an address (auth's events carry
// none). Only activated, existing members are answered.
import { authQueries } from '@ruilplein/contracts';
import { requestQuery } from '@ruilplein/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authStores, post, signUp, startAuth, uniqueEmail, type AuthStores, type RunningAuth } from './helpers.ts';
import { userCollection } from '../src/accounts/model.ts';

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

describe('rpc.auth.member.contacts', () => {
  it('answers the address of each activated member asked for, and nothing for others', async () => {
    const active = await signUp(auth.url);
    const email = uniqueEmail('nog-niet');
    expect((await post(auth.url, '/api/auth/register', { firstName: 'Nog', lastName: 'Niet', email, password: 'Geheim123' })).status).toBe(201);
    const pending = await userCollection(stores.db).findOne({ email: email.toLowerCase() });
    const answer = await requestQuery(stores.bus, authQueries.contacts, { ids: [active.id, pending!._id.toHexString(), 'ffffffffffffffffffffffff', 'geen-id'] });
    expect(answer).toEqual([{ id: active.id, email: active.email }]);
  });
});
