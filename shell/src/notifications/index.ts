// Notifications (issue 22): the shell's own, as they belong to every member page (docs/decisions.md "Who owns the notifications?").
export { NotificationBell } from './Bell.tsx';
export { useNotificationHub } from './hub.ts';
export { NotificationsPage } from './NotificationsPage.tsx';
export { useUnreadTitle } from './title.ts';
export { WarningNotice } from './WarningNotice.tsx';
