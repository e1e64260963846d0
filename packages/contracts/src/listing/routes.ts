// The listing service's HTTP routes. Each route spreads its zod-free ref (refs.ts) and adds what the
// service validates with.
import { z } from 'zod';
import { MessageSchema } from '../auth/routes.ts';
import { defineRoute, type RouteDef } from '../routes.ts';
import { isCleanLine, isCleanText, TEXT_MESSAGES } from '../text.ts';
import { categoryRefs, listingRefs, savedSearchRefs, wishlistRefs } from './refs.ts';
import {
  BARTER_MODES,
  DEMAND_DEFAULT_DISTANCE_KM,
  LISTING_CATEGORIES_MIN,
  LISTING_DESCRIPTION_MAX_LENGTH,
  LISTING_MESSAGES,
  LISTING_PHOTOS_MAX,
  LISTING_PHOTOS_MAX_TOTAL_BYTES,
  LISTING_TITLE_MAX_LENGTH,
  LISTING_TYPES,
  listingValueProblem,
  parseListingValue,
  RECENT_LISTINGS_MAX,
  RECOMMENDATION_RADII_KM,
  SAVED_SEARCH_ALERTS,
  SAVED_SEARCH_MESSAGES,
  SAVED_SEARCH_NAME_MAX_LENGTH,
  SAVED_SEARCH_QUERY_MAX_LENGTH,
  SEARCH_MAX_DISTANCE_KM,
  SEARCH_MAX_TAKE,
  SEARCH_MESSAGES,
  SEARCH_PAGE_SIZE,
  SEARCH_QUERY_MAX_LENGTH,
  SEARCH_SUGGESTIONS_MAX,
} from './rules.ts';

export const CategorySchema = z
  .object({
    id: z.string(),
    name: z.string().min(1).max(60),
    /** Name of the icon in the frontend's icon set. */
    icon: z.string().min(1).max(60),
    isPremium: z.boolean(),
  })
  .meta({ id: 'Category' });
export type Category = z.infer<typeof CategorySchema>;

export const categoryRoutes = {
  list: defineRoute({
    ...categoryRefs.list,
    summary: 'Alle categorieën, premium-categorieën gemarkeerd',
    response: z.array(CategorySchema),
  }),
} satisfies Record<keyof typeof categoryRefs, RouteDef>;

// Listings

/** `item` or `service`, in any case (the seed sends both `item` and `Item`). */
export const ListingTypeSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
  z.enum(LISTING_TYPES, { error: LISTING_MESSAGES.invalidType }),
);

/** A form's yes/no: `true`/`false` in any case, `on`, `1`/`0`; absent is no. */
const FormBoolean = z.preprocess((v) => {
  const text = Array.isArray(v) ? v[0] : v;
  if (text === undefined || text === null || text === '') return false;
  if (typeof text === 'boolean') return text;
  const t = String(text).trim().toLowerCase();
  return t === 'true' || t === 'on' || t === '1' ? true : t === 'false' || t === 'off' || t === '0' ? false : t;
}, z.boolean({ error: 'Kies ja of nee.' }));

const text = (max: number, required: string, tooLong: string, clean: (text: string) => boolean) =>
  z.preprocess(
    (v) => (Array.isArray(v) ? v[0] : v),
    z.string({ error: required }).trim().min(1, required).max(max, tooLong).refine(clean, TEXT_MESSAGES.forbiddenCharacters),
  );

/**
 * The fields of the add and edit forms (multipart). The seed names them differently per call
 * (`title` on create, `Title` on update): names are matched without regard to case.
 * `initialValue` with a dot or comma, empty for none; `CategoryIDs` repeated or comma-separated.
 */
