// What a cancelled Premium means, in the words of the membership screen and of the mail after
// cancelling (issue 27): Premium lasts until the end of the paid period, then the Standard limits
// hold again. Zod-free: exported by `@ruilplein/contracts/browser` as well.
import { FREE_ACTIVE_LISTINGS_MAX } from '../listing/rules.ts';
import { OFFER_DAILY_LIMIT } from '../trade/rules.ts';

/** `until`: the end of the paid period as the reader's date ('26 december 2026'). */
export const premiumAfterCancel = (until: string): string =>
  `Je houdt Premium tot ${until}. Daarna word je weer Standaard-lid: je kunt dan tot ${FREE_ACTIVE_LISTINGS_MAX} actieve listings hebben en ` +
  `${OFFER_DAILY_LIMIT} ruilverzoeken per dag doen. Wat je al hebt geplaatst blijft staan, en je kunt altijd opnieuw Premium nemen.`;
