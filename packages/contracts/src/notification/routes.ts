// The notification service's HTTP routes. Each route spreads its zod-free ref (refs.ts) and adds what
// the service validates with.
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../routes.ts';
import { notificationRefs } from './refs.ts';
import { MAIL_PREFERENCES, NOTIFICATION_KIND_NAMES, NOTIFICATION_MESSAGES, NOTIFICATION_PAGE_MAX, NOTIFICATION_PAGE_SIZE, type NotificationKind } from './rules.ts';

/** A notification's id: `<userId>:<time>:<source>` (the service's store key), opaque to the browser. */
const NOTIFICATION_ID = /^[0-9a-f]{24}:[0-9a-z]{9,12}:[\w.:-]{1,120}$/;
const notificationId = z.string({ error: NOTIFICATION_MESSAGES.invalidId }).max(160, NOTIFICATION_MESSAGES.invalidId).regex(NOTIFICATION_ID, NOTIFICATION_MESSAGES.invalidId);

const kind = z.enum(NOTIFICATION_KIND_NAMES as [NotificationKind, ...NotificationKind[]]);

export const NotificationSchema = z
  .object({
    id: z.string(),
    kind,
    title: z.string(),
    body: z.string(),
    /** A path of the site (`/dashboard/tradeoffer/12`). */
    link: z.string(),
    createdAt: z.iso.datetime(),
    readAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Notification' });
export type Notification = z.infer<typeof NotificationSchema>;

const preference = z.enum(MAIL_PREFERENCES, { error: NOTIFICATION_MESSAGES.invalidPreference });
/** Every kind's mail preference. */
export const MailPreferencesSchema = z.record(kind, z.enum(MAIL_PREFERENCES)).meta({ id: 'MailPreferences' });
export type MailPreferences = Record<NotificationKind, (typeof MAIL_PREFERENCES)[number]>;

/** Some kinds' new preferences (at least one): an unknown kind is refused by name. */
const PreferencesUpdateSchema = z
  .record(z.string(), preference)
  .check((ctx) => {
    if (!Object.keys(ctx.value).length) ctx.issues.push({ code: 'custom', message: NOTIFICATION_MESSAGES.noPreferences, input: ctx.value });
    for (const key of Object.keys(ctx.value)) {
      if (!(NOTIFICATION_KIND_NAMES as string[]).includes(key)) ctx.issues.push({ code: 'custom', message: NOTIFICATION_MESSAGES.unknownKind, input: key, path: [key] });
    }
  })
  .meta({ id: 'MailPreferencesUpdate' });

const take = z.coerce
  .number({ error: NOTIFICATION_MESSAGES.invalidTake })
  .int(NOTIFICATION_MESSAGES.invalidTake)
  .min(1, NOTIFICATION_MESSAGES.invalidTake)
  .max(NOTIFICATION_PAGE_MAX, NOTIFICATION_MESSAGES.invalidTake)
  .default(NOTIFICATION_PAGE_SIZE);

/** A signed unsubscribe token (service's tokens: `<payload>.<signature>`, base64url). */
const unsubscribeToken = z.string({ error: NOTIFICATION_MESSAGES.invalidToken }).min(10, NOTIFICATION_MESSAGES.invalidToken).max(300, NOTIFICATION_MESSAGES.invalidToken);

export const notificationRoutes = {
  list: defineRoute({
    ...notificationRefs.list,
    summary: 'De eigen meldingen, nieuwste eerst; `before`: het id van de laatste van de vorige pagina',
    query: z.object({ before: notificationId.optional(), take }),
    response: z.array(NotificationSchema),
  }),
  unreadCount: defineRoute({
    ...notificationRefs.unreadCount,
    summary: 'Het aantal ongelezen meldingen',
    response: z.object({ count: z.number().int().min(0) }),
  }),
  readAll: defineRoute({
    ...notificationRefs.readAll,
    summary: 'Alle eigen meldingen gelezen',
    response: z.null(),
    status: 204,
  }),
  preferences: defineRoute({
    ...notificationRefs.preferences,
    summary: 'Per soort melding: e-mail direct, in het dagelijkse overzicht of uit (in de app verschijnt elke soort)',
    response: MailPreferencesSchema,
  }),
  setPreferences: defineRoute({
    ...notificationRefs.setPreferences,
    summary: 'E-mailvoorkeuren wijzigen (een deel mag); antwoord: alle voorkeuren',
    body: PreferencesUpdateSchema,
    response: MailPreferencesSchema,
  }),
  unsubscribePage: defineRoute({
    ...notificationRefs.unsubscribePage,
    summary: 'De afmeldlink uit een e-mail: een bevestigingspagina (HTML) met een knop',
    query: z.object({ token: unsubscribeToken }),
    response: z.string(),
    html: true,
  }),
  unsubscribe: defineRoute({
    ...notificationRefs.unsubscribe,
    summary: 'Afmelden zonder inloggen (RFC 8058 one-click): zet de e-mail voor dat soort melding uit',
    query: z.object({ token: unsubscribeToken }),
    response: z.string(),
    html: true,
  }),
  read: defineRoute({
    ...notificationRefs.read,
    summary: 'Eén eigen melding gelezen',
    params: z.object({ id: notificationId }),
    response: z.null(),
    status: 204,
  }),
} satisfies Record<keyof typeof notificationRefs, RouteDef>;
