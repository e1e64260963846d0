import { DIGEST_TIME_ZONE } from '@ruilplein/contracts';

const dutchDate = new Intl.DateTimeFormat('nl-NL', { timeZone: DIGEST_TIME_ZONE, day: 'numeric', month: 'long', year: 'numeric' });
const dutchDateTime = new Intl.DateTimeFormat('nl-NL', { timeZone: DIGEST_TIME_ZONE, day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** '3 december 2026', Dutch time. */
export const dateInDutch = (at: Date | string) => dutchDate.format(new Date(at));
/** '3 december 2026 om 14:05', Dutch time. */
export const dateTimeInDutch = (at: Date | string) => dutchDateTime.format(new Date(at));
