// The notification kinds with their default mail preference, the live hub's names, the page sizes
// and the Dutch messages of the notification routes (issue 22), shared by the browser and the
// notification service. Zod-free: exported by `@ruilplein/contracts/browser`. The titles and bodies
// of the notifications themselves are the service's (it writes them once, in Dutch).

/** How a member wants mail about one kind: at once, in the daily digest, or not at all. In the app every kind shows. */
export const MAIL_PREFERENCES = ['direct', 'digest', 'off'] as const;
export type MailPreference = (typeof MAIL_PREFERENCES)[number];

/**
 * Every kind with its default mail preference and the Dutch label of the settings page. A later
 * feature adds a kind here and a consumer in the service; nothing else changes.
 */
export const NOTIFICATION_KINDS = {
  'offer-received': { mail: 'direct', label: 'Nieuw ruilaanbod' },
  'offer-accepted': { mail: 'direct', label: 'Ruilaanbod geaccepteerd' },
  'offer-rejected': { mail: 'digest', label: 'Ruilaanbod afgewezen' },
  'offer-withdrawn': { mail: 'digest', label: 'Ruilaanbod ingetrokken' },
  'offer-confirmed': { mail: 'direct', label: 'Ruil bevestigd door de ander' },
  'trade-completed': { mail: 'digest', label: 'Ruil afgerond' },
  'review-received': { mail: 'digest', label: 'Nieuwe beoordeling' },
  'chat-message': { mail: 'direct', label: 'Nieuw chatbericht' },
  warning: { mail: 'direct', label: 'Waarschuwing' },
  suspension: { mail: 'direct', label: 'Account geblokkeerd' },
  'suspension-ended': { mail: 'direct', label: 'Blokkade opgeheven of afgelopen' },
  'report-handled': { mail: 'digest', label: 'Melding afgehandeld' },
  'premium-active': { mail: 'digest', label: 'Premium actief' },
  'premium-renewal-failed': { mail: 'direct', label: 'Verlenging Premium mislukt' },
  'premium-ending': { mail: 'direct', label: 'Premium loopt bijna af' },
  'premium-ended': { mail: 'digest', label: 'Premium afgelopen' },
  'wishlist-traded': { mail: 'digest', label: 'Verlanglijstje: artikel geruild' },
  'wishlist-removed': { mail: 'digest', label: 'Verlanglijstje: artikel verwijderd' },
  'saved-search': { mail: 'digest', label: 'Nieuw voor je bewaarde zoekopdracht' },
} as const satisfies Record<string, { mail: MailPreference; label: string }>;
export type NotificationKind = keyof typeof NOTIFICATION_KINDS;
export const NOTIFICATION_KIND_NAMES = Object.keys(NOTIFICATION_KINDS) as NotificationKind[];

/** Every kind's default: what GET preferences answers before the member chose. */
export const DEFAULT_MAIL_PREFERENCES = Object.fromEntries(NOTIFICATION_KIND_NAMES.map((k) => [k, NOTIFICATION_KINDS[k].mail])) as Record<NotificationKind, MailPreference>;

/** At most one mail per conversation within this many minutes (chat-message, direct). */
export const CHAT_MAIL_THROTTLE_MINUTES = 15;
/** The daily digest goes out at this hour, Dutch time. */
export const DIGEST_HOUR = 8;
export const DIGEST_TIME_ZONE = 'Europe/Amsterdam';
/** Read notifications are deleted after this many days; unread ones stay. */
export const READ_NOTIFICATION_DAYS = 90;

export const NOTIFICATION_PAGE_SIZE = 20;
export const NOTIFICATION_PAGE_MAX = 50;

/** The members' page with all notifications and the mail settings (the mail links there). */
export const NOTIFICATIONS_PAGE = '/dashboard/notifications';

/** The live hub (socket.io) through the gateway: each tab of a member gets each event once. */
export const NOTIFICATION_HUB = {
  path: '/notificationhub',
  tokenParam: 'access_token',
  /** Server → client: a new notification (the answer's shape). */
  notification: 'Notification',
  /** Server → client: the member's unread count, on connect and after every change. */
  unreadCount: 'UnreadCount',
  transports: ['websocket'],
} as const;

export const NOTIFICATION_MESSAGES = {
  invalidId: 'Ongeldig id van een melding.',
  notFound: 'Melding niet gevonden.',
  invalidTake: `Kies een aantal van 1 tot en met ${NOTIFICATION_PAGE_MAX}.`,
  invalidCursor: 'Ongeldige positie in de lijst.',
  unknownKind: 'Onbekend soort melding.',
  noPreferences: 'Kies bij minstens één soort melding een e-mailvoorkeur.',
  invalidPreference: `Kies per soort melding ${MAIL_PREFERENCES.map((p) => `"${p}"`).join(', ')}.`,
  invalidToken: 'Deze afmeldlink is ongeldig of beschadigd.',
  unsubscribed: 'Je bent afgemeld. Je krijgt over dit soort meldingen geen e-mail meer.',
  websocketOnly: 'Meldingen komen alleen via een websocket binnen.',
  // The pages and panel (part WEB).
  title: 'Meldingen',
  allRead: 'Alles gelezen',
  none: 'Je hebt nog geen meldingen.',
  mailSettings: 'E-mail per soort melding',
  preferenceLabels: { direct: 'Direct', digest: 'Dagelijks overzicht', off: 'Uit' } satisfies Record<MailPreference, string>,
} as const;
