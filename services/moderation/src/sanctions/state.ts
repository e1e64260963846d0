import { eventRegistry, type EventEnvelope } from '@ruilplein/contracts';
import { createEvent, outboxFields } from '@ruilplein/service-kit';
import type { mongo } from 'mongoose';
import type { MemberStateDoc, ModerationContext } from '../context.ts';

type Block = NonNullable<MemberStateDoc['block']>;

/** What a change does to a member's state: the next warnings and block, and the events to announce. */
interface Change {
  warnings: MemberStateDoc['warnings'];
  block: Block | undefined;
  events: (version: number) => EventEnvelope[];
}

/**
 * Changes a member's moderation state: one conditional update on the version it was read at,
 * with its events in the same write (outbox), retried when another change landed in between. So
 * two warnings at once are counted one after the other, and at most one of them blocks. `decide`
 * answers null for no change.
 */
export async function changeMemberState(ctx: ModerationContext, userId: string, decide: (state: MemberStateDoc) => Change | null): Promise<MemberStateDoc> {
  for (;;) {
    const stored = await ctx.states.findOne({ _id: userId });
    const current: MemberStateDoc = stored ?? { _id: userId, version: 0, warnings: [] };
    const change = decide(current);
    if (!change) return current; // nothing to change
    const version = current.version + 1;
    const next: MemberStateDoc = { _id: userId, version, warnings: change.warnings, ...(change.block && { block: change.block }) };
    const update: mongo.UpdateFilter<MemberStateDoc> = {
      $set: { version, warnings: change.warnings, ...(change.block && { block: change.block }), ...outboxFields(...change.events(version)) } as mongo.MatchKeysAndValues<MemberStateDoc>,
      ...(!change.block && { $unset: { block: '' } }),
    };
    try {
      const done = stored
        ? await ctx.states.updateOne({ _id: userId, version: current.version }, update)
        : await ctx.states.updateOne({ _id: userId, version: { $exists: false } } as mongo.Filter<MemberStateDoc>, update, { upsert: true });
      if (done.modifiedCount + done.upsertedCount === 1) {
        ctx.relay.kick(ctx.states.collectionName, userId);
        return next;
      }
    } catch (err) {
      if ((err as { code?: number }).code !== 11000) throw err; // created meanwhile: read again
    }
  }
}

/** The block as the events carry it. */
export const blockEvent = (type: 'moderation.user.banned' | 'moderation.user.blocked', userId: string, version: number, block: Block, at: Date) =>
  createEvent(eventRegistry, type, { userId, version, reason: block.reason, unblockDate: block.until?.toISOString() ?? null, at: at.toISOString() });

/** Whether a block is in force at `at`. */
export const inForce = (block: Block | undefined, at: Date): block is Block => !!block && (block.until === null || block.until > at);

/** A warning: counted with the recent ones; the count reaching the rule's number blocks (unless a block is in force). */
export function warn(ctx: ModerationContext, userId: string, warningId: string, at: Date) {
  const { warnings: limit, windowMs, blockMs } = ctx.autoBlock;
  return changeMemberState(ctx, userId, (state) => {
    const warnings = [...state.warnings.filter((w) => w.at.getTime() > at.getTime() - windowMs && w.id !== warningId), { id: warningId, at }];
    const blocks = warnings.length >= limit && !inForce(state.block, at);
    const block: Block | undefined = blocks ? { reason: 'warnings', until: new Date(at.getTime() + blockMs), since: at } : state.block;
    return {
      // A block starts the count afresh: the warnings that led to it are not counted twice.
      warnings: blocks ? [] : warnings,
      block,
      events: (version) => [
        createEvent(eventRegistry, 'moderation.user.warned', { userId, version, warningId, recentWarnings: warnings.length, at: at.toISOString() }),
        ...(blocks ? [blockEvent('moderation.user.blocked', userId, version, block!, at)] : []),
      ],
    };
  });
}

/** A ban: blocks until `until` (null: until lifted), replacing any block in force. */
export function ban(ctx: ModerationContext, userId: string, until: Date | null, at: Date) {
  return changeMemberState(ctx, userId, (state) => {
    const block: Block = { reason: 'ban', until, since: at };
    return { warnings: state.warnings, block, events: (version) => [blockEvent('moderation.user.banned', userId, version, block, at)] };
  });
}
