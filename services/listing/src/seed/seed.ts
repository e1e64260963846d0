import { isPremiumAt } from '@ruilplein/contracts';
import { DEMO_LISTINGS, DEMO_MEMBERS as DEMO_OWNERS, demoListingId, type DemoOwner } from '@ruilplein/contracts/demo';
import { now as platformNow, collection, exists, nowMs, type Connection, type Worker } from '@ruilplein/service-kit';
import type { ListingContext } from '../listings/context.ts';
import { createListing } from '../listings/lifecycle.ts';
import { placeOf, type MemberDoc } from '../members/model.ts';
import { processPhotos } from '../photos/image.ts';
import { renderDemoPicture } from './pictures.ts';

/** One per demo member whose listings were seeded; seeding never repeats for them (a deleted demo listing stays deleted). */
interface SeedMark {
  /** The member's id. */
  _id: string;
  owner: DemoOwner;
  at: Date;
}

const near = (a: number | undefined, b: number) => typeof a === 'number' && Math.abs(a - b) < 1e-6;
const ownerKey = (member: Pick<MemberDoc, 'firstName' | 'lastName' | 'city' | 'latitude' | 'longitude'>): DemoOwner | undefined =>
  (Object.keys(DEMO_OWNERS) as DemoOwner[]).find((key) => {
    const demo = DEMO_OWNERS[key];
    return demo.firstName === member.firstName && demo.lastName === member.lastName && demo.city === member.city && near(member.latitude, demo.latitude) && near(member.longitude, demo.longitude);
  });

export interface DemoSeeder extends Worker {
  /** After a member's state was applied: seeds a demo member's listings once. */
  memberApplied(member: MemberDoc): Promise<void>;
  /** The demo members the projection has already (a restart): seeded in the background. */
  seedPresent(): void;
  /** Resolves when no seeding runs (tests). */
  idle(): Promise<void>;
}

/**
 * Local mode only: the demo members' listings (DEMO_LISTINGS), with pictures drawn here and put
 * through the same photo pipeline as an upload. The listing service knows a member only once
 * auth's event has arrived, so each demo member is seeded when their first event is applied (or
 * at start when the projection has them). Listings go through the ordinary creation (events,
 * the count, the limit); ids and dates come from the seed.
 */
export function demoSeeder(ctx: ListingContext, db: Connection): DemoSeeder {
  const marks = collection<SeedMark>(db, 'demo_seed');
  const running = new Map<string, Promise<void>>();
  let stopped = false;

  const seed = async (member: MemberDoc, owner: DemoOwner) => {
    if (await exists(marks, { _id: member._id })) return;
    const now = nowMs();
    let created = 0;
    for (const [index, demo] of DEMO_LISTINGS.entries()) {
      if (demo.owner !== owner || stopped) continue;
      const id = demoListingId(member._id, index);
      if (await exists(ctx.listings, { _id: id })) continue;
      const pictures = [await renderDemoPicture(demo.title, demo.color, demo.shape)];
      if (demo.second) pictures.push(await renderDemoPicture(demo.title, demo.color, demo.shape, 1));
      const photos = await processPhotos(pictures.map((data) => ({ data })));
      await createListing(ctx, {
        id,
        ownerId: member._id,
        fields: {
          title: demo.title,
          description: demo.description,
          listingType: demo.listingType,
          acceptsItems: demo.listingType === 'service' && !!demo.acceptsItems,
          isPremium: !!demo.isPremium,
          initialValue: demo.initialValue ?? null,
          categoryIds: demo.categoryIds,
        },
        photos,
        unlimited: isPremiumAt(member, now),
        place: placeOf(member),
        createdAt: new Date(now - demo.hoursAgo * 3600_000),
      });
      created++;
    }
    if (stopped) return;
    await marks.updateOne({ _id: member._id }, { $setOnInsert: { owner, at: platformNow() } }, { upsert: true });
    ctx.logger.info({ owner, userId: member._id, listings: created }, 'demo listings seeded');
  };

  const start = (member: MemberDoc): Promise<void> => {
    const owner = ownerKey(member);
    if (!owner || member.deleted || stopped) return Promise.resolve();
    let job = running.get(member._id);
    if (!job) {
      job = seed(member, owner)
        .catch((err: unknown) => ctx.logger.warn({ err, owner }, 'demo listings not seeded; tried again with the next event or start'))
        .finally(() => running.delete(member._id));
      running.set(member._id, job);
    }
    return job;
  };

  return {
    // Not awaited by the event handler: drawing thirty pictures takes seconds.
    memberApplied: async (member) => void start(member),
    seedPresent() {
      const names = Object.values(DEMO_OWNERS).map((o) => ({ firstName: o.firstName, lastName: o.lastName, city: o.city }));
      // Local mode only, a handful of members: a scan is fine here.
      void ctx.members.collection
        .find({ $or: names, deleted: { $ne: true } })
        .toArray()
        .then((members) => members.forEach(start))
        .catch((err: unknown) => ctx.logger.warn({ err }, 'demo members not looked up'));
    },
    async idle() {
      while (running.size) await Promise.all(running.values());
    },
    async stop() {
      stopped = true;
      await Promise.all(running.values());
    },
  };
}
