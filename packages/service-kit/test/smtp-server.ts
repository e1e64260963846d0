// A small SMTP server for tests: speaks enough of the protocol for nodemailer, keeps every message
// it accepted (raw, as a mail server would receive it) and answers RCPT as the test decides.
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent: headers, blank line, MIME body. */
  raw: string;
}

export interface TestSmtp {
  url: string;
  received: ReceivedMail[];
  /** RCPT commands seen, accepted or not (each try of the relay is one). */
  rcpts: string[];
  /** Answers RCPT TO for an address: undefined accepts (250), else the reply line, e.g. `451 4.3.0 tijdelijk`. */
  refuse: (to: string) => string | undefined;
  close(): Promise<void>;
}

/** One header of a raw message (unfolded), or undefined. */
export function headerOf(raw: string, name: string): string | undefined {
  const head = raw.split('\r\n\r\n', 1)[0]!.replace(/\r\n[ \t]+/g, ' ');
  const line = head.split('\r\n').find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const sockets = new Set<Socket>();
  const smtp: TestSmtp = {
    url: '',
    received: [],
    rcpts: [],
    refuse: () => undefined,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = '';
    let data: string | undefined;
    let current: ReceivedMail = { from: '', to: [], raw: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 test.local ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (data !== undefined) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          data += buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          smtp.received.push({ ...current, raw: data.replace(/^\.\./gm, '.') });
          data = undefined;
          current = { from: '', to: [], raw: '' };
          reply('250 2.0.0 queued');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 test.local');
        else if (verb === 'MAIL') {
          current = { from: /<([^>]*)>/.exec(line)?.[1] ?? '', to: [], raw: '' };
          reply('250 2.1.0 ok');
        } else if (verb === 'RCPT') {
          const to = /<([^>]*)>/.exec(line)?.[1] ?? '';
          smtp.rcpts.push(to);
          const refused = smtp.refuse(to);
          if (refused) reply(refused);
          else {
            current.to.push(to);
            reply('250 2.1.5 ok');
          }
        } else if (verb === 'DATA') {
          data = '';
          reply('354 go ahead');
        } else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('250 ok'); // RSET, NOOP
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  smtp.url = `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return smtp;
}
