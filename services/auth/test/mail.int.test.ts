// Auth's mails go through the kit's mail outbox: written in the same update as the account change
// that causes them, sent by the relay, and not lost when the mail server or the process is away.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MailOutboxEntry, MailTransport } from '@ruilplein/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userCollection, type UserCollection } from '../src/accounts/model.ts';
import { authStores, GOOD_PASSWORD, linkTokenFromMail, mailsTo, post, startAuth, uniqueEmail, type AuthStores } from './helpers.ts';

let stores: AuthStores;
let users: UserCollection;
let clockDir: string;

beforeAll(async () => {
  stores = await authStores();
  users = userCollection(stores.db);
  clockDir = await mkdtemp(join(tmpdir(), 'auth-mail-clock-'));
});
afterAll(async () => {
  delete process.env.RUILPLEIN_CLOCK_FILE;
  await rm(clockDir, { recursive: true, force: true });
  await stores.close();
});

/** A mail server that is away: every hand-over fails as a refused connection does. */
function awayServer() {
  const tries: string[] = [];
  const transport: MailTransport = {
    kind: 'smtp',
    async send(_id, mail) {
      tries.push(mail.to);
      throw new Error('connect ECONNREFUSED 127.0.0.1:25');
    },
  };
  return { transport, tries };
}

const outboxOf = async (email: string) => {
  const doc = await users.findOne<{ mailOutbox?: Record<string, MailOutboxEntry>; mailOutboxPending?: boolean; activation?: unknown }>({ email: email.toLowerCase() });
  return doc!;
};

describe('auth mail through the mail outbox', () => {
  it('writes the activation mail with the registration and sends it once after a restart, though the mail server was away', async () => {
    const away = awayServer();
    const down = await startAuth(stores, {}, { mailTransport: away.transport });
    const email = uniqueEmail('weg');
    try {
      const res = await post(down.url, '/api/auth/register', { firstName: 'Sanne', lastName: 'Jansen', email, password: GOOD_PASSWORD });
      expect(res.status).toBe(201);
      // The account and its mail came in one write: the mail waits in the account's document.
      const doc = await outboxOf(email);
      expect(doc.activation).toBeDefined();
      expect(doc.mailOutboxPending).toBe(true);
      expect(Object.values(doc.mailOutbox!).map((e) => e.mail)).toEqual([
        expect.objectContaining({ to: email.toLowerCase(), subject: 'Activeer je Ruilplein-account', transactional: true }),
      ]);
      await expect.poll(async () => Object.values((await outboxOf(email)).mailOutbox!)[0]!.attempts, { timeout: 5000 }).toBe(1);
      expect(Object.values((await outboxOf(email)).mailOutbox!)[0]!.lastError).toContain('ECONNREFUSED');
    } finally {
      await down.stop();
    }
    expect(away.tries).toEqual([email.toLowerCase()]);

    // A new process with a working transport (the local outbox). The failed mail waits a minute
    // before its next try: the platform's clock moves on instead of the test waiting.
    const clockFile = join(clockDir, 'offset-ms');
    await writeFile(clockFile, String(2 * 60_000));
    process.env.RUILPLEIN_CLOCK_FILE = clockFile;
    const up = await startAuth(stores);
    try {
      const token = await linkTokenFromMail(up.url, email, 'verify-email');
      expect((await fetch(`${up.url}/api/auth/activate?token=${token}`)).status).toBe(200);
      await expect.poll(async () => (await outboxOf(email)).mailOutboxPending, { timeout: 5000 }).toBeUndefined();
      expect(await mailsTo(up.url, email)).toHaveLength(1);
    } finally {
      await up.stop();
      delete process.env.RUILPLEIN_CLOCK_FILE;
    }
  });

  it('escapes the member’s name in the HTML part and keeps it as typed in the text part', async () => {
    const auth = await startAuth(stores);
    try {
      const email = uniqueEmail('naam');
      const firstName = `<b>Sanne & "Co"</b>`;
      expect((await post(auth.url, '/api/auth/register', { firstName, lastName: 'J', email, password: GOOD_PASSWORD })).status).toBe(201);
      await linkTokenFromMail(auth.url, email, 'verify-email');
      const [mail] = await mailsTo(auth.url, email);
      expect(mail!.html).toContain('<p>Hoi &#60;b&#62;Sanne &#38; &#34;Co&#34;&#60;/b&#62;,</p>');
      expect(mail!.html).not.toContain('<b>');
      expect(mail!.text).toContain(`Hoi ${firstName},`);
      // Auth's mails answer the member's own request: transactional, no unsubscribe headers.
      expect(mail!.headers).toEqual({});
      expect(mail!.service).toBe('auth');
    } finally {
      await auth.stop();
    }
  });

  it('writes the reset mail with the reset link it carries', async () => {
    const away = awayServer();
    const auth = await startAuth(stores, {}, { mailTransport: away.transport });
    try {
      const email = uniqueEmail('reset');
      expect((await post(auth.url, '/api/auth/register', { firstName: 'S', lastName: 'J', email, password: GOOD_PASSWORD })).status).toBe(201);
      const res = await post(auth.url, '/api/auth/request-password-reset', JSON.stringify(email), { 'content-type': 'application/json' });
      expect(res.status).toBe(200);
      const doc = await users.findOne<{ passwordReset?: unknown; mailOutbox?: Record<string, MailOutboxEntry> }>({ email: email.toLowerCase() });
      expect(doc!.passwordReset).toBeDefined();
      expect(Object.values(doc!.mailOutbox!).map((e) => e.mail.subject).sort()).toEqual(['Activeer je Ruilplein-account', 'Stel een nieuw wachtwoord in voor Ruilplein']);
    } finally {
      await auth.stop();
    }
  });
});
