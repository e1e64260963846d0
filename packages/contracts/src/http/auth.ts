import { z } from 'zod';
import { RoleSchema } from '../auth.ts';
import { defineRoute } from '../routes.ts';

/** Shown when a member has no picture of their own (spec 1 §3). */
export const DEFAULT_AVATAR = '/uploads/avatars/default_avatar.jpg';

/** Spec 1 §5: text, at sign, text, dot, text, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const AUTH_MESSAGES = {
  firstNameRequired: 'Voornaam is verplicht.',
  lastNameRequired: 'Achternaam is verplicht.',
  emailRequired: 'E-mailadres is verplicht.',
  invalidEmail: 'Ongeldig e-mailadres.',
  passwordTooShort: 'Wachtwoord moet minstens 6 tekens lang zijn.',
  passwordNeedsUppercase: 'Wachtwoord moet minstens één hoofdletter bevatten.',
  passwordNeedsDigit: 'Wachtwoord moet minstens één cijfer bevatten.',
  passwordTooLong: 'Wachtwoord mag hoogstens 128 tekens lang zijn.',
  passwordRequired: 'Wachtwoord is verplicht.',
  nameTooLong: 'Naam mag hoogstens 50 tekens lang zijn.',
  cityTooLong: 'Woonplaats mag hoogstens 100 tekens lang zijn.',
  coordinatesIncomplete: 'Geef zowel breedte- als lengtegraad op, of geen van beide.',
  registered: 'Registratie gelukt! Check je e-mail voor activatie. (De email kan ook in spam/ongewenst beland zijn.)',
  emailTaken: 'Er bestaat al een account met dit e-mailadres.',
  /** Spec 1 §8's wording for an activation link without its token. */
  activationTokenMissing: 'Geen e-mailadres opgegeven in de link.',
  activationFailed: 'Verificatie mislukt. Misschien is deze link al gebruikt of ongeldig.',
  activated: 'Je account is geactiveerd. Je kunt nu inloggen.',
  notActivated: 'Je account is nog niet geactiveerd.',
  wrongCredentials: 'Onjuist e-mailadres of wachtwoord.',
  resendSent: 'Als er een niet-geactiveerd account bij dit e-mailadres hoort, hebben we een nieuwe activatiemail gestuurd.',
  resetRequested: 'Als dit e-mailadres bij ons bekend is, ontvang je een e-mail met een link om je wachtwoord te wijzigen.',
  resetTokenMissing: 'Ongeldige of ontbrekende token.',
  resetTokenInvalid: 'Deze resetlink is ongeldig, verlopen of al gebruikt. Vraag een nieuwe aan.',
  passwordChanged: 'Je wachtwoord is gewijzigd. Je kunt nu inloggen met je nieuwe wachtwoord.',
  loggedOut: 'Je bent uitgelogd.',
} as const;

const name = (required: string) =>
  z.string({ error: required }).trim().min(1, required).max(50, AUTH_MESSAGES.nameTooLong);

export const EmailSchema = z
  .string({ error: AUTH_MESSAGES.emailRequired })
  .trim()
  // An empty field is missing, not also malformed: one message.
  .min(1, { message: AUTH_MESSAGES.emailRequired, abort: true })
  .max(254, { message: AUTH_MESSAGES.invalidEmail, abort: true })
  .regex(EMAIL_PATTERN, AUTH_MESSAGES.invalidEmail)
  .toLowerCase();

/** Spec 1 §5 registration rules; the server applies them to every new password. */
export const PasswordSchema = z
  .string({ error: AUTH_MESSAGES.passwordTooShort })
  .min(6, AUTH_MESSAGES.passwordTooShort)
  .max(128, AUTH_MESSAGES.passwordTooLong)
  .regex(/\p{Lu}/u, AUTH_MESSAGES.passwordNeedsUppercase)
  .regex(/\d/, AUTH_MESSAGES.passwordNeedsDigit);