export const ListingFormSchema = z
  .preprocess(
    (raw) => (raw && typeof raw === 'object' ? Object.fromEntries(Object.entries(raw).map(([k, v]) => [k.toLowerCase(), v])) : raw),
    z.object({
      title: text(LISTING_TITLE_MAX_LENGTH, LISTING_MESSAGES.titleRequired, LISTING_MESSAGES.titleTooLong, isCleanLine),
      description: text(LISTING_DESCRIPTION_MAX_LENGTH, LISTING_MESSAGES.descriptionRequired, LISTING_MESSAGES.descriptionTooLong, isCleanText),
      initialvalue: z
        .preprocess((v) => (Array.isArray(v) ? v[0] : v), z.union([z.string(), z.number()]).optional())
        .transform((v, ctx) => {
          const value = typeof v === 'number' ? v : v === undefined ? undefined : parseListingValue(v);
          const problem = listingValueProblem(value);
          if (problem) {
            ctx.addIssue({ code: 'custom', message: problem });
            return z.NEVER;
          }
          // Whole cents: the value is kept and compared in cents.
          return value === undefined ? null : Math.round(value * 100) / 100;
        }),
      ispremium: FormBoolean,
      listingtype: ListingTypeSchema,
      acceptsitems: FormBoolean,
      categoryids: z
        .preprocess(
          (v) =>
            (Array.isArray(v) ? v : v === undefined ? [] : [v])
              .flatMap((item) => String(item).split(','))
              .map((id) => id.trim())
              .filter(Boolean),
          z.array(z.string().max(60, LISTING_MESSAGES.unknownCategory)).min(LISTING_CATEGORIES_MIN, LISTING_MESSAGES.categoryRequired).max(20, LISTING_MESSAGES.unknownCategory),
        )
        .transform((ids) => [...new Set(ids)]),
    }),
  )
  .transform((f) => ({
    title: f.title,
    description: f.description,
    initialValue: f.initialvalue,
    isPremium: f.ispremium,
    listingType: f.listingtype,
    // Only a service can accept items in exchange (spec 2 §4).
    acceptsItems: f.listingtype === 'service' && f.acceptsitems,
    categoryIds: f.categoryids,
  }))
  .meta({ id: 'ListingForm' });
export type ListingForm = z.output<typeof ListingFormSchema>;
export type ListingFormInput = {
  title?: string;
  Title?: string;
  description?: string;
  Description?: string;
  initialValue?: string;
  isPremium?: string | boolean;
  IsPremium?: string | boolean;
  listingType?: string;
  ListingType?: string;
  acceptsItems?: string | boolean;
  AcceptsItems?: string | boolean;
  CategoryIDs?: string | string[];
};

/** Photos of the add (`images`) and edit (`Images`) forms (either name on both): each file at most the total. */
const photoField = { maxBytes: LISTING_PHOTOS_MAX_TOTAL_BYTES, maxCount: LISTING_PHOTOS_MAX, tooLarge: LISTING_MESSAGES.photosTooLarge };
export const LISTING_PHOTO_FIELDS = { images: photoField, Images: photoField };
/** Both fields together: five photos and 20 MB at most, so a form is never read beyond that. */
export const LISTING_PHOTO_FORM = {
  files: LISTING_PHOTO_FIELDS,
  total: { maxBytes: LISTING_PHOTOS_MAX_TOTAL_BYTES, maxCount: LISTING_PHOTOS_MAX, tooLarge: LISTING_MESSAGES.photosTooLarge, tooMany: LISTING_MESSAGES.tooManyPhotos },
};

export const ListingOwnerSchema = z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), city: z.string().optional() }).meta({ id: 'ListingOwner' });

export const ListingPhotoSchema = z
  .object({
    /** The photo as re-encoded (WebP, at most 1600 px), immutable under /uploads/listings/. */
    imageUrl: z.string(),
    /** 480 px wide, for cards. */
    thumbnailUrl: z.string(),
    width: z.number().int(),
    height: z.number().int(),
  })
  .meta({ id: 'ListingPhoto' });

const listingFields = {
  id: z.string(),
  title: z.string(),
  /** The first photo (relative path), as the seed's cards use it. */
  imageUrl: z.string(),
  thumbnailUrl: z.string(),
  /** A tiny blurred stand-in for the first photo (a data: URL), shown while it loads. */
  placeholder: z.string(),
  listingType: z.enum(LISTING_TYPES),
  acceptsItems: z.boolean(),
  /** Visible to Premium members only. */
  isPremium: z.boolean(),
  /** Estimated value in euro, two decimals; null when none was given. */
  initialValue: z.number().nullable(),
  createdAt: z.iso.datetime(),
  isActive: z.boolean(),
  listingCategories: z.array(CategorySchema),
  /** From the caller's own place, great-circle, one decimal; null when either place is unknown. */
  distanceInKm: z.number().nullable(),
  user: ListingOwnerSchema,
};

export const ListingSchema = z
  .object({ ...listingFields, description: z.string(), listingPhotos: z.array(ListingPhotoSchema) })
  .meta({ id: 'Listing' });
export type Listing = z.infer<typeof ListingSchema>;

