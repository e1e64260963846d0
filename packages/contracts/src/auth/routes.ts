// The auth service's HTTP routes: accounts, profiles, user administration, place search. Each route
// spreads its zod-free ref (refs.ts) and adds what the service validates with.
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../routes.ts';
import { adminUserRefs, authRefs, blockRefs, geoRefs, userRefs } from './refs.ts';
import {
  AUTH_MESSAGES,
  CITY_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  NAME_MAX_LENGTH,
  PASSWORD_DIGIT,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PASSWORD_UPPERCASE,
  PROFILE_PICTURE_MAX_BYTES,
  USER_MESSAGES,
} from './rules.ts';
import { isCleanLine, TEXT_MESSAGES } from '../text.ts';
import { SUSPENSION_REASONS } from './suspensions.ts';
import { RoleSchema } from './tokens.ts';

// Accounts

const name = (required: string) =>
  z.string({ error: required }).trim().min(1, required).max(NAME_MAX_LENGTH, AUTH_MESSAGES.nameTooLong).refine(isCleanLine, TEXT_MESSAGES.forbiddenCharacters);

export const EmailSchema = z
  .string({ error: AUTH_MESSAGES.emailRequired })
  .trim()
  // An empty field is missing, not also malformed: one message.
  .min(1, { message: AUTH_MESSAGES.emailRequired, abort: true })
  .max(EMAIL_MAX_LENGTH, { message: AUTH_MESSAGES.invalidEmail, abort: true })
  .regex(EMAIL_PATTERN, AUTH_MESSAGES.invalidEmail)
  .refine(isCleanLine, TEXT_MESSAGES.forbiddenCharacters)
  .toLowerCase();

/** Spec 1 §5 registration rules; the server applies them to every new password. */
export const PasswordSchema = z
  .string({ error: AUTH_MESSAGES.passwordTooShort })
  .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, AUTH_MESSAGES.passwordTooLong)
  .regex(PASSWORD_UPPERCASE, AUTH_MESSAGES.passwordNeedsUppercase)
  .regex(PASSWORD_DIGIT, AUTH_MESSAGES.passwordNeedsDigit);

/** An optional city; an empty one counts as none. */
export const CitySchema = z
  .string()
  .trim()
  .max(CITY_MAX_LENGTH, AUTH_MESSAGES.cityTooLong)
  .refine(isCleanLine, TEXT_MESSAGES.forbiddenCharacters)
  .nullish()
  .transform((c) => c || undefined);

export const RegisterRequestSchema = z
  .object({
    firstName: name(AUTH_MESSAGES.firstNameRequired),
    lastName: name(AUTH_MESSAGES.lastNameRequired),
    email: EmailSchema,
    password: PasswordSchema,
    city: CitySchema,
    latitude: z.number().min(-90).max(90).nullish(),
    longitude: z.number().min(-180).max(180).nullish(),
  })
  .refine((r) => (r.latitude == null) === (r.longitude == null), { message: AUTH_MESSAGES.coordinatesIncomplete, path: ['latitude'] })
  .meta({ id: 'RegisterRequest' });
export type RegisterRequest = z.input<typeof RegisterRequestSchema>;

export const MessageSchema = z.object({ message: z.string() }).meta({ id: 'Message' });

/** The user as the browser keeps it in its session (spec 1 §3 "User (session copy)"). */
export const SessionUserSchema = z
  .object({
    id: z.string(),
    role: z.array(RoleSchema),
    firstName: z.string(),
    profilePicture: z.string(),
    activated: z.boolean(),
    subscriptionEndsAt: z.iso.datetime().optional(),
  })
  .meta({ id: 'SessionUser' });
export type SessionUser = z.infer<typeof SessionUserSchema>;

export const LoginRequestSchema = z
  .object({
    email: z.string({ error: AUTH_MESSAGES.emailRequired }).trim().min(1, AUTH_MESSAGES.emailRequired).max(EMAIL_MAX_LENGTH).toLowerCase(),
    password: z.string({ error: AUTH_MESSAGES.passwordRequired }).min(1, AUTH_MESSAGES.passwordRequired).max(PASSWORD_MAX_LENGTH, AUTH_MESSAGES.passwordTooLong),
  })
  .meta({ id: 'LoginRequest' });

export const LoginResponseSchema = z.object({ token: z.string(), user: SessionUserSchema }).meta({ id: 'LoginResponse' });

/** A renewed access token; the refresh token itself only ever travels in its cookie. */
export const RefreshResponseSchema = z.object({ token: z.string() }).meta({ id: 'RefreshResponse' });

