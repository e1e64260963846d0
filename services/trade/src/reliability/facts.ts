import { offerParticipants, RELIABILITY_ANSWER_HOURS, RELIABILITY_SAME_MEMBER_DAYS, type OfferEvent, type ReliabilityFacts } from '@ruilplein/contracts';
import type { TradeContext } from '../context.ts';
import { changeStanding, offerKey } from '../offers/parties.ts';
import type { PartyDoc } from '../offers/party-model.ts';

const ANSWER_MS = RELIABILITY_ANSWER_HOURS * 3600_000;
const SAME_MEMBER_MS = RELIABILITY_SAME_MEMBER_DAYS * 24 * 3600_000;
/** Answers whose times make the median: the most recent ones (a member may change their ways). */
const RESPONSES_KEPT = 100;

/**
 * What an offer's change says about each party, written into their entry for it: the other party,
 * the receiver's first answer, the acceptance, and how, when and by whom it ended. `$min` and
 * same-value `$set`s, so a redelivered or late event changes nothing; then each party's facts are
 * computed anew from all their entries and announced when they changed.
 */
export async function recordOfferFacts(ctx: Pick<TradeContext, 'parties' | 'relay'>, offer: OfferEvent): Promise<void> {
  const key = `offers.${offerKey(offer.id)}`;
  const at = new Date(offer.at);
  const accepted = offer.status === 'Accepted' || offer.status === 'Completed';
  const ended = offer.status === 'Rejected' || offer.status === 'Cancelled' || offer.status === 'Completed';
  const participants = offerParticipants(offer);
  const chain = participants.length > 2;
  for (const [i, { userId: me, accepted: agreed }] of participants.entries()) {
    // The other party; in a chain the member who gives to this one (whose trades with them count once per 30 days).
    const other = participants[(i + 1) % participants.length]!.userId;
    const min: Record<string, Date> = {};
    if (accepted) min[`${key}.acceptedAt`] = at;
    // Only a receiver accepts or rejects (a completed offer was accepted before: $min keeps that
    // time); in a chain each other member answers for themselves, the first time they accepted or
    // their own rejection (another's rejection ended it unanswered for them).
    const rejected = offer.status === 'Rejected' && (!chain || offer.actorId === me);
    if (me !== offer.senderId && (chain ? agreed || rejected : accepted || rejected)) min[`${key}.answeredAt`] = at;
    const set: Record<string, unknown> = { [`${key}.with`]: other };
    if (ended) Object.assign(set, { [`${key}.ended`]: offer.status, [`${key}.endedAt`]: at, [`${key}.endedBy`]: offer.actorId ?? '' });
    await ctx.parties.updateOne({ _id: me, [key]: { $exists: true } }, { $set: set, ...(Object.keys(min).length ? { $min: min } : {}) });
    await changeStanding(ctx, me, (doc) => {
      const facts = factsOf(doc);
      return JSON.stringify(facts) === JSON.stringify(doc.reliability) ? undefined : { reliability: facts };
    });
  }
}

/** A member's reliability facts from their offer entries (what is left to the clock stays in `openSince`). */
function factsOf(doc: Pick<PartyDoc, '_id' | 'offers'>): ReliabilityFacts {
  const facts: ReliabilityFacts = { answeredInTime: 0, answeredLate: 0, endedUnanswered: 0, openSince: [], responseMinutes: [], completed: 0, cancelledBySelf: 0, trades: 0, sample: 0 };
  const counted = new Set<string>();
  const answers: { at: number; minutes: number }[] = [];
  const completed: { with: string; at: number }[] = [];
  for (const [key, e] of Object.entries(doc.offers ?? {})) {
    const received = +new Date(e.at);
    if (!e.sent) {
      if (e.answeredAt) {
        const took = +new Date(e.answeredAt) - received;
        if (took <= ANSWER_MS) facts.answeredInTime++;
        else facts.answeredLate++;
        answers.push({ at: +new Date(e.answeredAt), minutes: Math.max(0, Math.round(took / 60_000)) });
        counted.add(key);
      } else if (e.ended) {
        // Withdrawn or cancelled before its 48 hours were up: the receiver had no fair chance; left out.
        if (+new Date(e.endedAt ?? e.at) - received >= ANSWER_MS) {
          facts.endedUnanswered++;
          counted.add(key);
        }
      } else {
        facts.openSince.push(new Date(received).toISOString());
      }
    }
    if (e.acceptedAt && e.ended === 'Completed') {
      facts.completed++;
      counted.add(key);
      completed.push({ with: e.with ?? '', at: +new Date(e.endedAt ?? e.acceptedAt) });
    } else if (e.acceptedAt && e.ended === 'Cancelled' && e.endedBy === doc._id) {
      facts.cancelledBySelf++;
      counted.add(key);
    }
  }
  facts.openSince.sort();
  facts.responseMinutes = answers
    .sort((a, b) => a.at - b.at)
    .slice(-RESPONSES_KEPT)
    .map((a) => a.minutes);
  // The same member once per 30 days: a trade counts when the last one counted with them is that old.
  const last = new Map<string, number>();
  for (const t of completed.sort((a, b) => a.at - b.at)) {
    const before = last.get(t.with);
    if (before !== undefined && t.at - before < SAME_MEMBER_MS) continue;
    last.set(t.with, t.at);
    facts.trades++;
  }
  facts.sample = counted.size;
  return facts;
}
