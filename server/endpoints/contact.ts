import { randomUUID } from 'node:crypto';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import type { RateLimiter, RateLimitRule } from '../http/rate-limiter.ts';
import type { Mailer } from '../mail/mailer.ts';

/** Per client IP: a person writes a handful of messages; a script writes hundreds. */
export const contactRateLimit: RateLimitRule = { name: 'contact', max: 5, windowMs: 10 * 60_000 };

export function createContactHandlers(deps: {
  mailer: Mailer;
  contactEmail: string;
  rateLimiter: RateLimiter;
}): ResourceHandlers<'contact'> {
  return {
    'contact/submit-contact': async ({ body, tx, clientIp, afterCommit, logger }) => {
      // Counted before the honeypot check, so a bot retrying with the trap filled is limited too.
      deps.rateLimiter.consume(contactRateLimit, clientIp);
      if (body.website) {
        // A filled honeypot is a bot: answer like a success so it learns nothing, keep nothing.
        logger.info({ honeypot: true }, 'contact form honeypot filled; discarded');
        return { ok: true };
      }
      const id = randomUUID();
      await tx.query(
        `INSERT INTO contact_message (id, name, email, subject, message, ip)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [id, body.name, body.email, body.subject, body.message, clientIp],
      );
      afterCommit(() =>
        deps.mailer.send({
          to: deps.contactEmail,
          replyTo: `${body.name} <${body.email}>`,
          subject: `[Satchel contact] ${body.subject}`,
          text: `From: ${body.name} <${body.email}>\nMessage id: ${id}\n\n${body.message}\n`,
        }),
      );
      return { ok: true };
    },
  };
}
