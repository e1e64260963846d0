// The chat keeps no read marks; the notification service keeps one unread notification per
// conversation (kind chat-message, linking to the offer). Opening the chat marks it read.
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { NOTIFICATION_PAGE_MAX, notificationApi } from '@ruilplein/contracts/browser';
import { request, useApi } from '@ruilplein/ui';

export function useChatRead(offerId: number, shown: boolean): void {
  const queries = useQueryClient();
  // The same call as the offers list: one request, one cache entry, refreshed live by the shell's notification hub.
  const notifications = useApi(notificationApi.list, { query: { take: NOTIFICATION_PAGE_MAX } }, { enabled: shown });
  const link = `/dashboard/tradeoffer/${offerId}`;
  const unread = (notifications.data ?? []).filter((n) => n.kind === 'chat-message' && !n.readAt && n.link === link).map((n) => n.id);
  const key = unread.join(' ');
  useEffect(() => {
    if (!shown || !key) return;
    void Promise.all(key.split(' ').map((id) => request(notificationApi.read, { params: { id } })))
      .catch((err: unknown) => console.warn('Chatmelding als gelezen markeren mislukt', err))
      .finally(() => void queries.invalidateQueries({ predicate: ({ queryKey }) => typeof queryKey[1] === 'string' && queryKey[1].startsWith(notificationApi.list.path) }));
  }, [shown, key, queries]);
}
