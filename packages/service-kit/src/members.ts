// The member projection every service keeps of auth's members, written once: the `auth.user.*`
// events applied only when newer, each service keeping the fields it names, and the reads by `_id`.
import { eventRegistry, type BlockEvent, type Role, type UserEvent } from '@ruilplein/contracts';
import type { mongo } from 'mongoose';
import type { BlockProjection } from './blocks.ts';
import { collection as typedCollection, type Connection } from './mongo.ts';
import { consume, type Bus, type Worker } from './nats.ts';
import type { Logger } from './logger.ts';
import { applyIfNewer } from './projection.ts';

/** Ids per `$in` (the local store's `_id` lookup takes up to 500 at once). */
export const IDS_PER_READ = 500;

/**
 * Documents with these ids (that also match `filter`), in chunks the store reads from its `_id`
 * index: the one lookup FerretDB answers from an index (docs/architecture.md). No order. Takes a
 * typed collection, or an untyped one (a mongoose model's `collection`) with `T` named.
 */
export async function byIds<T extends mongo.BSON.Document>(collection: mongo.Collection<T> | mongo.Collection, ids: Iterable<T['_id']>, filter: mongo.Filter<T> = {}): Promise<T[]> {
  const unique = [...new Set(ids)];
  const docs: T[] = [];
  const typed = collection as mongo.Collection<T>;
  for (let i = 0; i < unique.length; i += IDS_PER_READ) {
    docs.push(...((await typed.find({ _id: { $in: unique.slice(i, i + IDS_PER_READ) }, ...filter } as mongo.Filter<T>).toArray()) as T[]));
  }
  return docs;
}

/** Every field a service may keep of a member; `place` is the pair `latitude` and `longitude`. */
export interface MemberFields {
  firstName: string;
  lastName: string;
  profilePicture: string;
  city?: string;
  latitude?: number;
  longitude?: number;
  roles: Role[];
  activated: boolean;
  subscriptionEndsAt?: Date;
}

export type MemberField = Exclude<keyof MemberFields, 'latitude' | 'longitude'> | 'place';
type Stored<F extends MemberField> = F extends 'place' ? 'latitude' | 'longitude' : F;

/** A member as a service keeps them: the fields it named, the version applied, and the tombstone mark. */
export type Member<F extends MemberField> = Pick<MemberFields, Stored<F>> & {
  /** auth's user id. */
  _id: string;
  /** auth's version of the member: an older event changes nothing. */
  version: number;
  /** The account is gone: a tombstone (no personal data) that ignores any older event. */
  deleted?: boolean;
};

/** What a deleted member keeps of each field (the optional ones are removed). */
const TOMBSTONE: Pick<MemberFields, 'firstName' | 'lastName' | 'profilePicture' | 'roles' | 'activated'> = { firstName: '', lastName: '', profilePicture: '', roles: [], activated: false };
const OPTIONAL: Partial<Record<MemberField, readonly string[]>> = { city: ['city'], place: ['latitude', 'longitude'], subscriptionEndsAt: ['subscriptionEndsAt'] };

/** auth's ids are lowercase hex; a member is always stored and read under that spelling. */
const idOf = (id: string) => id.toLowerCase();

export interface MemberProjection<F extends MemberField> {
  /** The `members` collection, for what is not a read by id (the demo seed's lookup by name). */
  readonly collection: mongo.Collection<Member<F>>;
  byId(id: string): Promise<Member<F> | null>;
  /** The known members among `ids` (duplicates read once), by id. */
  byIds(ids: Iterable<string>): Promise<Map<string, Member<F>>>;
  /** Applies one member state when it is newer than the stored one; fields it leaves out (a cleared city, an ended subscription) are removed. */
  apply(user: UserEvent): Promise<boolean>;
  /** Makes the member a tombstone when the deletion is newer than the stored state. */
  applyDeleted(id: string, version: number): Promise<boolean>;
  /**
   * Keeps the projection current from auth's events on the durable consumer `durable`. `settled`
   * runs after every event (redeliveries too, so it must be safe to repeat) with the member as now
   * stored (a newer event may have landed meanwhile: decide from that, not from the event) and
   * whether the event was the deletion.
   */
  consume(bus: Bus, options: { durable: string; logger: Logger; settled?: (member: Member<F>, deletion: boolean) => Promise<void>; blocks?: BlockFollower }): Promise<Worker>;
}

