// The pure rules of the 'Voorbeeld Items' carousel (spec 1 §2, "Landing graphics"), apart from the
// component so they are tested without a browser.

/** The 14 example categories, ids 1 to 14, captions in the spec's order. */
export const exampleItems = [
  { id: 1, caption: 'Elektronica' },
  { id: 2, caption: 'Plant' },
  { id: 3, caption: 'Boek' },
  { id: 4, caption: 'Games & entertainment' },
  { id: 5, caption: 'Kleding' },
  { id: 6, caption: 'Rugzak' },
  { id: 7, caption: 'Koffiezetapparaat' },
  { id: 8, caption: 'Pokemon kaarten' },
  { id: 9, caption: 'Horloge' },
  { id: 10, caption: 'Huishoudapparaten' },
  { id: 11, caption: 'Kastje' },
  { id: 12, caption: 'Creatief' },
  { id: 13, caption: 'Kinderspullen' },
  { id: 14, caption: 'Sport- en hobbyspullen' },
] as const;

export type ExampleItemId = (typeof exampleItems)[number]['id'];

/** The index `step` places away from `index`, wrapping around at both ends. */
export function wrapIndex(index: number, step: number, length: number): number {
  if (length <= 0) return 0;
  return (((index + step) % length) + length) % length;
}

/** Horizontal distance in CSS pixels a swipe or mouse drag must cover to move the carousel. */
export const swipeThreshold = 50;

/**
 * The step a finished swipe or drag makes: +1 (next) when it went left, -1 (previous) when it went
 * right, 0 when it was too short or more vertical than horizontal (then it was a scroll, not a swipe).
 */
export function swipeStep(dx: number, dy: number, threshold = swipeThreshold): -1 | 0 | 1 {
  if (Math.abs(dx) < threshold || Math.abs(dx) <= Math.abs(dy)) return 0;
  return dx < 0 ? 1 : -1;
}

/** The step an arrow key makes. */
export function keyStep(key: string): -1 | 0 | 1 {
  if (key === 'ArrowLeft') return -1;
  if (key === 'ArrowRight') return 1;
  return 0;
}
