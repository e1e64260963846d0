// Where each notification route lives and who may call it: zod-free, so the browser's typed client
// takes these very objects (`@ruilplein/contracts/browser`); routes.ts adds summaries and schemas.
// The live hub (/notificationhub) is no route: notification/rules.ts NOTIFICATION_HUB describes it.
import { defineRefs } from '../routes.ts';

export const notificationRefs = defineRefs({
  list: { service: 'notification', method: 'get', path: '/api/notification', access: 'user', personal: true },
  unreadCount: { service: 'notification', method: 'get', path: '/api/notification/unread-count', access: 'user', personal: true },
  readAll: { service: 'notification', method: 'post', path: '/api/notification/read-all', access: 'user' },
  preferences: { service: 'notification', method: 'get', path: '/api/notification/preferences', access: 'user', personal: true },
  setPreferences: { service: 'notification', method: 'put', path: '/api/notification/preferences', access: 'user' },
  // The mail's link and one-click unsubscribe (RFC 8058): no login, the signed token says who and what.
  unsubscribePage: { service: 'notification', method: 'get', path: '/api/notification/unsubscribe', access: 'public', rateLimit: { per: 'client', points: 60, windowSeconds: 60, name: 'notification-unsubscribe' } },
  unsubscribe: { service: 'notification', method: 'post', path: '/api/notification/unsubscribe', access: 'public', rateLimit: { per: 'client', points: 60, windowSeconds: 60, name: 'notification-unsubscribe' } },
  // After the fixed paths: `:id` would take them otherwise.
  read: { service: 'notification', method: 'post', path: '/api/notification/:id/read', access: 'user' },
});