export const ChangePasswordRequestSchema = z
  .object({
    token: z.string({ error: AUTH_MESSAGES.resetTokenMissing }).trim().min(1, AUTH_MESSAGES.resetTokenMissing).max(200, AUTH_MESSAGES.resetTokenInvalid),
    newPassword: PasswordSchema,
  })
  .meta({ id: 'ChangePasswordRequest' });

export const authRoutes = {
  register: defineRoute({
    ...authRefs.register,
    summary: 'Registreren; stuurt een activatiemail',
    body: RegisterRequestSchema,
    response: MessageSchema,
    status: 201,
  }),
  activate: defineRoute({
    ...authRefs.activate,
    summary: 'Account activeren met de code uit de activatiemail (eenmalig, verloopt)',
    query: z.object({ token: z.string({ error: AUTH_MESSAGES.activationTokenMissing }).trim().min(1, AUTH_MESSAGES.activationTokenMissing).max(200, AUTH_MESSAGES.activationFailed) }),
    response: MessageSchema,
  }),
  resendActivation: defineRoute({
    ...authRefs.resendActivation,
    summary: 'Nieuwe activatiemail; body: het e-mailadres als kale (JSON-)string. Zegt niet of het account bestaat',
    body: EmailSchema,
    response: MessageSchema,
  }),
  login: defineRoute({
    ...authRefs.login,
    summary: 'Inloggen; 409 met activationAvailable als het account nog niet geactiveerd is',
    body: LoginRequestSchema,
    response: LoginResponseSchema,
  }),
  verify: defineRoute({
    ...authRefs.verify,
    summary: 'Controleert de token (ook of hij ingetrokken is) en geeft de sessiegebruiker',
    response: z.object({ user: SessionUserSchema }),
  }),
  refresh: defineRoute({
    ...authRefs.refresh,
    summary:
      'Nieuwe toegangstoken met de vernieuwingscookie (httpOnly, SameSite=Strict, Path=/api/auth), die daarbij vervangen wordt; geen body. 401 en de cookie gewist als de sessie voorbij is',
    response: RefreshResponseSchema,
  }),
  logout: defineRoute({
    ...authRefs.logout,
    summary: 'Uitloggen: trekt alle tokens van de gebruiker in en wist de vernieuwingscookie',
    response: MessageSchema,
  }),
  requestPasswordReset: defineRoute({
    ...authRefs.requestPasswordReset,
    summary: 'Resetlink mailen; body: het e-mailadres als kale (JSON-)string; antwoord platte tekst, gelijk of het account bestaat of niet',
    body: EmailSchema,
    response: z.string(),
  }),
  changePassword: defineRoute({
    ...authRefs.changePassword,
    summary: 'Nieuw wachtwoord met de code uit de resetmail; trekt alle tokens in; antwoord platte tekst',
    body: ChangePasswordRequestSchema,
    response: z.string(),
  }),
} satisfies Record<keyof typeof authRefs, RouteDef>;

// Profiles

/** The member's own full record (spec 1 §3 "User (full record)"); only ever sent to the member. */
export const UserSchema = SessionUserSchema.extend({
  lastName: z.string(),
  email: z.string(),
  city: z.string().optional(),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
}).meta({ id: 'User' });
export type User = z.infer<typeof UserSchema>;

/** A form field holding a number with a decimal point; an empty field counts as none. */
const coordinate = (min: number, max: number, message: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      const n = Number(v);
      if (!/^-?\d+(\.\d+)?$/.test(v) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return n;
    });

/**
 * The text fields of the profile form (multipart). Values are trimmed; an empty city clears city
 * and coordinates. A city without coordinates is looked up by the server. The email is checked as
 * the spec says but cannot change here (changing it would need a new activation).
 */
export const UpdateProfileFormSchema = z
  .object({
    firstName: name(AUTH_MESSAGES.firstNameRequired),
    lastName: name(AUTH_MESSAGES.lastNameRequired),
    email: EmailSchema.optional(),
    city: CitySchema,
    latitude: coordinate(-90, 90, USER_MESSAGES.invalidLatitude),
    longitude: coordinate(-180, 180, USER_MESSAGES.invalidLongitude),
  })
  .refine((f) => (f.latitude === undefined) === (f.longitude === undefined), { message: AUTH_MESSAGES.coordinatesIncomplete, path: ['latitude'] })
  .refine((f) => f.city !== undefined || f.latitude === undefined, { message: USER_MESSAGES.coordinatesWithoutCity, path: ['city'] })
  .meta({ id: 'UpdateProfileForm' });
export type UpdateProfileForm = z.input<typeof UpdateProfileFormSchema>;

