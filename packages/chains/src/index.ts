// Swap chains (issue 24) without a store, NATS or HTTP: the service feeds the engine member,
// listing, wish and block changes and asks it for a member's chains; time comes in as an argument.
export { ChainEngine, type ChainParticipant, type ChainSuggestion, type ListingInput, type MemberInput } from './engine.ts';