/** A listing in a result list: the card's fields, its description cut to 200 characters. */
export const ListingCardSchema = z.object({ ...listingFields, description: z.string() }).meta({ id: 'ListingCard' });
export type ListingCard = z.infer<typeof ListingCardSchema>;

/**
 * A listing as anyone may see it, signed in or not (the landing page, issue 27): what it is and
 * its owner's town, nothing of the owner themselves, no distance or coordinates, no description.
 */
export const PublicListingSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    /** The cover photo, 480 px wide (relative path under /uploads/listings/). */
    thumbnailUrl: z.string(),
    /** A tiny blurred stand-in for it (a data: URL), shown while it loads. */
    placeholder: z.string(),
    listingType: z.enum(LISTING_TYPES),
    listingCategories: z.array(CategorySchema),
    /** The owner's town (their place as they chose it); null when they have none. */
    city: z.string().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'PublicListing' });
export type PublicListing = z.infer<typeof PublicListingSchema>;

const queryNumber = (message: string, check: (n: number) => boolean) =>
  z.preprocess(
    (v) => (Array.isArray(v) ? v[0] : v),
    z
      .string()
      .trim()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined || v === '') return undefined;
        const n = Number(v.replace(',', '.'));
        if (!/^-?\d+([.,]\d+)?$/.test(v) || !check(n)) {
          ctx.addIssue({ code: 'custom', message });
          return z.NEVER;
        }
        return n;
      }),
  );

const queryEnum = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.preprocess((v) => {
    const first = Array.isArray(v) ? v[0] : v;
    return typeof first === 'string' && first.trim() ? first.trim().toLowerCase() : undefined;
  }, z.enum(values, { error: message }).optional());

/** Keywords as typed (trimmed; empty is none); the engine folds, splits and stems them. */
const keywords = z.preprocess(
  (v) => (Array.isArray(v) ? v[0] : v),
  z
    .string({ error: SEARCH_MESSAGES.queryTooLong })
    .max(SEARCH_QUERY_MAX_LENGTH, SEARCH_MESSAGES.queryTooLong)
    .refine(isCleanLine, TEXT_MESSAGES.forbiddenCharacters)
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined)),
);

/** Category ids in a query string: a comma list or the parameter repeated, at most `max`. */
const categoryIdList = (max: number) =>
  z
    .preprocess(
      (v) =>
        (Array.isArray(v) ? v : v === undefined ? [] : [v])
          .flatMap((item) => String(item).split(','))
          .map((id) => id.trim())
          .filter(Boolean),
      z.array(z.string().max(60, SEARCH_MESSAGES.invalidCategory)).max(max, SEARCH_MESSAGES.invalidCategory),
    )
    .optional();

export const ListingSearchQuerySchema = z
  .object({
    /** Keywords (issue 23): title, description and category names, the Dutch way; the answer is then by relevance. */
    q: keywords,
    page: queryNumber(SEARCH_MESSAGES.invalidPage, (n) => Number.isInteger(n) && n >= 1 && n <= 10_000),
    take: queryNumber(SEARCH_MESSAGES.invalidTake, (n) => Number.isInteger(n) && n >= 1 && n <= SEARCH_MAX_TAKE),
    minValue: queryNumber(SEARCH_MESSAGES.invalidValue, (n) => n >= 0 && n <= 1_000_000),
    maxValue: queryNumber(SEARCH_MESSAGES.invalidValue, (n) => n >= 0 && n <= 1_000_000),
    distanceKm: queryNumber(SEARCH_MESSAGES.invalidDistance, (n) => n > 0 && n <= SEARCH_MAX_DISTANCE_KM),
    /** true: only Premium listings; false or absent: every listing the caller may see. */
    premium: queryEnum(['true', 'false'] as const, SEARCH_MESSAGES.invalidPremium).transform((v) => v === 'true'),
    categoryIds: categoryIdList(50),
    listingType: queryEnum(LISTING_TYPES, SEARCH_MESSAGES.invalidType),
    barterMode: queryEnum(BARTER_MODES, SEARCH_MESSAGES.invalidBarterMode),
  })
  .transform((q) => ({ ...q, page: q.page ?? 1, take: q.take ?? SEARCH_PAGE_SIZE, categoryIds: q.categoryIds ?? [] }))
  .refine((q) => q.minValue === undefined || q.maxValue === undefined || q.minValue <= q.maxValue, { message: SEARCH_MESSAGES.valueRange, path: ['minValue'] });
