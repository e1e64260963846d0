import { createHash } from 'node:crypto';
import type { Category } from '@ruilplein/contracts';
import { followStream, wallClockMs, type Bus, type Logger, type Worker } from '@ruilplein/service-kit';
import { toCategory, type CategoryCollection } from './model.ts';

/** Also reloaded on a timer, so a change whose event went missing still shows within this time. */
const SAFETY_REFRESH_MS = 5 * 60_000;
/** The consumer starts this far back, so an event stored just before the first load (or on a server whose clock runs ahead) still triggers a reload. */
const START_MARGIN_MS = 60_000;

export interface CategorySnapshot {
  /** In display order (position). */
  list: Category[];
  /** `list` as the JSON answer, and its strong validator. */
  json: string;
  etag: string;
}

export interface CategoryCache extends Worker {
  current(): CategorySnapshot;
  /** Reloads from the database; concurrent calls share one reload (plus one more if asked during it). */
  refresh(): Promise<void>;
}

async function load(categories: CategoryCollection): Promise<CategorySnapshot> {
  const list = (await categories.find({}).sort({ position: 1 }).toArray()).map(toCategory);
  const json = JSON.stringify(list);
  return { list, json, etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"` };
}

/**
 * Categories change only through seeding or an admin, and every page asks for them: they are
 * served from memory. Loaded at start; reloaded on each `listing.category.*` event (any replica's
 * write, seen through an ephemeral ordered consumer of the service's own stream) and after this
 * replica's own writes (`refresh()`).
 */
export async function startCategoryCache(categories: CategoryCollection, bus: Bus, logger: Logger): Promise<CategoryCache> {
  // Listen before the first load: a change after it is then always followed by a reload.
  const messages = await followStream(bus, 'listing', {
    filterSubjects: ['listing.category.>'],
    startTime: new Date(wallClockMs() - START_MARGIN_MS).toISOString(),
    headersOnly: true,
  });
  let snapshot = await load(categories);

  let running: Promise<void> | undefined;
  let again = false;
  const refresh = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        snapshot = await load(categories);
      } while (again);
    })()
      .catch((err: unknown) => logger.warn({ err }, 'categories not reloaded; serving the previous list'))
      .finally(() => (running = undefined));
    return running;
  };

  const loop = (async () => {
    for await (const _event of messages) void refresh();
  })();
  const timer = setInterval(() => void refresh(), SAFETY_REFRESH_MS).unref();

  return {
    current: () => snapshot,
    refresh,
    async stop() {
      clearInterval(timer);
      await messages.close();
      await loop;
      await running;
    },
  };
}