/** Spec 1 §3 "Account status"; reason 'ban' (by an admin) or 'warnings' (too many in a short time). */
export const AccountStatusSchema = z
  .object({
    blocked: z.boolean(),
    reason: z.enum(SUSPENSION_REASONS).nullable(),
    unblockDate: z.iso.datetime().nullable(),
  })
  .meta({ id: 'AccountStatus' });
export type AccountStatus = z.infer<typeof AccountStatusSchema>;

/** What anyone may see of a member (spec 2 §3 "Public user"): no email, coordinates or history. */
export const PublicUserSchema = z
  .object({
    id: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    profilePicture: z.string(),
    city: z.string().optional(),
    /** Current roles, Premium included while a subscription runs; for the badges. */
    role: z.array(RoleSchema),
  })
  .meta({ id: 'PublicUser' });
export type PublicUser = z.infer<typeof PublicUserSchema>;

export const ReliabilitySchema = z
  .object({
    responseRate: z.number().min(0).max(1).nullable(),
    medianResponseMinutes: z.number().int().min(0).nullable(),
    completionRate: z.number().min(0).max(1).nullable(),
    completedTrades: z.number().int().min(0),
    sample: z.number().int().min(0),
  })
  .meta({ id: 'Reliability' });

/** At most this many members per reliability question (a page of search cards names fewer owners). */
export const RELIABILITY_LOOKUP_MAX = 50;

/** `ids`: members' ids, comma-separated (the owners on a page of cards). */
export const ReliabilitiesQuerySchema = z.object({
  ids: z
    .string({ error: USER_MESSAGES.invalidUserIds })
    .transform((ids) => [...new Set(ids.split(',').map((id) => id.trim().toLowerCase()).filter(Boolean))])
    .pipe(z.array(z.string().regex(/^[0-9a-f]{24}$/, USER_MESSAGES.invalidUserIds)).min(1, USER_MESSAGES.invalidUserIds).max(RELIABILITY_LOOKUP_MAX, USER_MESSAGES.invalidUserIds)),
});

export const MemberReliabilitySchema = ReliabilitySchema.extend({ userId: z.string() }).meta({ id: 'MemberReliability' });

export const PublicStatsSchema = z
  .object({
    totalTrades: z.number().int().nonnegative(),
    /** Mean of the received ratings (1 to 5), to two decimals; 0 without reviews. */
    averageRating: z.number().min(0).max(5),
    totalReviewers: z.number().int().nonnegative(),
    activeListings: z.number().int().nonnegative(),
  })
  .meta({ id: 'PublicStats' });
export type PublicStats = z.infer<typeof PublicStatsSchema>;

/**
 * A MongoDB ObjectId, as every user id of the auth service is; lowercased, so it compares with the
 * token's and with the stats projection's key (`ObjectId.toString()`).
 */
export const UserIdParamsSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{24}$/i, USER_MESSAGES.invalidUserId).toLowerCase(),
});

export const userRoutes = {
  my: defineRoute({
    ...userRefs.my,
    summary: 'Het eigen volledige gebruikersrecord',
    response: UserSchema,
  }),
  update: defineRoute({
    ...userRefs.update,
    summary: 'Eigen profiel opslaan (multipart: velden en optioneel profilePicture, JPG/PNG/WEBP tot 5 MB)',
    form: { files: { profilePicture: { maxBytes: PROFILE_PICTURE_MAX_BYTES, tooLarge: USER_MESSAGES.pictureTooLarge } } },
    body: UpdateProfileFormSchema,
    response: MessageSchema.extend({ user: UserSchema }),
  }),
  status: defineRoute({
    ...userRefs.status,
    summary: 'Of het eigen account geblokkeerd is, waarom en tot wanneer',
    response: AccountStatusSchema,
  }),
  public: defineRoute({
    ...userRefs.public,
    summary: 'Openbaar profiel van een lid (alleen openbare velden)',
    params: UserIdParamsSchema,
    response: PublicUserSchema,
  }),
  publicStats: defineRoute({
    ...userRefs.publicStats,
    summary: 'Ruilstatistieken van een lid: ruilen, gemiddelde beoordeling, beoordelaars, actieve advertenties',
    params: UserIdParamsSchema,
    response: PublicStatsSchema,
  }),
  reliability: defineRoute({
    ...userRefs.reliability,
    summary: 'Hoe betrouwbaar een lid is volgens zijn ruilpartners: reactie binnen 48 uur, mediane reactietijd, afgeronde ruilen',
    params: UserIdParamsSchema,
    response: ReliabilitySchema,
  }),
  reliabilities: defineRoute({
    ...userRefs.reliabilities,
    summary: 'De betrouwbaarheid van meerdere leden tegelijk (de eigenaars op een pagina met kaarten); onbekende leden ontbreken',
    query: ReliabilitiesQuerySchema,
    response: z.array(MemberReliabilitySchema),
  }),
} satisfies Record<keyof typeof userRefs, RouteDef>;

