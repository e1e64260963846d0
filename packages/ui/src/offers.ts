import { amsterdamDay, tradeApi } from '@ruilplein/contracts/browser';
import { apiQuery } from './query.ts';

/**
 * Today's offer count of a member (spec 1 §4, §6): the trade service's count and limit for the day
 * in the Netherlands, as the query of that contract route. One cache entry for everyone who reads
 * it: the session (for its own member), the offer page (`useApi(tradeApi.count, { query: { userId,
 * date: amsterdamDay() } })`, the same route and input, so the same key) and the listing page
 * through the session. A sent offer updates that entry (`Session.setAmountOfTrades`) and marks it
 * stale; nothing copies it from one key to another.
 */
export const offerCountQuery = (userId: string, date: string = amsterdamDay()) => apiQuery(tradeApi.count, { query: { userId, date } });
