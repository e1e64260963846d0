// The trade service's HTTP routes. Each route spreads its zod-free ref (refs.ts) and adds what the
// service validates with.
import { z } from 'zod';
import { DEFAULT_CRATE } from '../listing/rules.ts';
import { defineRoute, type RouteDef } from '../routes.ts';
import { isCleanText, TEXT_MESSAGES } from '../text.ts';
import { OFFER_STATUSES } from './events.ts';
import { tradeRefs } from './refs.ts';
import {
  isValidDay,
  isValidRating,
  OFFER_ITEMS_MAX,
  OFFER_MESSAGE_MAX_LENGTH,
  OFFER_MESSAGES,
  OFFER_RESPONSES,
  offerMessage,
  REVIEW_COMMENT_MAX_LENGTH,
  REVIEW_MESSAGES,
} from './rules.ts';

/** A member's id (auth's ObjectId, 24 hex digits), lowercased as every service keys it. */
const memberId = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .regex(/^[0-9a-f]{24}$/i, OFFER_MESSAGES.invalidMember)
    .toLowerCase();

/** A listing's id (24 hex digits, lowercased). */
const listingId = z
  .string({ error: OFFER_MESSAGES.listingRequired })
  .trim()
  .regex(/^[0-9a-f]{24}$/i, OFFER_MESSAGES.invalidListing)
  .toLowerCase();

/** A listing of an offer's item, or the default crate (`krat-bier`, spec 2 §1). */
const itemListingId = z
  .string({ error: OFFER_MESSAGES.invalidListing })
  .trim()
  .toLowerCase()
  .refine((id) => id === DEFAULT_CRATE.listingID || /^[0-9a-f]{24}$/.test(id), OFFER_MESSAGES.invalidListing);

/** The first value of a query parameter sent more than once. */
const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);

/** An offer's number in a path: a positive integer, as the seed shows it ('Ruilaanbieding #12'). */
export const OfferIdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,14}$/, OFFER_MESSAGES.invalidId)
    .transform(Number),
});

// Offers

/** The payload of spec 2 §3: the sender is the caller, each item names its owner (`userID`). */
export const CreateOfferRequestSchema = z
  .object({
    /** Optional; when sent, the caller's own id (another is a 403). */
    senderID: memberId(OFFER_MESSAGES.invalidMember).optional(),
    receiverID: memberId(OFFER_MESSAGES.receiverRequired),
    listingOfferedOnID: listingId,
    /** Trimmed; empty or absent: 'Zullen we ruilen? 😄'. */
    message: z
      .string()
      .trim()
      .max(OFFER_MESSAGE_MAX_LENGTH, OFFER_MESSAGES.messageTooLong)
      .refine(isCleanText, TEXT_MESSAGES.forbiddenCharacters)
      .nullish()
      .transform((m) => offerMessage(m)),
    /** Listings of the sender and of the receiver (the crate as `krat-bier`); duplicates count once. */
    items: z
      .array(z.object({ listingID: itemListingId, userID: memberId(OFFER_MESSAGES.invalidMember) }), { error: OFFER_MESSAGES.invalidListing })
      .max(OFFER_ITEMS_MAX, OFFER_MESSAGES.tooManyItems)
      .optional()
      .transform((items) => items ?? []),
  })
  .meta({ id: 'CreateOfferRequest' });
export type CreateOfferRequest = z.input<typeof CreateOfferRequestSchema>;

/**
 * A counter-offer (issue 24): the receiver of a Pending offer answers with other items, from both
 * sides, and a message. `listingOfferedOnID`: the other party's listing it is made on (default:
 * the first of their items chosen).
 */
export const CounterOfferRequestSchema = CreateOfferRequestSchema.pick({ message: true, items: true })
  .extend({ listingOfferedOnID: listingId.optional() })
  .meta({ id: 'CounterOfferRequest' });
export type CounterOfferRequest = z.input<typeof CounterOfferRequestSchema>;

export const OfferPartySchema = z
  .object({ id: z.string(), firstName: z.string(), lastName: z.string(), profilePicture: z.string() })
  .meta({ id: 'OfferParty' });
export type OfferParty = z.infer<typeof OfferPartySchema>;

/** A listing in an offer as it was when the offer was made (or the crate). */
export const OfferItemSchema = z
  .object({
    listingID: z.string(),
    /** The item's owner: the sender (offered) or the receiver (requested). */
    userID: z.string(),
    title: z.string(),
    description: z.string(),
    imageUrl: z.string(),
    thumbnailUrl: z.string(),
    /** The crate of beer every member has (DEFAULT_CRATE). */
    isDefault: z.boolean(),
  })
  .meta({ id: 'OfferItem' });