export type ListingSearchQuery = z.output<typeof ListingSearchQuerySchema>;

/** The search box's text so far: its last word is completed (a trailing space: nothing to complete). */
export const SuggestQuerySchema = z.object({
  q: z.preprocess(
    (v) => (Array.isArray(v) ? v[0] : v),
    z.string({ error: SEARCH_MESSAGES.queryTooLong }).max(SEARCH_QUERY_MAX_LENGTH, SEARCH_MESSAGES.queryTooLong).refine(isCleanLine, TEXT_MESSAGES.forbiddenCharacters).optional(),
  ),
});

export const RecommendationsQuerySchema = z.object({
  userId: z.string().min(1).max(60),
  radiusKm: z.preprocess(
    (v) => (v === undefined || v === '' ? 25 : Number(Array.isArray(v) ? v[0] : v)),
    z.number({ error: SEARCH_MESSAGES.invalidRadius }).refine((n) => (RECOMMENDATION_RADII_KM as readonly number[]).includes(n), SEARCH_MESSAGES.invalidRadius),
  ),
  page: queryNumber(SEARCH_MESSAGES.invalidPage, (n) => Number.isInteger(n) && n >= 1 && n <= 1000).transform((p) => p ?? 1),
});

const IdParams = z.object({ id: z.string().min(1).max(60) });

/** One entry of a member's inventory for a trade offer: an active listing of theirs, or the default crate. */
export const InventoryItemSchema = z
  .object({
    listingID: z.string(),
    /** The item's owner. */
    userID: z.string(),
    title: z.string(),
    description: z.string(),
    imageUrl: z.string(),
    thumbnailUrl: z.string(),
    /** The crate of beer every member has (DEFAULT_CRATE): not a stored listing. */
    isDefault: z.boolean(),
  })
  .meta({ id: 'InventoryItem' });
export type InventoryItem = z.infer<typeof InventoryItemSchema>;

/** What a listing about to be placed would be: its categories and words, around the caller's place. */
export const DemandQuerySchema = z
  .object({
    categoryIds: categoryIdList(20),
    q: z.preprocess(
      (v) => (Array.isArray(v) ? v[0] : v),
      z.string().trim().max(SAVED_SEARCH_QUERY_MAX_LENGTH, SAVED_SEARCH_MESSAGES.invalidQuery).refine(isCleanLine, TEXT_MESSAGES.forbiddenCharacters).optional(),
    ),
    distanceKm: queryNumber(SEARCH_MESSAGES.invalidDistance, (n) => n > 0 && n <= SEARCH_MAX_DISTANCE_KM),
  })
  .transform((d) => ({ categoryIds: d.categoryIds ?? [], q: d.q || undefined, distanceKm: d.distanceKm ?? DEMAND_DEFAULT_DISTANCE_KM }));
export type DemandQuery = z.output<typeof DemandQuerySchema>;

export const DemandSchema = z
  .object({
    /** Distinct members nearby with a saved search or a wishlisted listing this listing would match; 0 when fewer than 3. */
    members: z.number().int().min(0),
    savedSearches: z.number().int().min(0),
    wishlists: z.number().int().min(0),
    /** Fewer than 3 members: the counts are 0 so no one is singled out. */
    few: z.boolean(),
  })
  .meta({ id: 'Demand' });
export type Demand = z.infer<typeof DemandSchema>;

