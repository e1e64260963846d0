// The one member projection on the real store and NATS: each service keeps the fields it names,
// applied only when newer, tombstones that ignore older events, and reads by `_id` in chunks.
import { randomBytes } from 'node:crypto';
import { eventRegistry, type UserEvent } from '@ruilplein/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byIds, createEvent, IDS_PER_READ, memberProjection, publishEvent, type Member, type Worker } from '../src/index.ts';
import { silentLogger } from '../src/testing.ts';
import { testInfra, waitFor } from './helpers.ts';

let infra: Awaited<ReturnType<typeof testInfra>>;
const workers: Worker[] = [];

beforeAll(async () => {
  infra = await testInfra('kit-members');
});
afterAll(async () => {
  for (const w of workers) await w.stop();
  await infra.close();
});

const newId = () => randomBytes(12).toString('hex');
const user = (over: Partial<UserEvent> = {}): UserEvent => ({
  id: newId(),
  version: 1,
  firstName: 'Anna',
  lastName: 'de Vries',
  profilePicture: '/uploads/avatars/anna.jpg',
  city: 'Utrecht',
  latitude: 52.09,
  longitude: 5.12,
  roles: ['Gebruiker'],
  activated: true,
  ...over,
});

describe('memberProjection', () => {
  it('keeps only the fields a service names, under the lowercase id', async () => {
    const members = memberProjection(infra.db, { fields: ['firstName', 'roles', 'subscriptionEndsAt'], collection: 'members_named' });
    const anna = user({ subscriptionEndsAt: '2030-01-01T00:00:00.000Z' });
    expect(await members.apply({ ...anna, id: anna.id.toUpperCase() })).toBe(true);
    const stored = await members.collection.findOne({ _id: anna.id });
    expect(stored).toEqual({ _id: anna.id, version: 1, firstName: 'Anna', roles: ['Gebruiker'], subscriptionEndsAt: new Date('2030-01-01T00:00:00.000Z') });
    expect(await members.byId(anna.id.toUpperCase())).toEqual(stored);
  });

  it('applies a newer state only, and removes what the new state leaves out (city, place, subscription)', async () => {
    const members = memberProjection(infra.db, { fields: ['firstName', 'lastName', 'profilePicture', 'city', 'place', 'roles', 'activated', 'subscriptionEndsAt'], collection: 'members_all' });
    const bram = user({ firstName: 'Bram', subscriptionEndsAt: '2030-01-01T00:00:00.000Z' });
    expect(await members.apply({ ...bram, version: 2 })).toBe(true);
    // An older state arriving late (redelivery, reordering) changes nothing.
    expect(await members.apply({ ...bram, version: 1, firstName: 'Oud' })).toBe(false);
    expect((await members.byId(bram.id))?.firstName).toBe('Bram');
    const { city: _city, latitude: _lat, longitude: _lon, subscriptionEndsAt: _end, ...cleared } = bram;
    expect(await members.apply({ ...cleared, version: 3, roles: ['Gebruiker', 'Premium'] })).toBe(true);
    const stored = await members.byId(bram.id);
    expect(stored).toEqual({ _id: bram.id, version: 3, firstName: 'Bram', lastName: 'de Vries', profilePicture: bram.profilePicture, roles: ['Gebruiker', 'Premium'], activated: true });
  });

  it('makes a deleted member a tombstone without personal data that ignores older events', async () => {
    const members = memberProjection(infra.db, { fields: ['firstName', 'lastName', 'city', 'place', 'roles', 'activated'], collection: 'members_gone' });
    const cor = user({ firstName: 'Cor' });
    await members.apply(cor);
    expect(await members.applyDeleted(cor.id, 2)).toBe(true);
    expect(await members.apply({ ...cor, version: 1 })).toBe(false);
    expect(await members.byId(cor.id)).toEqual({ _id: cor.id, version: 2, deleted: true, firstName: '', lastName: '', roles: [], activated: false });
    // A deletion that arrives before the member's first state is a tombstone too.
    const dirk = newId();
    expect(await members.applyDeleted(dirk, 4)).toBe(true);
    expect(await members.apply(user({ id: dirk, version: 3 }))).toBe(false);
    expect((await members.byId(dirk))?.deleted).toBe(true);
  });

  it('reads many members by id in chunks the `_id` index answers, once each, unknown ones left out', async () => {
    const members = memberProjection(infra.db, { fields: ['firstName'], collection: 'members_many' });
    const ids = Array.from({ length: IDS_PER_READ * 2 + 7 }, newId);
    await members.collection.insertMany(ids.map((id, i) => ({ _id: id, version: 1, firstName: `lid ${i}` })));
    const wanted = [...ids, ...ids.slice(0, 3), newId()];
    const found = await members.byIds(wanted);
    expect(found.size).toBe(ids.length);
    expect(found.get(ids[IDS_PER_READ + 1]!)?.firstName).toBe(`lid ${IDS_PER_READ + 1}`);
    // The kit's byIds on any collection, with a filter on top.
    const odd = await byIds(members.collection, ids.slice(0, 10), { firstName: { $in: ['lid 1', 'lid 3'] } });
    expect(odd.map((m) => m.firstName).sort()).toEqual(['lid 1', 'lid 3']);
    expect(await byIds(members.collection, [])).toEqual([]);
  });

  it("follows auth's events, and tells the service what is stored after each one", async () => {
    const members = memberProjection(infra.db, { fields: ['firstName', 'roles'], collection: 'members_events' });
    const settled: Array<{ member: Member<'firstName' | 'roles'>; deletion: boolean }> = [];
    const eva = user({ firstName: 'Eva' });
    workers.push(
      await members.consume(infra.bus, {
        durable: `kit-members-${newId().slice(0, 8)}`,
        logger: silentLogger(),
        settled: async (member, deletion) => {
          if (member._id === eva.id) settled.push({ member, deletion });
        },
      }),
    );
    await publishEvent(infra.bus, createEvent(eventRegistry, 'auth.user.registered', eva));
    await publishEvent(infra.bus, createEvent(eventRegistry, 'auth.user.updated', { ...eva, version: 2, roles: ['Premium'] }));
    await waitFor(() => settled.length === 2);
    expect(settled[1]).toEqual({ member: { _id: eva.id, version: 2, firstName: 'Eva', roles: ['Premium'] }, deletion: false });
    // A late older state: nothing changes, and the service sees the stored (newer) state.
    await publishEvent(infra.bus, createEvent(eventRegistry, 'auth.user.updated', { ...eva, version: 1, firstName: 'Oud' }));
    await waitFor(() => settled.length === 3);
    expect(settled[2]!.member).toEqual(settled[1]!.member);
    await publishEvent(infra.bus, createEvent(eventRegistry, 'auth.user.deleted', { id: eva.id, version: 3 }));
    await waitFor(() => settled.length === 4);
    expect(settled[3]).toEqual({ member: { _id: eva.id, version: 3, firstName: '', roles: [], deleted: true }, deletion: true });
  });
});