export type OfferItem = z.infer<typeof OfferItemSchema>;

/** A member of a three-party offer: who they are, what they give (to `givesTo`) and receive (from `receivesFrom`). */
export const OfferParticipantSchema = OfferPartySchema.extend({
  gives: z.array(OfferItemSchema),
  receives: z.array(OfferItemSchema),
  givesTo: z.string(),
  receivesFrom: z.string(),
  accepted: z.boolean(),
  confirmed: z.boolean(),
}).meta({ id: 'TradeOfferParticipant' });
export type OfferParticipant = z.infer<typeof OfferParticipantSchema>;

export const OfferSchema = z
  .object({
    id: z.number().int().positive(),
    senderID: z.string(),
    receiverID: z.string(),
    sender: OfferPartySchema,
    receiver: OfferPartySchema,
    status: z.enum(OFFER_STATUSES),
    message: z.string(),
    senderConfirmed: z.boolean(),
    receiverConfirmed: z.boolean(),
    /** The receiver's listing the offer was made on. */
    listingOfferedOnID: z.string(),
    listingOfferedOn: OfferItemSchema,
    /** The receiver's items the sender asks for ('Zij bieden aan'). */
    requestedListings: z.array(OfferItemSchema),
    /** The sender's items ('Jij biedt aan'). */
    offeredListings: z.array(OfferItemSchema),
    /** Both sides together, requested first. */
    items: z.array(OfferItemSchema),
    createdAt: z.iso.datetime(),
    /** The last change (status or confirmation). */
    updatedAt: z.iso.datetime(),
    /** The offer this one counters, and the offer that countered this one (issue 24; null: none). It ended as Rejected. */
    counterOf: z.number().int().positive().nullable(),
    counteredBy: z.number().int().positive().nullable(),
    /**
     * A three-party offer (a swap chain, issue 24): its members in ring order, each with what they
     * give to whom and where they stand. Absent for a two-party offer, whose answer stays the
     * seed's; `sender` is then the proposer and `receiver` the member who gives to them.
     */
    participants: z.array(OfferParticipantSchema).optional(),
    /** The swap chain a three-party offer was proposed from. */
    chainId: z.string().optional(),
  })
  .meta({ id: 'TradeOffer' });
export type Offer = z.infer<typeof OfferSchema>;

export const OfferCountQuerySchema = z.object({
  /** Optional; when sent, the caller's own id. */
  userId: z.preprocess(first, z.string().max(60).optional()),
  /** Year-month-day, a day in the Netherlands; today when absent. */
  date: z.preprocess(
    first,
    z
      .string({ error: OFFER_MESSAGES.invalidDate })
      .trim()
      .refine((d) => d === '' || isValidDay(d), OFFER_MESSAGES.invalidDate)
      .optional()
      .transform((d) => d || undefined),
  ),
});

export const OfferCountSchema = z
  .object({
    /** Offers the member made that day (withdrawn and refused ones included). */
    count: z.number().int().min(0),
    date: z.string(),
    /** Offers a day the member may make; null: unlimited (Premium, admins). */
    limit: z.number().int().positive().nullable(),
  })
  .meta({ id: 'OfferCount' });

export const RespondQuerySchema = z.object({
  /** Accepted or Rejected (the receiver), Cancelled (the sender), in any case. */
  status: z.preprocess(
    (v) => {
      const s = first(v);
      return typeof s === 'string' ? (OFFER_RESPONSES.find((r) => r.toLowerCase() === s.trim().toLowerCase()) ?? s) : s;
    },
    z.enum(OFFER_RESPONSES, { error: OFFER_MESSAGES.invalidStatus }),
  ),
});

// Reviews

