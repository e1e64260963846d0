// Each service's NATS user and rights, derived from the registry alone (a service's `nats` entry,
// its events and queries): `npm start` (infra/local) configures its NATS with them, and the
// umbrella chart reads the same as a generated file (helm/ruilplein/files/nats-users.json,
// `npm run generate:nats`). Pure data; no NATS client here.
import type { ServiceEntry } from './registry.ts';

/** Full rights: tests, tools (`npm run deadletter`) and the runner. */
export const NATS_ADMIN = 'ruilplein-admin';
/** The stream consumers park messages on (service-kit's DEAD_LETTER_STREAM): shared, created by whoever parks first. */
const NATS_DEAD_LETTER_STREAM = 'deadletter';

export interface NatsPermissions {
  publish: { allow: string[] };
  subscribe: { allow: string[] };
  allow_responses: true;
}

export interface NatsUser {
  user: string;
  permissions: NatsPermissions;
}

/** What the service's NATS declarations mean as streams: the one it owns, those it reads. */
function natsStreamsOf(entry: Pick<ServiceEntry, 'name' | 'nats'>): { owns: string; reads: string[] } {
  const reads = new Set([...Object.values(entry.nats.durables), ...(entry.nats.follows ?? [])]);
  reads.delete(entry.name);
  return { owns: entry.name, reads: [...reads].sort() };
}

const JS = '$JS.API';

/**
 * A service's rights. Publish: its own events (`<service>.>`, its stream), its own dead letters
 * (`deadletter.<service>.>`), requests to any query (`rpc.>`) and answers to requests it received
 * (allow_responses). JetStream API, per stream and consumer, never `$JS.API.>`:
 * - account info (`$JS.API.INFO`: the kit checks JetStream answers);
 * - its own stream: info, create, update; the dead-letter stream and every stream it reads: info
 *   and create (with the kit's settings, so no service waits for another to be deployed first),
 *   never update, delete or purge: only the owner changes its stream's settings;
 * - each durable it owns, on the stream it reads: create (all three subject forms of the nats
 *   client), info, delete (a durable whose settings cannot change is made again), next message
 *   (pull), and its acks (`$JS.ACK.<stream>.<durable>.>`);
 * - each stream it follows with ephemeral ordered push consumers (search, caches): create without
 *   a name in the subject (the server refuses a durable there) and flow-control replies; the
 *   messages arrive on its inbox, so no "next message" right on anyone's consumers.
 * Subscribe: its own queries (`rpc.<service>.>`) and its inboxes (replies, pushed messages).
 * So no service publishes another's events, touches another's stream settings, or reads (and
 * acknowledges) from another's consumers.
 */
export function natsPermissions(entry: Pick<ServiceEntry, 'name' | 'nats'>): NatsPermissions {
  const { name, nats } = entry;
  const { reads } = natsStreamsOf(entry);
  const publish = [
    `${name}.>`,
    `${NATS_DEAD_LETTER_STREAM}.${name}.>`,
    'rpc.>',
    `${JS}.INFO`,
    `${JS}.STREAM.INFO.${name}`,
    `${JS}.STREAM.CREATE.${name}`,
    `${JS}.STREAM.UPDATE.${name}`,
    `${JS}.STREAM.INFO.${NATS_DEAD_LETTER_STREAM}`,
    `${JS}.STREAM.CREATE.${NATS_DEAD_LETTER_STREAM}`,
    ...reads.flatMap((stream) => [`${JS}.STREAM.INFO.${stream}`, `${JS}.STREAM.CREATE.${stream}`]),
  ];
  for (const [durable, stream] of Object.entries(nats.durables).sort()) {
    publish.push(
      `${JS}.CONSUMER.DURABLE.CREATE.${stream}.${durable}`,
      `${JS}.CONSUMER.CREATE.${stream}.${durable}`,
      `${JS}.CONSUMER.CREATE.${stream}.${durable}.>`,
      `${JS}.CONSUMER.INFO.${stream}.${durable}`,
      `${JS}.CONSUMER.DELETE.${stream}.${durable}`,
      `${JS}.CONSUMER.MSG.NEXT.${stream}.${durable}`,
      `$JS.ACK.${stream}.${durable}.>`,
    );
  }
  for (const stream of [...(nats.follows ?? [])].sort()) publish.push(`${JS}.CONSUMER.CREATE.${stream}`, `$JS.FC.${stream}.>`);
  return {
    publish: { allow: [...new Set(publish)] },
    subscribe: { allow: [`rpc.${name}.>`, '_INBOX.>'] },
    allow_responses: true,
  };
}

/** Every service's user with its rights (passwords are the runner's or the chart's). */
export function natsUsers(entries: readonly Pick<ServiceEntry, 'name' | 'nats'>[]): NatsUser[] {
  return entries.map((entry) => ({ user: entry.name, permissions: natsPermissions(entry) }));
}

/**
 * What is wrong with the services' NATS declarations, as readable lines: a durable not named
 * `<service>-<purpose>` (its dead letters go to `deadletter.<service>.<durable>`), a durable or
 * stream name NATS cannot use as one subject token, a durable declared twice, an event subject
 * with the entity `replay` (dead-letter replays use `<stream>.replay.<durable>`), a stream read
 * that no service owns.
 */
export function natsProblems(entries: readonly Pick<ServiceEntry, 'name' | 'nats' | 'events'>[]): string[] {
  const problems: string[] = [];
  const owners = new Set([...entries.map((e) => e.name), NATS_DEAD_LETTER_STREAM]);
  const seen = new Map<string, string>();
  const token = /^[a-z0-9-]+$/;
  for (const entry of entries) {
    for (const [durable, stream] of Object.entries(entry.nats.durables)) {
      if (!durable.startsWith(`${entry.name}-`) || !token.test(durable)) problems.push(`${entry.name} durable ${durable} is not ${entry.name}-<purpose> (a-z, 0-9, -)`);
      const other = seen.get(durable);
      if (other) problems.push(`durable ${durable} is declared by ${other} and ${entry.name}`);
      seen.set(durable, entry.name);
      if (!owners.has(stream)) problems.push(`${entry.name} durable ${durable} reads stream ${stream}, which no service owns`);
    }
    for (const stream of entry.nats.follows ?? []) {
      if (!owners.has(stream)) problems.push(`${entry.name} follows stream ${stream}, which no service owns`);
    }
    for (const subject of Object.keys(entry.events)) {
      if (subject.split('.')[1] === 'replay') problems.push(`${entry.name} event ${subject}: the entity "replay" is kept for dead-letter replays`);
    }
  }
  return problems;
}