/** An optional city; an empty one counts as none. */
export const CitySchema = z
  .string()
  .trim()
  .max(100, AUTH_MESSAGES.cityTooLong)
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
    email: z.string({ error: AUTH_MESSAGES.emailRequired }).trim().min(1, AUTH_MESSAGES.emailRequired).max(254).toLowerCase(),
    password: z.string({ error: AUTH_MESSAGES.passwordRequired }).min(1, AUTH_MESSAGES.passwordRequired).max(128, AUTH_MESSAGES.passwordTooLong),
  })
  .meta({ id: 'LoginRequest' });

export const LoginResponseSchema = z.object({ token: z.string(), user: SessionUserSchema }).meta({ id: 'LoginResponse' });

/** The 409 answer of a login with the right password to an account that is not activated yet. */
export const NotActivatedSchema = z.object({ message: z.string(), activationAvailable: z.literal(true) }).meta({ id: 'NotActivated' });

export const ChangePasswordRequestSchema = z
  .object({
    token: z.string({ error: AUTH_MESSAGES.resetTokenMissing }).trim().min(1, AUTH_MESSAGES.resetTokenMissing).max(200, AUTH_MESSAGES.resetTokenInvalid),
    newPassword: PasswordSchema,
  })
  .meta({ id: 'ChangePasswordRequest' });

export const authRoutes = {
  register: defineRoute({
    service: 'auth',
    method: 'post',
    path: '/api/auth/register',
    summary: 'Registreren; stuurt een activatiemail',
    access: 'public',
    body: RegisterRequestSchema,
    response: MessageSchema,
    status: 201,
  }),
  activate: defineRoute({
    service: 'auth',
    method: 'get',
    path: '/api/auth/activate',
    summary: 'Account activeren met de code uit de activatiemail (eenmalig, verloopt)',
    access: 'public',
    query: z.object({ token: z.string({ error: AUTH_MESSAGES.activationTokenMissing }).trim().min(1, AUTH_MESSAGES.activationTokenMissing).max(200, AUTH_MESSAGES.activationFailed) }),
    response: MessageSchema,
  }),
  resendActivation: defineRoute({
    service: 'auth',
    method: 'post',
    path: '/api/auth/resend-activation',
    summary: 'Nieuwe activatiemail; body: het e-mailadres als kale (JSON-)string. Zegt niet of het account bestaat',
    access: 'public',
    body: EmailSchema,
    response: MessageSchema,
  }),
  login: defineRoute({
    service: 'auth',
    method: 'post',
    path: '/api/auth/login',
    summary: 'Inloggen; 409 met activationAvailable als het account nog niet geactiveerd is',
    access: 'public',
    body: LoginRequestSchema,
    response: LoginResponseSchema,
  }),
  verify: defineRoute({
    service: 'auth',
    method: 'get',
    path: '/api/auth/verify',
    summary: 'Controleert de token (ook of hij ingetrokken is) en geeft de sessiegebruiker',
    access: 'user',
    response: z.object({ user: SessionUserSchema }),
  }),
  logout: defineRoute({
    service: 'auth',
    method: 'post',
    path: '/api/auth/logout',
    summary: 'Uitloggen: trekt alle tokens van de gebruiker in',
    access: 'user',
    response: MessageSchema,
  }),
  requestPasswordReset: defineRoute({
    service: 'auth',
    method: 'post',
    path: '/api/auth/request-password-reset',
    summary: 'Resetlink mailen; body: het e-mailadres als kale (JSON-)string; antwoord platte tekst, gelijk of het account bestaat of niet',
    access: 'public',
    body: EmailSchema,
    response: z.string(),
  }),
  changePassword: defineRoute({
    service: 'auth',
    method: 'post',
    path: '/api/auth/change-password',
    summary: 'Nieuw wachtwoord met de code uit de resetmail; trekt alle tokens in; antwoord platte tekst',
    access: 'public',
    body: ChangePasswordRequestSchema,
    response: z.string(),
  }),
};

/** What auth's events say about a member: no email, no password, no block history. */
export const UserEventSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  profilePicture: z.string(),
  city: z.string().optional(),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
  roles: z.array(RoleSchema),
  activated: z.boolean(),
  subscriptionEndsAt: z.iso.datetime().optional(),
});
export type UserEvent = z.infer<typeof UserEventSchema>;

export const UserDeletedEventSchema = z.object({ id: z.string() });
