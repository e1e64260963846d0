import { eventRegistry, type EventEnvelope } from '@ruilplein/contracts';
import { createEvent, outboxFields } from '@ruilplein/service-kit';
import type { mongo } from 'mongoose';
import type { MemberStateDoc, MemberSuspension, ModerationContext } from '../context.ts';

/** A member's state as the decisions read it: the suspension under its current name. */
type MemberState = Omit<MemberStateDoc, 'block'>;

/** What a change does to a member's state: the next warnings and suspension, and the events to announce. */
interface Change {
  warnings: MemberStateDoc['warnings'];
  suspension: MemberSuspension | undefined;
  events: (version: number) => EventEnvelope[];
}

/** A stored state with a suspension written before the rename (`block`) read as `suspension`. */
function current({ block, ...state }: MemberStateDoc): MemberState {
  const suspension = state.suspension ?? block;
  return { ...state, ...(suspension && { suspension }) };
}

/**
 * Changes a member's moderation state: one conditional update on the version it was read at,
 * with its events in the same write (outbox), retried when another change landed in between. So
 * two warnings at once are counted one after the other, and at most one of them suspends. `decide`
 * answers null for no change.
 */
export async function changeMemberState(ctx: ModerationContext, userId: string, decide: (state: MemberState) => Change | null): Promise<MemberState> {
  for (;;) {
    const stored = await ctx.states.findOne({ _id: userId });
    const state: MemberState = stored ? current(stored) : { _id: userId, version: 0, warnings: [] };
    const change = decide(state);
    if (!change) return state; // nothing to change
    const version = state.version + 1;
    const next: MemberState = { _id: userId, version, warnings: change.warnings, ...(change.suspension && { suspension: change.suspension }) };
    const update: mongo.UpdateFilter<MemberStateDoc> = {
      $set: { version, warnings: change.warnings, ...(change.suspension && { suspension: change.suspension }), ...outboxFields(...change.events(version)) } as mongo.MatchKeysAndValues<MemberStateDoc>,
      // Every change rewrites the suspension under its current name.
      $unset: { block: '', ...(!change.suspension && { suspension: '' }) },
    };
    try {
      const done = stored
        ? await ctx.states.updateOne({ _id: userId, version: state.version }, update)
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

/** The suspension as the event carries it. */
const suspendedEvent = (userId: string, version: number, suspension: MemberSuspension, at: Date) =>
  createEvent(eventRegistry, 'moderation.user.suspended', { userId, version, reason: suspension.reason, endsAt: suspension.until?.toISOString() ?? null, at: at.toISOString() });

/** Whether a suspension is in force at `at`. */
export const inForce = (suspension: MemberSuspension | undefined, at: Date): suspension is MemberSuspension =>
  !!suspension && (suspension.until === null || suspension.until > at);

/**
 * A warning: counted with the recent ones; the count reaching the rule's number suspends (unless a
 * suspension is in force). Its text (`reason`) goes with the event, for the member's notification.
 */
export function warn(ctx: ModerationContext, userId: string, warningId: string, reason: string, at: Date) {
  const { warnings: limit, windowMs, lengthMs } = ctx.autoSuspension;
  return changeMemberState(ctx, userId, (state) => {
    const warnings = [...state.warnings.filter((w) => w.at.getTime() > at.getTime() - windowMs && w.id !== warningId), { id: warningId, at }];
    const suspends = warnings.length >= limit && !inForce(state.suspension, at);
    const suspension: MemberSuspension | undefined = suspends ? { reason: 'warnings', until: new Date(at.getTime() + lengthMs), since: at } : state.suspension;
    return {
      // A suspension starts the count afresh: the warnings that led to it are not counted twice.
      warnings: suspends ? [] : warnings,
      suspension,
      events: (version) => [
        createEvent(eventRegistry, 'moderation.user.warned', { userId, version, warningId, recentWarnings: warnings.length, reason, at: at.toISOString() }),
        ...(suspends ? [suspendedEvent(userId, version, suspension!, at)] : []),
      ],
    };
  });
}

/** A ban: suspends until `until` (null: until lifted), replacing any suspension in force. */
export function ban(ctx: ModerationContext, userId: string, until: Date | null, at: Date) {
  return changeMemberState(ctx, userId, (state) => {
    const suspension: MemberSuspension = { reason: 'ban', until, since: at };
    return { warnings: state.warnings, suspension, events: (version) => [suspendedEvent(userId, version, suspension, at)] };
  });
}

/**
 * An admin lifts the member's suspension in force (a ban or the automatic one): it leaves the state
 * and `moderation.user.suspension-ended` with `cause: 'lifted'` tells auth, listing and trade, on the
 * subject they follow already. Answers whether there was one to lift; the warnings stay counted.
 */
export async function lift(ctx: ModerationContext, userId: string, at: Date): Promise<boolean> {
  let lifted = false;
  await changeMemberState(ctx, userId, (state) => {
    lifted = inForce(state.suspension, at);
    if (!lifted) return null;
    return {
      warnings: state.warnings,
      suspension: undefined,
      events: (version) => [createEvent(eventRegistry, 'moderation.user.suspension-ended', { userId, version, cause: 'lifted', at: at.toISOString() })],
    };
  });
  return lifted;
}
