/**
 * Mail through an SMTP server (SMTP_URL, e.g. smtps://user:pass@smtp.example.com:465), sent with
 * nodemailer. One connection per message (auth mail is rare; nothing idles open between
 * messages); a failed send rejects, and the caller (an after-commit effect) logs it.
 */
import nodemailer from 'nodemailer';
import type { Logger } from '../logger.ts';
import type { MailMessage, Mailer } from './mailer.ts';

export function createSmtpMailer(options: { url: string; from: string; logger: Logger }): Mailer {
  const transport = nodemailer.createTransport(options.url);
  return {
    async send(message: MailMessage): Promise<void> {
      const info = await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.replyTo ? { replyTo: message.replyTo } : {}),
      });
      // The message id ties a delivery complaint to this log line; the address stays out of logs.
      options.logger.info({ messageId: info.messageId }, 'mail sent over smtp');
    },
  };
}
