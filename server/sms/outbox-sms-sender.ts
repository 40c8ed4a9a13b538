/**
 * SMS without a provider: each message becomes a `.txt` file in DATA_DIR/outbox/sms/, named so
 * that names sort by time (like the mail outbox), and the file is logged.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logger.ts';
import type { SmsMessage, SmsSender } from './sms-sender.ts';

export function createOutboxSmsSender(options: { dir: string; logger: Logger }): SmsSender {
  return {
    async send(message: SmsMessage): Promise<void> {
      await mkdir(options.dir, { recursive: true });
      const now = new Date();
      const name = `${now.toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.txt`;
      const file = path.join(options.dir, name);
      const to = message.to.replace(/[^\d+]/g, '');
      await writeFile(file, `To: ${to}\nDate: ${now.toUTCString()}\n\n${message.text}\n`, {
        flag: 'wx',
      });
      options.logger.info({ file }, 'sms written to outbox');
    },
  };
}