export const listingRoutes = {
  search: defineRoute({
    ...listingRefs.search,
    summary:
      'Zoeken rond de eigen woonplaats (15 per pagina): trefwoorden (q), afstand, waarde, premium, categorieën, type en ruilbeleid; nieuwste eerst (met q: best passend, dan dichtstbij, dan nieuwste), stabiel over pagina’s',
    query: ListingSearchQuerySchema,
    response: z.array(ListingCardSchema),
  }),
  my: defineRoute({ ...listingRefs.my, summary: 'Eigen listings, actief en inactief, nieuwste eerst', response: z.array(ListingSchema) }),
  recommendations: defineRoute({
    ...listingRefs.recommendations,
    summary: 'Trending in je buurt: binnen de straal, premium eerst, dan recente belangstelling en nieuwheid (6 per pagina)',
    query: RecommendationsQuerySchema,
    response: z.array(ListingCardSchema),
  }),
  byUser: defineRoute({
    ...listingRefs.byUser,
    summary: 'De actieve listings van een lid die de vrager mag zien',
    params: z.object({ userId: z.string().min(1).max(60) }),
    response: z.array(ListingSchema),
  }),
  inventory: defineRoute({
    ...listingRefs.inventory,
    summary: 'Inventaris voor een ruilaanbod: de actieve listings van het lid die de vrager mag zien, plus het standaard Krat Bier',
    params: z.object({ userId: z.string().min(1).max(60) }),
    response: z.array(InventoryItemSchema),
  }),
  create: defineRoute({
    ...listingRefs.create,
    summary: 'Listing plaatsen (multipart: velden, herhaalde CategoryIDs, 1 tot 5 afbeeldingen in images, samen tot 20 MB)',
    form: LISTING_PHOTO_FORM,
    body: ListingFormSchema,
    response: MessageSchema.extend({ listing: ListingSchema }),
    status: 201,
    idempotent: true,
  }),
  update: defineRoute({
    ...listingRefs.update,
    summary: 'Eigen listing bewerken (multipart; nieuwe afbeeldingen in Images vervangen de oude, geen afbeeldingen houdt ze)',
    params: IdParams,
    form: LISTING_PHOTO_FORM,
    body: ListingFormSchema,
    response: MessageSchema.extend({ listing: ListingSchema }),
  }),
  delete: defineRoute({ ...listingRefs.delete, summary: 'Listing verwijderen (eigenaar of beheerder)', params: IdParams, response: MessageSchema }),
  suggest: defineRoute({
    ...listingRefs.suggest,
    summary: 'Aanvullingen voor het zoekvak: woorden uit titels en beschrijvingen die met het laatste woord beginnen, meest voorkomend eerst (hoogstens 8)',
    query: SuggestQuerySchema,
    response: z.array(z.string()).max(SEARCH_SUGGESTIONS_MAX),
  }),
  demand: defineRoute({
    ...listingRefs.demand,
    summary:
      'Vraag in de buurt: hoeveel leden rond de eigen woonplaats een bewaarde zoekopdracht of verlanglijstje hebben waar deze listing bij past (onder 3: 0 met few)',
    query: DemandQuerySchema,
    response: DemandSchema,
  }),
  recent: defineRoute({
    ...listingRefs.recent,
    summary: `Het nieuwste openbare aanbod voor de voorpagina (hoogstens ${RECENT_LISTINGS_MAX}): wat een gast mag zien (geen premium-listings, niets jonger dan 6 uur), voor iedereen hetzelfde, zonder gegevens van de eigenaar behalve de woonplaats`,
    response: z.array(PublicListingSchema).max(RECENT_LISTINGS_MAX),
  }),
  get: defineRoute({
    ...listingRefs.get,
    summary: 'Eén listing; een premium-listing alleen voor premium leden, een nieuwe (jonger dan 6 uur) alleen voor premium leden en de eigenaar',
    params: IdParams,
    response: ListingSchema,
  }),
} satisfies Record<keyof typeof listingRefs, RouteDef>;

// Wishlist

export const WishlistEntrySchema = z
  .object({
    id: z.string(),
    createdAt: z.iso.datetime(),
    listing: z.object({ id: z.string(), title: z.string(), description: z.string(), imageUrl: z.string(), thumbnailUrl: z.string(), placeholder: z.string() }),
  })
  .meta({ id: 'WishlistEntry' });
export type WishlistEntry = z.infer<typeof WishlistEntrySchema>;

export const wishlistRoutes = {
  add: defineRoute({ ...wishlistRefs.add, summary: 'Op het verlanglijstje zetten (tweemaal is eenmaal; niet de eigen listing)', params: IdParams, response: MessageSchema }),
  exists: defineRoute({ ...wishlistRefs.exists, summary: 'Of de listing op het eigen verlanglijstje staat', params: IdParams, response: z.object({ isWishlisted: z.boolean() }) }),
  delete: defineRoute({
    ...wishlistRefs.delete,
    summary: 'Van het verlanglijstje halen',
    params: z.object({ listingId: z.string().min(1).max(60) }),
    response: MessageSchema,
  }),
  my: defineRoute({ ...wishlistRefs.my, summary: 'Het eigen verlanglijstje, nieuwste eerst; listings die niet meer zichtbaar zijn vallen weg', response: z.array(WishlistEntrySchema) }),
} satisfies Record<keyof typeof wishlistRefs, RouteDef>;

// Saved searches

