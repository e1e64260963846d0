/** The fixed contact address of the footer, the contact page and the legal pages (spec 1 §2, "Footer"). */
export const contactEmail = 'info@ruilplein.nl';

/** Shown when a member has no profile picture, and for guests (spec 1 §3). */
export { DEFAULT_AVATAR as defaultAvatar } from '@ruilplein/contracts/browser';