export const AddReviewRequestSchema = z
  .object({
    revieweeID: memberId(REVIEW_MESSAGES.revieweeRequired),
    /** 1 to 5 stars in half steps; 0 or none: 'Je moet een beoordeling geven.' */
    rating: z.number({ error: REVIEW_MESSAGES.ratingRequired }).superRefine((rating, ctx) => {
      if (rating === 0) ctx.addIssue({ code: 'custom', message: REVIEW_MESSAGES.ratingRequired });
      else if (!isValidRating(rating)) ctx.addIssue({ code: 'custom', message: REVIEW_MESSAGES.invalidRating });
    }),
    /** Optional; shown as 'Geen commentaar.' when empty. */
    comment: z
      .string()
      .trim()
      .max(REVIEW_COMMENT_MAX_LENGTH, REVIEW_MESSAGES.commentTooLong)
      .refine(isCleanText, TEXT_MESSAGES.forbiddenCharacters)
      .nullish()
      .transform((c) => c ?? ''),
    /**
     * The completed trade the review is about. The seed's client does not send it: then the oldest
     * completed trade with the reviewee that the caller has not reviewed yet.
     */
    tradeOfferId: z.number().int().positive().optional(),
  })
  .meta({ id: 'AddReviewRequest' });
export type AddReviewRequest = z.input<typeof AddReviewRequestSchema>;

export const ReviewSchema = z
  .object({
    id: z.string(),
    tradeOfferId: z.number().int().positive(),
    rating: z.number(),
    /** Empty when none was given. */
    comment: z.string(),
    reviewer: OfferPartySchema,
    revieweeID: z.string(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Review' });
export type Review = z.infer<typeof ReviewSchema>;

const MemberIdParams = z.object({ id: memberId(OFFER_MESSAGES.invalidMember) });
const MemberUserIdParams = z.object({ userId: memberId(OFFER_MESSAGES.invalidMember) });

export const tradeRoutes = {
  my: defineRoute({
    ...tradeRefs.my,
    summary: 'Eigen ruilaanbiedingen, gedaan en ontvangen, nieuwste eerst',
    response: z.array(OfferSchema),
  }),
  count: defineRoute({
    ...tradeRefs.count,
    summary: 'Hoeveel ruilaanbiedingen het lid op een dag (in Nederland) deed, en de daglimiet',
    query: OfferCountQuerySchema,
    response: OfferCountSchema,
  }),
  create: defineRoute({
    ...tradeRefs.create,
    summary: 'Ruilaanbod doen op de listing van een ander lid, met items van beide kanten (of het Krat Bier); 2 per dag zonder Premium',
    body: CreateOfferRequestSchema,
    response: OfferSchema,
    status: 201,
  }),
  respond: defineRoute({
    ...tradeRefs.respond,
    summary: 'Een aanbod in afwachting accepteren of afwijzen (ontvanger) of intrekken (afzender)',
    params: OfferIdParamsSchema,
    query: RespondQuerySchema,
    response: OfferSchema,
  }),
  counter: defineRoute({
    ...tradeRefs.counter,
    summary: 'Een tegenbod doen op een aanbod in afwachting (ontvanger): een nieuw aanbod aan de afzender; het oude eindigt als afgewezen, met een verwijzing',
    params: OfferIdParamsSchema,
    body: CounterOfferRequestSchema,
    response: OfferSchema,
    status: 201,
  }),
  confirm: defineRoute({
    ...tradeRefs.confirm,
    summary: 'Een geaccepteerde ruil bevestigen (elke partij eenmaal); beide bevestigd: voltooid',
    params: OfferIdParamsSchema,
    response: OfferSchema,
  }),
  get: defineRoute({
    ...tradeRefs.get,
    summary: 'Eén ruilaanbod, voor zijn twee partijen en beheerders',
    params: OfferIdParamsSchema,
    response: OfferSchema,
  }),
  addReview: defineRoute({
    ...tradeRefs.addReview,
    summary: 'De andere partij van een voltooide ruil beoordelen (eenmaal per ruil), 1 tot 5 sterren in halve stappen',
    body: AddReviewRequestSchema,
    response: ReviewSchema,
    status: 201,
  }),
  hasReviewed: defineRoute({
    ...tradeRefs.hasReviewed,
    summary: 'Of de vrager dit lid beoordeelde: voor die ruil (tradeOfferId), of voor elke voltooide ruil met hem',
    params: MemberUserIdParams,
    query: z.object({ tradeOfferId: z.preprocess(first, z.string().regex(/^[1-9]\d{0,14}$/, OFFER_MESSAGES.invalidId).transform(Number).optional()) }),
    response: z.object({ hasReviewed: z.boolean() }),
  }),
  reviews: defineRoute({
    ...tradeRefs.reviews,
    summary: 'Ontvangen reviews van een lid, nieuwste eerst, met naam en foto van wie beoordeelde',
    params: MemberIdParams,
    response: z.array(ReviewSchema),
  }),
} satisfies Record<keyof typeof tradeRefs, RouteDef>;
