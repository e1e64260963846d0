// The notification service over real HTTP on the run's stores (the kit's harness): members made the
// way production makes them (auth's events), other services' events published as they would, the
// addresses auth would answer, and mails kept in a database of this run's own (as /dev/mail would).
import { randomUUID } from 'node:crypto';
import { devMailCollection, localMailTransport, type DevMail } from '@ruilplein/service-kit';
import { send, silentLogger, startServiceForTest, waitFor, type Json, type ServiceTest, type TestMember } from '@ruilplein/service-kit/testing';
import { createNotificationService, type NotificationService } from '../src/app.ts';

export { send, waitFor, type Json, type TestMember };

export type NotificationHarness = ServiceTest<NotificationService> & {
  /** Mails the service handed over, newest first (what /dev/mail/messages.json lists). */
  mails(to?: string): Promise<DevMail[]>;
  list(member: TestMember, query?: string): Promise<Json[]>;
  /** Waits until the member has `n` notifications; answers them. */
  until(member: TestMember, n: number, what?: string): Promise<Json[]>;
};

export const emailOf = (id: string) => `lid-${id}@ruilplein.test`;

export async function startNotification(): Promise<NotificationHarness> {
  const mailDatabase = `devmail-${randomUUID().slice(0, 8)}`;
  const h = await startServiceForTest({
    service: 'notification',
    streams: ['auth', 'trade', 'chat', 'moderation', 'payment', 'listing'],
    create: (deps) =>
      createNotificationService({
        ...deps,
        logger: silentLogger(),
        allowOrigin: () => true,
        config: { PUBLIC_URL: 'https://ruilplein.test', NOTIFICATION_UNSUBSCRIBE_KEY: 'test-key-of-at-least-thirty-two-characters', NOTIFICATION_CHECK_SECONDS: 3600 },
        mailTransport: localMailTransport(deps.db, 'notification', { database: mailDatabase }),
        contacts: async (ids) => new Map(ids.map((id) => [id, emailOf(id)])),
        hubStream: `notification-test:${randomUUID()}`,
      }),
  });
  const mailbox = devMailCollection(h.db, mailDatabase);
  h.onClose(() => h.db.useDb(mailDatabase).dropDatabase());
  const list = async (member: TestMember, query = '') => {
    const res = await send(h.url, `/api/notification${query}`, { token: member.token });
    if (res.status !== 200) throw new Error(`list: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Json[];
  };
  return Object.assign(h, {
    mails: (to?: string) => mailbox.find(to ? { to } : {}).sort({ sentAt: -1 }).toArray(),
    list,
    async until(member: TestMember, n: number, what = 'notifications') {
      let found: Json[] = [];
      await waitFor(async () => (found = await list(member)).length >= n, `${n} ${what} of ${member.id}`);
      return found;
    },
  });
}
