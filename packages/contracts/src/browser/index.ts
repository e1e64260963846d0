// `@ruilplein/contracts/browser`: what frontends share with the services without pulling zod into
// a bundle (docs/architecture.md "Contracts"): rules, limits, patterns, roles, Dutch messages, the
// typed route refs for the API client, and the types of what the API answers (types only).
// Nothing imported here at run time may import zod; test/browser.unit.test.ts checks it.

export * from '../auth/rules.ts';
export * from '../auth/password-checklist.ts';
export * from '../auth/suspensions.ts';
export * from '../membership.ts';
export * from '../text.ts';
export * from '../listing/rules.ts';
export * from '../trade/rules.ts';
export * from '../chat/rules.ts';
export * from '../moderation/rules.ts';
export * from '../payment/rules.ts';
export * from '../payment/after-cancel.ts';
export * from '../notification/rules.ts';
export * from '../chain/rules.ts';
export * from './route-ref.ts';
export * from './api.ts';
export type { ServiceName } from '../routes.ts';

export type { AccountStatus, AdminUser, BlockedMember, Place, PublicStats, PublicUser, SessionUser, User, UpdateProfileForm, RegisterRequest } from '../auth/routes.ts';
export type { Category, Demand, InventoryItem, Listing, ListingCard, ListingFormInput, PublicListing, SavedSearch, SavedSearchFilters, WishlistEntry } from '../listing/routes.ts';
export type { CreateOfferRequest, Offer, OfferItem, OfferParty, Review } from '../trade/routes.ts';
export type { OfferStatus } from '../trade/events.ts';
export type { ChatMessage, SendChatMessageRequest } from '../chat/routes.ts';
export type { Subscription } from '../payment/routes.ts';
export type { MailPreferences, Notification } from '../notification/routes.ts';
export type { AdminStats, Ban, CreateBanRequest, CreateReportRequest, CreateWarningRequest, Report, Warning } from '../moderation/routes.ts';
export type { ErrorBody } from '../errors.ts';
