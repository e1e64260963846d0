// The steps the table reports, in the order a member meets them, with the goals (issue 25:
// p99 per step <= 500 ms, photo uploads <= 2 s) and whether the smoke run must see each.

interface StepDef {
  /** p99 goal in ms; null: not the platform's answer to a member (the dev mail outbox, polling). */
  goalMs: number | null;
  /** The smoke run fails when a required step never ran. */
  required: boolean;
}

const step = (goalMs: number | null, required = false): StepDef => ({ goalMs, required });

export const STEPS = {
  'signin.register': step(500, true),
  // Reading the local outbox for the activation mail (/dev/mail): local mode's stand-in for a mailbox.
  'signin.mail': step(null),
  'signin.activate': step(500, true),
  'signin.login': step(500, true),
  'premium.start': step(500),
  'premium.checkout': step(500),
  'premium.status': step(500),
  'premium.subscribe': step(500),
  'profile.my': step(500),
  'search.browse': step(500, true),
  'search.keywords': step(500, true),
  'listing.view': step(500),
  'wishlist.exists': step(500),
  'wishlist.add': step(500, true),
  'wishlist.list': step(500),
  'category.list': step(500),
  'listing.create': step(2000, true),
  'listing.my': step(500),
  'offer.inventory': step(500),
  'offer.send': step(500, true),
  'offer.list': step(500, true),
  'offer.accept': step(500, true),
  'offer.reject': step(500),
  'offer.confirm': step(500, true),
  'review.add': step(500, true),
  'chat.history': step(500, true),
  'chat.connect': step(500, true),
  'chat.send': step(500, true),
  // From the send leaving the member to ReceiveMessage on each socket in the offer's room.
  'chat.delivery': step(500, true),
} as const satisfies Record<string, StepDef>;
export type Step = keyof typeof STEPS;

export const STEP_ORDER = Object.keys(STEPS) as Step[];

export const REQUIRED_STEPS = STEP_ORDER.filter((s) => STEPS[s].required);

/** The p99 goal of a step by name; null for a step without one (or one this list does not know). */
export const goalOf = (name: string): number | null => (name in STEPS ? STEPS[name as Step].goalMs : null);
