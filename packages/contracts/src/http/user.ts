import { z } from 'zod';
import { RoleSchema } from '../auth.ts';
import { defineRoute } from '../routes.ts';
import { AUTH_MESSAGES, CitySchema, EmailSchema, MessageSchema, SessionUserSchema } from './auth.ts';

/** Spec 1 §9: a profile picture is at most 5 MB (5 × 1024 × 1024 bytes). */
export const PROFILE_PICTURE_MAX_BYTES = 5 * 1024 * 1024;

export const USER_MESSAGES = {
  pictureWrongType: 'Alleen JPG, PNG of WEBP afbeeldingen zijn toegestaan.',
  pictureTooLarge: 'De profielfoto mag niet groter zijn dan 5MB.',
  pictureTooManyPixels: 'De profielfoto heeft te veel pixels (maximaal 40 megapixel).',
  cityNotFound: 'Woonplaats niet gevonden.',
  coordinatesWithoutCity: 'Coördinaten horen bij een woonplaats: vul ook de woonplaats in.',
  invalidLatitude: 'Breedtegraad moet een getal tussen -90 en 90 zijn.',
  invalidLongitude: 'Lengtegraad moet een getal tussen -180 en 180 zijn.',
  emailNotChangeable: 'Je e-mailadres kun je niet wijzigen via je profiel.',
  saved: 'Je profiel is opgeslagen.',
  invalidUserId: 'Ongeldige gebruikers-id.',
  userNotFound: 'Gebruiker niet gevonden',
} as const;

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
    firstName: z.string({ error: AUTH_MESSAGES.firstNameRequired }).trim().min(1, AUTH_MESSAGES.firstNameRequired).max(50, AUTH_MESSAGES.nameTooLong),
    lastName: z.string({ error: AUTH_MESSAGES.lastNameRequired }).trim().min(1, AUTH_MESSAGES.lastNameRequired).max(50, AUTH_MESSAGES.nameTooLong),
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
    reason: z.enum(['ban', 'warnings']).nullable(),
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

/** Lowercased: the stats projection is keyed by the id as a string, as `ObjectId.toString()` writes it. */
const UserIdParams = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/i, USER_MESSAGES.invalidUserId).toLowerCase() });

export const userRoutes = {
  my: defineRoute({
    service: 'auth',
    method: 'get',
    path: '/api/user/my',
    summary: 'Het eigen volledige gebruikersrecord',
    access: 'user',
    response: UserSchema,
  }),
  update: defineRoute({
    service: 'auth',
    method: 'put',
    path: '/api/user/update',
    summary: 'Eigen profiel opslaan (multipart: velden en optioneel profilePicture, JPG/PNG/WEBP tot 5 MB)',
    access: 'user',
    form: { files: { profilePicture: { maxBytes: PROFILE_PICTURE_MAX_BYTES, tooLarge: USER_MESSAGES.pictureTooLarge } } },
    body: UpdateProfileFormSchema,
    response: MessageSchema.extend({ user: UserSchema }),
  }),
  status: defineRoute({
    service: 'auth',
    method: 'get',
    path: '/api/user/status',
    summary: 'Of het eigen account geblokkeerd is, waarom en tot wanneer',
    access: 'user',
    response: AccountStatusSchema,
  }),
  public: defineRoute({
    service: 'auth',
    method: 'get',
    path: '/api/user/public/:id',
    summary: 'Openbaar profiel van een lid (alleen openbare velden)',
    access: 'public',
    params: UserIdParams,
    response: PublicUserSchema,
  }),
  publicStats: defineRoute({
    service: 'auth',
    method: 'get',
    path: '/api/user/public/stats/:id',
    summary: 'Ruilstatistieken van een lid: ruilen, gemiddelde beoordeling, beoordelaars, actieve advertenties',
    access: 'public',
    params: UserIdParams,
    response: PublicStatsSchema,
  }),
};
