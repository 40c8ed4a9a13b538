/**
 * The SMTP mailer (SMTP_URL) delivers through a real SMTP dialogue, here with a minimal local
 * SMTP server that records what it receives.
 */
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../server/logger.ts';
import { createSmtpMailer } from '../../server/mail/smtp-mailer.ts';

let server: Server;
let port = 0;
const received: { from: string; to: string[]; data: string }[] = [];

beforeAll(async () => {
  server = createServer((socket) => {
    let buffer = '';
    let inData = false;
    let current = { from: '', to: [] as string[], data: '' };
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let index: number;
      while ((index = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push(current);
            current = { from: '', to: [], data: '' };
            socket.write('250 queued\r\n');
          } else {
            current.data += `${line}\n`;
          }
          continue;
        }
        const command = line.slice(0, 4).toUpperCase();
        if (command === 'EHLO' || command === 'HELO') socket.write('250 test\r\n');
        else if (command === 'MAIL') {
          current.from = line;
          socket.write('250 ok\r\n');
        } else if (command === 'RCPT') {
          current.to.push(line);
          socket.write('250 ok\r\n');
        } else if (command === 'DATA') {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (command === 'QUIT') {
          socket.end('221 bye\r\n');
        } else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

it('sends the message over SMTP', async () => {
  const mailer = createSmtpMailer({
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    from: 'Satchel <no-reply@satchel.test>',
    logger: createLogger({ level: 'silent' }),
  });
  await mailer.send({ to: 'ada@example.com', subject: 'Confirm your signup', text: 'Hello Ada' });
  expect(received).toHaveLength(1);
  expect(received[0]?.from).toContain('no-reply@satchel.test');
  expect(received[0]?.to[0]).toContain('ada@example.com');
  expect(received[0]?.data).toContain('Subject: Confirm your signup');
  expect(received[0]?.data).toContain('Hello Ada');
});
