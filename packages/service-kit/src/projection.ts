import type { mongo } from 'mongoose';

/** A native collection or a mongoose model: anything with `updateOne`. */
interface Updatable {
  updateOne(
    filter: mongo.BSON.Document,
    update: mongo.BSON.Document,
    options: { upsert: boolean },
  ): PromiseLike<{ matchedCount: number; upsertedCount: number }>;
}

/**
 * Applies an event's state to a projection only when it is newer than what the projection holds:
 * one conditional single-document update (upsert), keyed by the aggregate's id, that matches only
 * when the stored version is lower or absent. Events about one aggregate carry a monotonic
 * `version`; an older state arriving after a newer one (redelivery, replay, parallel handlers)
 * changes nothing. Returns whether it applied. `unset` names fields the state no longer has.
 * Add `version` to a strict mongoose schema.
 */
export async function applyIfNewer(
  collection: Updatable,
  id: unknown,
  version: number,
  set: mongo.BSON.Document,
  options: { field?: string; setOnInsert?: mongo.BSON.Document; unset?: readonly string[] } = {},
): Promise<boolean> {
  const field = options.field ?? 'version';
  const filter = { _id: id, $or: [{ [field]: { $lt: version } }, { [field]: { $exists: false } }] };
  const update = {
    $set: { ...set, [field]: version },
    // Fields the new state no longer has (a cleared optional field), removed in the same write.
    ...(options.unset?.length && { $unset: Object.fromEntries(options.unset.map((f) => [f, ''])) }),
    ...(options.setOnInsert && { $setOnInsert: options.setOnInsert }),
  };
  try {
    const result = await collection.updateOne(filter, update, { upsert: true });
    return result.matchedCount + result.upsertedCount > 0;
  } catch (err) {
    if ((err as { code?: number }).code !== 11000) throw err;
  }
  // The insert collided: the document exists (the stored version was not lower, or another
  // handler inserted it just now). Once more without the insert decides which.
  const result = await collection.updateOne(filter, update, { upsert: false });
  return result.matchedCount > 0;
}
