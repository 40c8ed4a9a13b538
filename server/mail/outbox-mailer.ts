/**
 * Mail without a mail server: each message becomes an RFC 5322 `.eml` file in
 * DATA_DIR/outbox/mail/, named so that names sort by time, and the file is logged.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logger.ts';
import type { MailMessage, Mailer } from './mailer.ts';

export function createOutboxMailer(options: { dir: string; from: string; logger: Logger }): Mailer {
  return {
    async send(message: MailMessage): Promise<void> {
      await mkdir(options.dir, { recursive: true });
      const now = new Date();
      const name = `${now.toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`;
      const file = path.join(options.dir, name);
      await writeFile(file, formatEml(message, options.from, now), { flag: 'wx' });
      options.logger.info(
        { file, to: message.to, subject: message.subject },
        'mail written to outbox',
      );
    },
  };
}

export function formatEml(message: MailMessage, from: string, date: Date): string {
  const headers = [
    `From: ${headerValue(from)}`,
    `To: ${headerValue(message.to)}`,
    ...(message.replyTo ? [`Reply-To: ${headerValue(message.replyTo)}`] : []),
    `Subject: ${headerValue(message.subject)}`,
    `Date: ${date.toUTCString()}`,
    `Message-ID: <${randomUUID()}@satchel.local>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
  ];
  const body = Buffer.from(message.text, 'utf8').toString('base64').replace(/.{76}/g, '$&\r\n');
  return `${headers.join('\r\n')}\r\n\r\n${body}\r\n`;
}

/**
 * Security: header values come from form input. Line breaks would let a sender add headers
 * (Bcc injection), so they are folded to spaces; non-ASCII is RFC 2047 encoded.
 */
function headerValue(value: string): string {
  const flat = value.replace(/[\r\n]+/g, ' ');
  if (/^[\x20-\x7e]*$/.test(flat)) return flat;
  return `=?UTF-8?B?${Buffer.from(flat, 'utf8').toString('base64')}?=`;
}
