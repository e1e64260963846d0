// Mail addresses live in auth only: a service that mails asks auth's `rpc.auth.member.contacts`
// when it composes a mail (notification, payment), never keeps a copy.
import { authQueries, CONTACTS_PER_QUERY } from '@ruilplein/contracts';
import { requestQuery, type Bus } from '../nats.ts';

/** The addresses of these members (activated, existing ones only) by lower-cased id, asking auth in questions of CONTACTS_PER_QUERY. */
export const askAuthForContacts =
  (bus: Bus) =>
  async (ids: readonly string[]): Promise<Map<string, string>> => {
    const found = new Map<string, string>();
    for (let i = 0; i < ids.length; i += CONTACTS_PER_QUERY) {
      for (const c of await requestQuery(bus, authQueries.contacts, { ids: ids.slice(i, i + CONTACTS_PER_QUERY) }, 10_000)) found.set(c.id.toLowerCase(), c.email);
    }
    return found;
  };
