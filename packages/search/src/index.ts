// The search engine, without a store, NATS or HTTP: the listing service feeds it events and asks it
// questions; time always comes in as an argument (the platform's clock lives in the service kit).
export { ListingIndex, type ListingState } from './listings.ts';
export { MemberTable } from './members.ts';
export { SearchEngine, type CategoryNames, type SearchFilters } from './query.ts';
export { InterestBook, INTEREST_WINDOW_MS } from './interest.ts';
// For saved-search alerts: one listing against one search.
export { compileFilters, listingPasses, matches, prepareListing, viewerAt, viewerMay, wantsListing, type CompiledFilters, type MatchFilters, type PreparedListing, type Viewer } from './matches.ts';
// Saved-search alerts and the demand preview group members by place with the same geometry.
export { chord2ForKm, kmForChord2, roundKm, toVec, type Vec3 } from './geo.ts';
export type { Column, TableImage } from './slots.ts';
export type { QueryWord } from './text.ts';
