// Mail in the kit on the real store: queued in the write that causes it, sent by the relay with
// retries, parked with the reason, one-click unsubscribe for mail that is not transactional, and
// the local outbox that /dev/mail shows for every service.
import { randomUUID } from 'node:crypto';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  devMailCollection,
  devMailRoutes,
  html,
  localMailTransport,
  mailFields,
  MAIL_PARKED,
  MAIL_PENDING,
  nowMs,
  observeKitGauge,
  smtpTransport,
  startMailRelay,
  type ListedDevMail,
  type Mail,
  type MailOutboxEntry,
  type MailRelay,
  type MailTransport,
  type ParkedMail,
} from '../src/index.ts';
import { listen, silentLogger } from '../src/testing.ts';
import { testInfra, waitFor } from './helpers.ts';
import { headerOf, startTestSmtp, type TestSmtp } from './smtp-server.ts';

const logger = silentLogger();
let infra: Awaited<ReturnType<typeof testInfra>>;
let smtp: TestSmtp;
// The platform's local outbox is one database; this file's own, so parallel test files keep apart.
const database = `devmail-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  [infra, smtp] = await Promise.all([testInfra('kit-mail'), startTestSmtp()]);
});
afterAll(async () => {
  await infra.db.useDb(database).dropDatabase();
  await Promise.all([infra.close(), smtp.close()]);
});

type Account = {
  _id: string;
  status: string;
  mailOutbox?: Record<string, MailOutboxEntry>;
  mailOutboxPending?: true;
  mailOutboxParked?: Record<string, ParkedMail>;
};
const accounts = (name = 'accounts') => infra.db.collection<Account>(name);
const devMails = () => devMailCollection(infra.db, database);

const notice = (to: string, name = 'Sanne'): Mail => ({
  to,
  subject: 'Je account is geactiveerd',
  text: `Hoi ${name}, je account is geactiveerd.`,
  html: html`<p>Hoi ${name}, je account is geactiveerd.</p>`.value,
  transactional: true,
});
const digest = (to: string, unsubscribeUrl: string): Mail => ({
  to,
  subject: 'Nieuw in je buurt',
  text: 'Drie nieuwe advertenties bij jou in de buurt.',
  html: html`<p>Drie nieuwe advertenties bij jou in de buurt.</p>`.value,
  transactional: false,
  unsubscribeUrl,
});

/** The change and its mail in one conditional single-document write, as a service does it. */
async function activate(id: string, mail: Mail, collection = accounts()) {
  await collection.insertOne({ _id: id, status: 'Nieuw' });
  const done = await collection.updateOne({ _id: id, status: 'Nieuw' }, { $set: { status: 'Actief', ...mailFields(mail) } });
  expect(done.modifiedCount).toBe(1);
}

const relays: MailRelay[] = [];
function relay(transport: MailTransport, options: { collections?: string[]; maxAttempts?: number; retryDelayMs?: (n: number) => number } = {}) {
  const started = startMailRelay({ db: infra.db, collections: options.collections ?? ['accounts'], transport, logger, ...options });
  relays.push(started);
  return started;
}
afterAll(async () => {
  for (const r of relays) await r.stop();
});

const unique = (name: string) => `${name}.${randomUUID().slice(0, 8)}@voorbeeld.nl`;

describe('mail outbox and relay', () => {
  it('sends a mail written with its change once, across a relay restart and a send whose clearing was lost', async () => {
    const to = unique('herstart');
    // Written while no relay runs: as if the writer died before it could kick one.
    await activate('a1', notice(to));
    const [id] = Object.keys((await accounts().findOne({ _id: 'a1' }))!.mailOutbox!);

    const first = relay(localMailTransport(infra.db, 'auth', { database }));
    await waitFor(async () => (await devMails().countDocuments({ to })) === 1);
    await first.stop();
    expect(await accounts().findOne({ _id: 'a1' })).toEqual({ _id: 'a1', status: 'Actief' });

    // Another relay (the restarted process) finds nothing left to send.
    const second = relay(localMailTransport(infra.db, 'auth', { database }));
    await second.flush();
    expect(await devMails().find({ to }).toArray()).toEqual([expect.objectContaining({ _id: id, service: 'auth', subject: 'Je account is geactiveerd' })]);

    // A relay that handed the mail over and died before clearing it: the next one sends the
    // same entry again, and the local outbox keeps it once (same id).
    const again = unique('opnieuw');
    await activate('a2', notice(again));
    const [entryId, entry] = Object.entries((await accounts().findOne({ _id: 'a2' }))!.mailOutbox!)[0]!;
    await localMailTransport(infra.db, 'auth', { database }).send(entryId, entry.mail);
    second.kick('accounts', 'a2');
    await waitFor(async () => (await accounts().countDocuments({ _id: 'a2', ...MAIL_PENDING })) === 0);
    expect(await devMails().countDocuments({ to: again })).toBe(1);

    // A relay that died while handing a mail over left its claim: once the claim ran out, another sends it.
    const claimed = unique('geclaimd');
    await activate('a3', notice(claimed));
    const [claimedId] = Object.keys((await accounts().findOne({ _id: 'a3' }))!.mailOutbox!);
    await accounts().updateOne({ _id: 'a3' }, { $set: { [`mailOutbox.${claimedId}.claimUntil`]: new Date(nowMs() - 1000) } });
    second.kick('accounts', 'a3');
    await waitFor(async () => (await devMails().countDocuments({ to: claimed })) === 1);
    await second.stop();
  });

  it('hands every mail to the mail server once when two relays (replicas) run at the same time', async () => {
    const collection = 'replicas';
    const addresses = Array.from({ length: 12 }, (_, i) => unique(`replica${i}`));
    for (const [i, to] of addresses.entries()) await activate(`r${i}`, notice(to), accounts(collection));
    const a = relay(smtpTransport(smtp.url, 'Ruilplein <noreply@ruilplein.nl>'), { collections: [collection] });
    const b = relay(smtpTransport(smtp.url, 'Ruilplein <noreply@ruilplein.nl>'), { collections: [collection] });
    await Promise.all([a.flush(), b.flush()]);
    await waitFor(async () => (await accounts(collection).countDocuments(MAIL_PENDING)) === 0);
    const mine = smtp.received.filter((m) => addresses.includes(m.to[0]!));
    expect(mine.map((m) => m.to[0]).sort()).toEqual([...addresses].sort());
    // The Message-ID is the entry's: a copy sent after a crash would say it is one.
    expect(new Set(mine.map((m) => headerOf(m.raw, 'Message-ID'))).size).toBe(addresses.length);
    expect(headerOf(mine[0]!.raw, 'Message-ID')).toMatch(/^<[0-9a-f-]{36}@ruilplein\.nl>$/);
  });

  it('tries a mail the server refuses for now again, with growing delays, then parks it with the reason', async () => {
    const to = unique('tijdelijk');
    smtp.refuse = (address) => (address === to ? '451 4.3.0 Mailbox tijdelijk niet beschikbaar' : undefined);
    const collection = 'retries';
    const delays: number[] = [];
    const r = relay(smtpTransport(smtp.url, 'Ruilplein <noreply@ruilplein.nl>'), {
      collections: [collection],
      maxAttempts: 3,
      retryDelayMs: (attempts) => {
        delays.push(attempts);
        return 40 * 2 ** (attempts - 1);
      },
    });
    await activate('t1', notice(to), accounts(collection));
    r.kick(collection, 't1');
    await waitFor(async () => (await accounts(collection).countDocuments({ _id: 't1', ...MAIL_PARKED })) === 1);
    expect(smtp.rcpts.filter((a) => a === to)).toHaveLength(3);
    expect(delays).toEqual([1, 2]);
    const doc = (await accounts(collection).findOne({ _id: 't1' }))!;
    expect(doc.mailOutbox ?? {}).toEqual({});
    const [parked] = Object.values(doc.mailOutboxParked!);
    expect(parked).toMatchObject({ to, subject: 'Je account is geactiveerd', attempts: 3, transactional: true });
    expect(parked!.reason).toContain('451');
    // Parked without its parts: they may hold a link that works once.
    expect(Object.keys(parked!)).not.toContain('text');
    expect(smtp.received.filter((m) => m.to.includes(to))).toEqual([]);
    // Counted by the gauge, per collection.
    const observed = (await observeKitGauge('ruilplein.mail.parked')).flat().filter((o) => o.attributes.collection === collection);
    expect(observed.map((o) => o.value)).toContain(1);
  });

  it('parks at once a mail the server refuses for good (5xx), and goes on with the others', async () => {
    const gone = unique('bestaatniet');
    const fine = unique('bestaat');
    smtp.refuse = (address) => (address === gone ? '550 5.1.1 Onbekende ontvanger' : undefined);
    const collection = 'refusals';
    const r = relay(smtpTransport(smtp.url, 'Ruilplein <noreply@ruilplein.nl>'), { collections: [collection] });
    await activate('g1', notice(gone), accounts(collection));
    await activate('g2', notice(fine), accounts(collection));
    r.kick(collection, 'g1');
    r.kick(collection, 'g2');
    await waitFor(async () => smtp.received.some((m) => m.to.includes(fine)));
    await waitFor(async () => (await accounts(collection).countDocuments({ _id: 'g1', ...MAIL_PARKED })) === 1);
    expect(smtp.rcpts.filter((a) => a === gone)).toHaveLength(1);
    const [parked] = Object.values((await accounts(collection).findOne({ _id: 'g1' }))!.mailOutboxParked!);
    expect(parked).toMatchObject({ attempts: 1, reason: expect.stringContaining('550') });
  });

  it('sends HTML and text parts, every interpolated value escaped in the HTML', async () => {
    const to = unique('escape');
    const name = `<img src=x onerror="alert('x')">&Co`;
    const r = relay(smtpTransport(smtp.url, 'Ruilplein <noreply@ruilplein.nl>'), { collections: ['escapes'] });
    await activate('e1', notice(to, name), accounts('escapes'));
    r.kick('escapes', 'e1');
    await waitFor(() => smtp.received.some((m) => m.to.includes(to)));
    const raw = smtp.received.find((m) => m.to.includes(to))!.raw;
    expect(headerOf(raw, 'Content-Type')).toMatch(/^multipart\/alternative/);
    const parts = decodedParts(raw);
    expect(parts['text/html']).toContain('<p>Hoi &#60;img src=x onerror=&#34;alert(&#39;x&#39;)&#34;&#62;&#38;Co, je account');
    expect(parts['text/html']).not.toContain('<img');
    expect(parts['text/plain']).toContain(`Hoi ${name}, je account`);
  });

  it('adds List-Unsubscribe and one-click List-Unsubscribe-Post to mail that is not transactional, and neither to transactional mail', async () => {
    const bulk = unique('nieuwsbrief');
    const own = unique('eigen');
    const unsubscribe = `https://ruilplein.nl/api/notifications/unsubscribe?token=${randomUUID()}`;
    const r = relay(smtpTransport(smtp.url, 'Ruilplein <noreply@ruilplein.nl>'), { collections: ['lists'] });
    await activate('l1', digest(bulk, unsubscribe), accounts('lists'));
    await activate('l2', notice(own), accounts('lists'));
    r.kick('lists', 'l1');
    r.kick('lists', 'l2');
    await waitFor(() => [bulk, own].every((to) => smtp.received.some((m) => m.to.includes(to))));
    const rawOf = (to: string) => smtp.received.find((m) => m.to.includes(to))!.raw;
    expect(headerOf(rawOf(bulk), 'List-Unsubscribe')).toBe(`<${unsubscribe}>`);
    expect(headerOf(rawOf(bulk), 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(headerOf(rawOf(own), 'List-Unsubscribe')).toBeUndefined();
    expect(headerOf(rawOf(own), 'List-Unsubscribe-Post')).toBeUndefined();
  });

  it('refuses to queue a mail that is not transactional without an unsubscribe URL, before anything is written', () => {
    expect(() => mailFields({ ...digest(unique('x'), 'javascript:alert(1)') })).toThrow(/unsubscribeUrl/);
    expect(() => mailFields({ ...notice(unique('x')), subject: 'Hoi\r\nBcc: iedereen@voorbeeld.nl' })).toThrow(/line break/);
  });
});

