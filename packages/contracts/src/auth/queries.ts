// Request/reply queries the auth service answers on `rpc.auth.<entity>.<verb>`.
import { z } from 'zod';
import { defineQueries, defineQuery } from '../routes.ts';

/** Ids per contacts question: the store's `_id` lookup takes up to 500 at once. */
export const CONTACTS_PER_QUERY = 500;

export const authQueries = defineQueries('auth', {
  /**
   * Where to mail members (the notification service's mails): the address of each activated,
   * existing member among `ids`; unknown, deleted and not yet activated members are left out. Auth's
   * events never carry addresses, so nobody else keeps them.
   */
  contacts: defineQuery({
    subject: 'rpc.auth.member.contacts',
    request: z.object({ ids: z.array(z.string().min(1).max(60)).max(CONTACTS_PER_QUERY) }),
    response: z.array(z.object({ id: z.string(), email: z.string() })),
  }),
});
