// The demand preview's sentence (issue 23): how many members nearby look for what one is about to
// list. A count under the service's threshold comes as `few`, and then no number is shown at all.
import type { Demand } from '@ruilplein/contracts/browser';

/** 'Ongeveer 14 leden binnen 10 km zoeken dit.'; with `few` a sentence without a count. */
export function demandSentence({ members, few }: Pick<Demand, 'members' | 'few'>, distanceKm: number): string {
  if (few || members <= 0) return `Binnen ${distanceKm} km zoeken nog weinig of geen leden dit.`;
  return members === 1 ? `Ongeveer 1 lid binnen ${distanceKm} km zoekt dit.` : `Ongeveer ${members} leden binnen ${distanceKm} km zoeken dit.`;
}
