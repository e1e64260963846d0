// Pure helpers of the chain page (issue 24): a suggested swap chain in words. The participants are
// in ring order: each gives to the next, the last to the first.
import type { chainApi, ResponseOf } from '@ruilplein/contracts/browser';

export type ChainSuggestion = ResponseOf<typeof chainApi.suggestions>[number];
type Member = ChainSuggestion['participants'][number];

/** The member after `index` in the ring: the one `participants[index]` gives to. */
export const receiverOf = (chain: ChainSuggestion, index: number): Member => chain.participants[(index + 1) % chain.participants.length]!;

/** Each member's step, in ring order: 'Anna geeft Racefiets aan Bram'. */
export function ringSentences(chain: ChainSuggestion): string[] {
  return chain.participants.map((p, i) => `${p.firstName} geeft ${p.gives.title} aan ${receiverOf(chain, i).firstName}`);
}

/** The members in ring order starting with the viewer (the answer may start anywhere); as is without them. */
function fromViewer(chain: ChainSuggestion, me: string | undefined): Member[] {
  const start = Math.max(0, chain.participants.findIndex((p) => p.userId === me));
  return chain.participants.map((_, i) => chain.participants[(start + i) % chain.participants.length]!);
}

/** The ring from the viewer's side, once round: 'Jij → Bram → Cas → jij' (without the viewer: from the first member). */
export function ringLine(chain: ChainSuggestion, me: string | undefined): string {
  const rotated = fromViewer(chain, me);
  const name = (p: Member, last = false) => (p.userId === me ? (last ? 'jij' : 'Jij') : p.firstName);
  return [...rotated.map((p) => name(p)), name(rotated[0]!, true)].join(' → ');
}

/** The other members' first names in ring order from the viewer, as Dutch prose: 'Bram', 'Bram en Cas'. */
export function othersOf(chain: ChainSuggestion, me: string | undefined): string {
  const names = fromViewer(chain, me)
    .filter((p) => p.userId !== me)
    .map((p) => p.firstName);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} en ${names[names.length - 1]}`;
}

/** The question before proposing: who get a notice and must accept. */
export function proposeQuestion(chain: ChainSuggestion, me: string | undefined): string {
  const others = chain.participants.filter((p) => p.userId !== me).length;
  return `Je stelt deze ruilketen voor aan ${othersOf(chain, me)}. ${others > 1 ? 'Zij krijgen een melding en moeten allebei accepteren.' : 'Die krijgt een melding en moet accepteren.'}`;
}

/** The suggestion with this id among the caller's, if it still holds. */
export const chainById = (chains: readonly ChainSuggestion[], id: string) => chains.find((c) => c.id === id);

