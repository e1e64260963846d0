import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { natsProblems, natsUsers, registry, services, type ServiceEntry } from '@ruilplein/contracts';
import { describe, expect, it } from 'vitest';
import { NATS_USERS_FILE, natsUsersFileText } from '../src/nats-users.ts';
import { repoRoot } from '../src/paths.ts';

/** A copy of the registry with one service more, declared as any service is. */
const withReviews = (): ServiceEntry[] => [
  ...services,
  {
    name: 'reviews' as ServiceEntry['name'],
    port: 8199,
    prefixes: ['/api/reviews/*'],
    routes: {},
    events: {},
    queries: {},
    nats: { durables: { 'reviews-offers': 'trade', 'reviews-members': 'auth' }, follows: ['listing'] },
  },
];

describe('NATS users generated from the registry', () => {
  it('are what the chart reads: the committed file is the generator’s output', () => {
    expect(readFileSync(NATS_USERS_FILE, 'utf8'), 'helm/ruilplein/files/nats-users.json is stale: run `npm run generate:nats`').toBe(natsUsersFileText());
  });

  it('exist for every registered service, and every service folder with a main.ts is registered', () => {
    const file = JSON.parse(readFileSync(NATS_USERS_FILE, 'utf8')) as { admin: string; users: { user: string }[] };
    const users = file.users.map((u) => u.user);
    const missing = services.filter((s) => !users.includes(s.name)).map((s) => s.name);
    expect(missing, 'registered services without a NATS user').toEqual([]);
    const deployed = readdirSync(join(repoRoot, 'services')).filter((d) => d !== 'gateway' && existsSync(join(repoRoot, 'services', d, 'src', 'main.ts')));
    expect(deployed.filter((d) => !(d in registry)), 'services with a main.ts but no registry entry (and so no NATS user)').toEqual([]);
    expect(file.admin).toBe('ruilplein-admin');
  });

  it('declare sound consumers: <service>-<purpose> durables, declared once, on streams someone owns', () => {
    expect(natsProblems(services)).toEqual([]);
    const broken: Pick<ServiceEntry, 'name' | 'nats' | 'events'>[] = [
      { name: 'auth', events: { 'auth.replay.x': undefined as never }, nats: { durables: { 'listing-steal': 'listing', 'auth-x': 'nowhere' } } },
      { name: 'listing', events: {}, nats: { durables: { 'listing-steal': 'listing' }, follows: ['elsewhere'] } },
    ];
    expect(natsProblems(broken)).toEqual([
      'auth durable listing-steal is not auth-<purpose> (a-z, 0-9, -)',
      'auth durable auth-x reads stream nowhere, which no service owns',
      'auth event auth.replay.x: the entity "replay" is kept for dead-letter replays',
      'durable listing-steal is declared by auth and listing',
      'listing follows stream elsewhere, which no service owns',
    ]);
  });

  it('give a new service its user and rights from its registry entry alone', () => {
    const reviews = natsUsers(withReviews()).find((u) => u.user === 'reviews');
    expect(reviews).toBeDefined();
    const { publish, subscribe, allow_responses } = reviews!.permissions;
    expect(allow_responses).toBe(true);
    expect(subscribe.allow).toEqual(['rpc.reviews.>', '_INBOX.>']);
    expect([...publish.allow].sort()).toEqual(
      [
        'reviews.>',
        'deadletter.reviews.>',
        'rpc.>',
        '$JS.API.INFO',
        '$JS.API.STREAM.INFO.reviews',
        '$JS.API.STREAM.CREATE.reviews',
        '$JS.API.STREAM.UPDATE.reviews',
        '$JS.API.STREAM.INFO.deadletter',
        '$JS.API.STREAM.CREATE.deadletter',
        ...['auth', 'listing', 'trade'].flatMap((stream) => [`$JS.API.STREAM.INFO.${stream}`, `$JS.API.STREAM.CREATE.${stream}`]),
        ...[
          ['trade', 'reviews-offers'],
          ['auth', 'reviews-members'],
        ].flatMap(([stream, durable]) => [
          `$JS.API.CONSUMER.DURABLE.CREATE.${stream}.${durable}`,
          `$JS.API.CONSUMER.CREATE.${stream}.${durable}`,
          `$JS.API.CONSUMER.CREATE.${stream}.${durable}.>`,
          `$JS.API.CONSUMER.INFO.${stream}.${durable}`,
          `$JS.API.CONSUMER.DELETE.${stream}.${durable}`,
          `$JS.API.CONSUMER.MSG.NEXT.${stream}.${durable}`,
          `$JS.ACK.${stream}.${durable}.>`,
        ]),
        '$JS.API.CONSUMER.CREATE.listing',
        '$JS.FC.listing.>',
      ].sort(),
    );
    // The others' rights do not change with it.
    expect(natsUsers(withReviews()).filter((u) => u.user !== 'reviews')).toEqual(natsUsers(services));
    expect(natsUsersFileText(withReviews())).toContain('"user": "reviews"');
  });

  it('never grant the whole JetStream API, another’s stream settings, or pulling from another service’s consumer', () => {
    for (const { user, permissions } of natsUsers(withReviews())) {
      const own = (registry as Record<string, ServiceEntry>)[user] ?? withReviews().find((s) => s.name === user)!;
      for (const subject of permissions.publish.allow) {
        expect(subject, user).not.toMatch(/^\$JS\.API\.>$|^\$JS\.ACK\.>$|\*/);
        expect(subject, user).not.toMatch(/^\$JS\.API\.STREAM\.(DELETE|PURGE|MSG)/);
        const updated = /^\$JS\.API\.STREAM\.UPDATE\.(.+)$/.exec(subject)?.[1];
        if (updated) expect(updated, `${user} ${subject}`).toBe(user);
        const created = /^\$JS\.API\.STREAM\.CREATE\.(.+)$/.exec(subject)?.[1];
        if (created) expect([user, 'deadletter', ...Object.values(own.nats.durables), ...(own.nats.follows ?? [])], `${user} ${subject}`).toContain(created);
        const pulled = /^\$JS\.API\.CONSUMER\.(MSG\.NEXT|DELETE|INFO)\.[^.]+\.(.+)$/.exec(subject)?.[2];
        if (pulled) expect(Object.keys(own.nats.durables), `${user} ${subject}`).toContain(pulled);
      }
    }
  });
});