describe('/dev/mail', () => {
  it('lists the mail of every service from the one local outbox, newest first, with both parts and the headers', async () => {
    const to = unique('tweediensten');
    const listingDb = infra.db.useDb(`${infra.dbName}-listing`);
    const tradeDb = infra.db.useDb(`${infra.dbName}-trade`);
    try {
      const listing = startMailRelay({ db: listingDb, collections: ['listings'], transport: localMailTransport(listingDb, 'listing', { database }), logger });
      const trade = startMailRelay({ db: tradeDb, collections: ['offers'], transport: localMailTransport(tradeDb, 'trade', { database }), logger });
      relays.push(listing, trade);
      await activate('x1', digest(to, 'https://ruilplein.nl/afmelden?token=abc'), listingDb.collection<Account>('listings'));
      listing.kick('listings', 'x1');
      await waitFor(async () => (await devMails().countDocuments({ to })) === 1);
      await activate('y1', notice(to), tradeDb.collection<Account>('offers'));
      trade.kick('offers', 'y1');
      await waitFor(async () => (await devMails().countDocuments({ to })) === 2);

      const router = express.Router();
      devMailRoutes(router, infra.db, logger, { database });
      const served = await listen(express().use(router));
      try {
        const list = (await (await fetch(`${served.url}/dev/mail/messages.json?to=${encodeURIComponent(to)}`)).json()) as ListedDevMail[];
        expect(list.map((m) => m.service)).toEqual(['trade', 'listing']);
        expect(list[1]).toMatchObject({
          to,
          subject: 'Nieuw in je buurt',
          text: 'Drie nieuwe advertenties bij jou in de buurt.',
          html: '<p>Drie nieuwe advertenties bij jou in de buurt.</p>',
          headers: { 'List-Unsubscribe': '<https://ruilplein.nl/afmelden?token=abc>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        });
        expect(list[0]!.headers).toEqual({});
        const page = await (await fetch(`${served.url}/dev/mail`)).text();
        expect(page).toContain('Van <strong>listing</strong>');
        expect(page).toContain('Van <strong>trade</strong>');
      } finally {
        await served.close();
      }
    } finally {
      await Promise.all([listingDb.dropDatabase(), tradeDb.dropDatabase()]);
    }
  });
});

/** The text and HTML parts of a raw multipart/alternative message, transfer encoding undone. */
function decodedParts(raw: string): Record<string, string> {
  const boundary = /boundary="?([^";\r\n]+)"?/.exec(headerOf(raw, 'Content-Type') ?? '')![1]!;
  const parts: Record<string, string> = {};
  for (const part of raw.split(`--${boundary}`).slice(1, -1)) {
    const [head = '', ...rest] = part.replace(/^\r\n/, '').split('\r\n\r\n');
    const body = rest.join('\r\n\r\n').replace(/\r\n$/, '');
    const headers = `${head}\r\n\r\n`;
    const type = headerOf(headers, 'Content-Type')!.split(';')[0]!.trim();
    const encoding = headerOf(headers, 'Content-Transfer-Encoding')?.toLowerCase();
    parts[type] =
      encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : encoding === 'quoted-printable'
          ? Buffer.from(body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8')
          : body;
  }
  return parts;
}
