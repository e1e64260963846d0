// Premium from the payment service (`payment.subscription.*`) through the consumer the assembled auth
// service starts: role and end date kept current, announced to the other services, older events ignored.
import { eventRegistry, type EventEnvelope, type UserEvent } from '@ruilplein/contracts';
import { createEvent, ensureStream, publishEvent } from '@ruilplein/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userCollection, userIdOf } from '../src/accounts/model.ts';
import { authStores, signUp, startAuth, type AuthStores, type RunningAuth } from './helpers.ts';

let stores: AuthStores;
let auth: RunningAuth;
const announced: EventEnvelope<UserEvent>[] = [];
let stopReading: () => Promise<void>;

beforeAll(async () => {
  stores = await authStores();
  for (const stream of ['payment', 'auth']) {
    await ensureStream(stores.bus, stream);
    await stores.bus.jsm.streams.purge(stream);
  }
  auth = await startAuth(stores);
  const consumer = await stores.bus.js.consumers.get('auth', { filterSubjects: ['auth.user.updated'] });
  const messages = await consumer.consume();
  const reading = (async () => {
    for await (const msg of messages) announced.push(msg.json());
  })();
  stopReading = async () => {
    await messages.close();
    await reading;
  };
});
afterAll(async () => {
  await stopReading();
  await auth.stop();
  await stores.close();
});

const users = () => userCollection(stores.db);
const subscription = (type: 'activated' | 'renewed' | 'cancelled' | 'expired', userId: string, version: number, paidUntil: string | null) =>
  createEvent(eventRegistry, `payment.subscription.${type}`, { userId, version, paidUntil, at: new Date().toISOString() });
async function eventually(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never: ${what}`);
}

describe('subscription events in auth', () => {
  it('activation gives Premium and the end date; expiry takes both back; each change is announced', async () => {
    const member = await signUp(auth.url);
    const until = new Date(Date.now() + 30 * 86_400_000).toISOString();
    await publishEvent(stores.bus, subscription('activated', member.id, 1, until));
    await eventually(async () => (await users().findOne({ _id: userIdOf(member.id) }))?.roles.includes('Premium') === true, 'Premium given');
    expect((await users().findOne({ _id: userIdOf(member.id) }))?.subscriptionEndsAt?.toISOString()).toBe(until);
    await eventually(async () => announced.some((e) => e.payload.id === member.id && e.payload.roles.includes('Premium') && e.payload.subscriptionEndsAt === until), 'announced');

    const later = new Date(Date.now() + 60 * 86_400_000).toISOString();
    await publishEvent(stores.bus, subscription('renewed', member.id, 3, later));
    // The older cancellation after the renewal changes nothing.
    await publishEvent(stores.bus, subscription('cancelled', member.id, 2, until));
    await publishEvent(stores.bus, subscription('expired', member.id, 4, null));
    await eventually(async () => (await users().findOne({ _id: userIdOf(member.id) }))?.membershipVersion === 4, 'expired applied');
    const after = await users().findOne({ _id: userIdOf(member.id) });
    expect(after?.roles).not.toContain('Premium');
    expect(after?.subscriptionEndsAt).toBeUndefined();
    await eventually(async () => announced.some((e) => e.payload.id === member.id && !e.payload.roles.includes('Premium') && !e.payload.subscriptionEndsAt), 'the end announced');
  });

  it('keeps a Premium role that no subscription gave', async () => {
    const member = await signUp(auth.url);
    await users().updateOne({ _id: userIdOf(member.id) }, { $set: { roles: ['Gebruiker', 'Premium'] } });
    await publishEvent(stores.bus, subscription('activated', member.id, 1, new Date(Date.now() + 86_400_000).toISOString()));
    await publishEvent(stores.bus, subscription('expired', member.id, 2, null));
    await eventually(async () => (await users().findOne({ _id: userIdOf(member.id) }))?.membershipVersion === 2, 'applied');
    expect((await users().findOne({ _id: userIdOf(member.id) }))?.roles).toContain('Premium');
  });
});
