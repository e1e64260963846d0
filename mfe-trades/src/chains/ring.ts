// Pure helpers of the chain page (issue 24): a suggested swap chain in words. The participants are
// in ring order: each gives to the next, the last to the first.
import { otherMembers, type chainApi, type ResponseOf } from '@ruilplein/contracts/browser';

export type ChainSuggestion = ResponseOf<typeof chainApi.suggestions>[number];
type Member = ChainSuggestion['participants'][number];

/** The member after `index` in the ring: the one `participants[index]` gives to. */
export const receiverOf = (chain: ChainSuggestion, index: number): Member => chain.participants[(index + 1) % chain.participants.length]!;

/** Each member's step, in ring order: 'Anna geeft Racefiets aan Bram'. */
export function ringSentences(chain: ChainSuggestion): string[] {
  return chain.participants.map((p, i) => `${p.firstName} geeft ${p.gives.title} aan ${receiverOf(chain, i).firstName}`);
}

/** The question before proposing: who get a notice and must accept. */
export function proposeQuestion(chain: ChainSuggestion, me: string | undefined): string {
  const others = chain.participants.filter((p) => p.userId !== me).length;
  return `Je stelt deze ruilketen voor aan ${otherMembers(chain, me)}. ${others > 1 ? 'Zij krijgen een melding en moeten allebei accepteren.' : 'Die krijgt een melding en moet accepteren.'}`;
}

/** The suggestion with this id among the caller's, if it still holds. */
export const chainById = (chains: readonly ChainSuggestion[], id: string) => chains.find((c) => c.id === id);