/**
 * Members blocking members, followed on the same durable (auth's stream, in order with the
 * deletions that end the relations): the projection applied, then `changed` (also on a
 * redelivery, so it must be safe to repeat).
 */
export interface BlockFollower {
  projection: BlockProjection;
  changed?: (event: BlockEvent, added: boolean) => Promise<void>;
}

const MEMBER_SUBJECTS = ['auth.user.registered', 'auth.user.activated', 'auth.user.updated', 'auth.user.deleted'] as const;
const BLOCK_SUBJECTS = ['auth.block.added', 'auth.block.removed'] as const;

/**
 * The member projection of one service, keeping `fields` in its `members` collection (the native
 * driver's collection, however the service reads its other data).
 */
export function memberProjection<const F extends MemberField>(db: Connection, options: { fields: readonly F[]; collection?: string }): MemberProjection<F> {
  const fields = new Set<MemberField>(options.fields);
  const collection = typedCollection<Member<F>>(db, options.collection ?? 'members');
  const optional = [...fields].flatMap((f) => OPTIONAL[f] ?? []);
  const keeps = (f: MemberField) => fields.has(f);

  const stateOf = (user: UserEvent): mongo.BSON.Document => {
    const set: mongo.BSON.Document = {};
    for (const f of ['firstName', 'lastName', 'profilePicture', 'activated'] as const) if (keeps(f)) set[f] = user[f];
    if (keeps('roles')) set.roles = [...user.roles];
    if (keeps('city') && user.city !== undefined) set.city = user.city;
    if (keeps('place') && user.latitude !== undefined && user.longitude !== undefined) Object.assign(set, { latitude: user.latitude, longitude: user.longitude });
    if (keeps('subscriptionEndsAt') && user.subscriptionEndsAt) set.subscriptionEndsAt = new Date(user.subscriptionEndsAt);
    return set;
  };

  const projection: MemberProjection<F> = {
    collection,
    byId: (id) => collection.findOne({ _id: idOf(id) } as mongo.Filter<Member<F>>) as Promise<Member<F> | null>,
    async byIds(ids) {
      const found = await byIds(collection, [...ids].map(idOf));
      return new Map(found.map((m) => [m._id, m]));
    },
    apply(user) {
      const set = stateOf(user);
      return applyIfNewer(collection, idOf(user.id), user.version, set, { unset: optional.filter((f) => !(f in set)) });
    },
    applyDeleted(id, version) {
      const set = Object.fromEntries(Object.entries(TOMBSTONE).filter(([f]) => keeps(f as MemberField)));
      return applyIfNewer(collection, idOf(id), version, { ...set, deleted: true }, { unset: optional });
    },
    consume(bus, { durable, logger, settled, blocks }) {
      return consume(bus, {
        durable,
        registry: eventRegistry,
        subjects: blocks ? [...MEMBER_SUBJECTS, ...BLOCK_SUBJECTS] : MEMBER_SUBJECTS,
        db,
        logger,
        handler: async (event) => {
          if (event.type === 'auth.block.added' || event.type === 'auth.block.removed') {
            const added = event.type === 'auth.block.added';
            await blocks?.projection.apply(event.payload, added);
            await blocks?.changed?.(event.payload, added);
            return;
          }
          const deletion = event.type === 'auth.user.deleted';
          if (deletion) {
            await projection.applyDeleted(event.payload.id, event.payload.version);
            await blocks?.projection.forget(event.payload.id);
          } else await projection.apply(event.payload);
          if (!settled) return;
          const member = await projection.byId(event.payload.id);
          if (member) await settled(member, deletion);
        },
      });
    },
  };
  return projection;
}