const euro = z.number({ error: SEARCH_MESSAGES.invalidValue }).min(0, SEARCH_MESSAGES.invalidValue).max(1_000_000, SEARCH_MESSAGES.invalidValue);

/** The search page's filters as a saved search keeps them (JSON, not query text). */
export const SavedSearchFiltersSchema = z
  .object({
    q: z.string({ error: SAVED_SEARCH_MESSAGES.invalidQuery }).trim().max(SAVED_SEARCH_QUERY_MAX_LENGTH, SAVED_SEARCH_MESSAGES.invalidQuery).refine(isCleanLine, TEXT_MESSAGES.forbiddenCharacters).optional(),
    distanceKm: z.number({ error: SEARCH_MESSAGES.invalidDistance }).gt(0, SEARCH_MESSAGES.invalidDistance).max(SEARCH_MAX_DISTANCE_KM, SEARCH_MESSAGES.invalidDistance).optional(),
    minValue: euro.optional(),
    maxValue: euro.optional(),
    listingType: z.enum(LISTING_TYPES, { error: SEARCH_MESSAGES.invalidType }).optional(),
    premium: z.boolean({ error: SEARCH_MESSAGES.invalidPremium }).optional(),
    categoryIds: z
      .array(z.string({ error: SEARCH_MESSAGES.invalidCategory }).min(1, SEARCH_MESSAGES.invalidCategory).max(60, SEARCH_MESSAGES.invalidCategory), { error: SEARCH_MESSAGES.invalidCategory })
      .max(50, SEARCH_MESSAGES.invalidCategory)
      .optional(),
  }, { error: SAVED_SEARCH_MESSAGES.invalidFilters })
  .refine((f) => f.minValue === undefined || f.maxValue === undefined || f.minValue <= f.maxValue, { message: SEARCH_MESSAGES.valueRange, path: ['minValue'] })
  .meta({ id: 'SavedSearchFilters' });
export type SavedSearchFilters = z.infer<typeof SavedSearchFiltersSchema>;

export const SavedSearchInputSchema = z.object({
  name: z.string({ error: SAVED_SEARCH_MESSAGES.nameRequired }).trim().min(1, SAVED_SEARCH_MESSAGES.nameRequired).max(SAVED_SEARCH_NAME_MAX_LENGTH, SAVED_SEARCH_MESSAGES.nameTooLong).refine(isCleanLine, TEXT_MESSAGES.forbiddenCharacters),
  filters: SavedSearchFiltersSchema.default({}),
  alert: z.enum(SAVED_SEARCH_ALERTS, { error: SAVED_SEARCH_MESSAGES.invalidAlert }),
});
export type SavedSearchInput = z.infer<typeof SavedSearchInputSchema>;

export const SavedSearchSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    filters: SavedSearchFiltersSchema,
    alert: z.enum(SAVED_SEARCH_ALERTS),
    createdAt: z.iso.datetime(),
    /** Listings it matched since the member last opened it. */
    newSinceVisit: z.number().int().min(0),
    lastVisitAt: z.iso.datetime(),
  })
  .meta({ id: 'SavedSearch' });
export type SavedSearch = z.infer<typeof SavedSearchSchema>;

const SavedIdParams = z.object({ id: z.string().min(1).max(60) });

export const savedSearchRoutes = {
  create: defineRoute({
    ...savedSearchRefs.create,
    summary: 'Zoekopdracht bewaren met een melding (direct, digest of off); hoogstens 10, Premium 50',
    body: SavedSearchInputSchema,
    response: SavedSearchSchema,
    status: 201,
  }),
  list: defineRoute({ ...savedSearchRefs.list, summary: 'Eigen bewaarde zoekopdrachten, oudste eerst, met het aantal nieuwe sinds het laatste bezoek', response: z.array(SavedSearchSchema) }),
  update: defineRoute({ ...savedSearchRefs.update, summary: 'Eigen bewaarde zoekopdracht wijzigen (naam, filters, melding)', params: SavedIdParams, body: SavedSearchInputSchema, response: SavedSearchSchema }),
  delete: defineRoute({ ...savedSearchRefs.delete, summary: 'Eigen bewaarde zoekopdracht verwijderen', params: SavedIdParams, response: MessageSchema }),
  visit: defineRoute({ ...savedSearchRefs.visit, summary: 'Zoekopdracht bekeken: nieuw sinds laatste bezoek weer 0', params: SavedIdParams, response: SavedSearchSchema }),
} satisfies Record<keyof typeof savedSearchRefs, RouteDef>;
