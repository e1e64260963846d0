import { queryOptions } from '@tanstack/react-query';
import type { RouteRef } from '@ruilplein/contracts/browser';
import { request } from './client.ts';

// The trade service's route, until its issue declares it in contracts (trade/refs.ts) and this
// takes it from there; today nothing serves it, and the count stays 0.
const countRef: RouteRef<undefined, { userId: string; date: string }, undefined, { count?: unknown }> = {
  service: 'trade',
  method: 'get',
  path: '/api/tradeoffer/count',
  access: 'user',
};

const amsterdamDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The Europe/Amsterdam calendar day as year-month-day, the date the offer count is asked for (spec 1 §5). */
export function calendarDay(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new Error('Ongeldige datum');
  return amsterdamDay.format(date);
}

/** Trade offers the member made on `date` (today unless told); 0, with a warning in the console, when it cannot be fetched. */
export async function fetchAmountOfTrades(userId: string, date: Date = new Date(), signal?: AbortSignal): Promise<number> {
  try {
    const answer = await request(countRef, { query: { userId, date: calendarDay(date) }, signal });
    return typeof answer?.count === 'number' ? answer.count : 0;
  } catch (err) {
    if (signal?.aborted) throw err;
    console.warn(err instanceof Error && err.message === 'Ongeldige datum' ? 'Ongeldige datum' : 'Kan aantal trade offers niet ophalen', err);
    return 0;
  }
}

/**
 * Today's count of the session's member as a query (the session passes its own member's id, never
 * one from a page). Kept for the day it is asked on; asked again after 5 minutes of use.
 */
export const amountOfTradesQuery = (userId: string) =>
  queryOptions({
    queryKey: ['tradeoffer', 'count', userId, calendarDay(new Date())] as const,
    queryFn: ({ signal }) => fetchAmountOfTrades(userId, new Date(), signal),
    staleTime: 5 * 60_000,
    retry: false,
  });