// Blocking another member

export const BlockParamsSchema = z.object({
  userId: z.string().regex(/^[0-9a-f]{24}$/i, USER_MESSAGES.invalidUserId).toLowerCase(),
});

/** A member the caller blocked: the names as auth holds them now, and since when. */
export const BlockedMemberSchema = z
  .object({ userId: z.string(), firstName: z.string(), lastName: z.string(), since: z.iso.datetime() })
  .meta({ id: 'BlockedMember' });
export type BlockedMember = z.infer<typeof BlockedMemberSchema>;

export const blockRoutes = {
  add: defineRoute({
    ...blockRefs.add,
    summary: 'Een lid blokkeren (beide kanten: advertenties, ruilaanbiedingen, chat); al geblokkeerd is ook goed',
    params: BlockParamsSchema,
    response: z.null(),
    status: 204,
  }),
  remove: defineRoute({
    ...blockRefs.remove,
    summary: 'Een lid deblokkeren; niet geblokkeerd is ook goed',
    params: BlockParamsSchema,
    response: z.null(),
    status: 204,
  }),
  list: defineRoute({
    ...blockRefs.list,
    summary: 'De leden die je geblokkeerd hebt, laatst geblokkeerde eerst',
    response: z.array(BlockedMemberSchema),
  }),
} satisfies Record<keyof typeof blockRefs, RouteDef>;

// User administration


/** A row of 'Gebruikersbeheer' (spec 2 §3 "Admin user row"): admins see email and coordinates. */
export const AdminUserSchema = z
  .object({
    id: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    city: z.string().optional(),
    latitude: z.number().optional(),
    longitude: z.number().optional(),
    /** Premium counts as a role here (spec 2 §3). */
    role: z.array(RoleSchema),
    isPremium: z.boolean(),
    activated: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'AdminUser' });
export type AdminUser = z.infer<typeof AdminUserSchema>;

export const AdminUserListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
  /** Words that must each appear in the name, email or city. */
  q: z.string().trim().max(100, 'Een zoekterm is hoogstens 100 tekens lang.').refine(isCleanLine, TEXT_MESSAGES.forbiddenCharacters).optional(),
  /** The filter Alle / Actieve / Inactieve: activated or not. */
  activated: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
});

export const AdminUserListSchema = z
  .object({ users: z.array(AdminUserSchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() })
  .meta({ id: 'AdminUserList' });

export const adminUserRoutes = {
  list: defineRoute({
    ...adminUserRefs.list,
    summary: 'Gebruikersbeheer: gebruikers per pagina, nieuwste eerst, te zoeken en te filteren op geactiveerd',
    query: AdminUserListQuerySchema,
    response: AdminUserListSchema,
  }),
  activate: defineRoute({
    ...adminUserRefs.activate,
    summary: 'Een gebruiker activeren zonder activatiemail (beheer)',
    params: UserIdParamsSchema,
    response: z.object({ message: z.string(), user: AdminUserSchema }),
  }),
  delete: defineRoute({
    ...adminUserRefs.delete,
    summary: 'Een gebruiker verwijderen (beheer); trekt zijn tokens in',
    params: UserIdParamsSchema,
    response: MessageSchema,
  }),
} satisfies Record<keyof typeof adminUserRefs, RouteDef>;

// Place search

export const PLACE_COUNTRIES = ['NL', 'BE'] as const;

export const PlaceSchema = z
  .object({
    /** The Dutch name where one is in common use (Den Haag, Brussel). */
    name: z.string(),
    /** Province (NL) or region (BE), to tell places of the same name apart. */
    region: z.string().optional(),
    country: z.enum(PLACE_COUNTRIES),
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
  })
  .meta({ id: 'Place' });
export type Place = z.infer<typeof PlaceSchema>;

export const PlaceSearchQuerySchema = z.object({
  q: z.string('Geef een plaatsnaam op.').trim().min(1, 'Geef een plaatsnaam op.').max(100, 'Een plaatsnaam is hoogstens 100 tekens lang.').refine(isCleanLine, TEXT_MESSAGES.forbiddenCharacters),
  limit: z.coerce.number().int().min(1).max(25).default(10),
});

export const geoRoutes = {
  search: defineRoute({
    ...geoRefs.search,
    summary: 'Plaatsen in Nederland en België op naam, beste treffer eerst (Nederlandse bij gelijke treffer)',
    query: PlaceSearchQuerySchema,
    response: z.array(PlaceSchema),
  }),
} satisfies Record<keyof typeof geoRefs, RouteDef>;
