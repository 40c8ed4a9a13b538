import { randomUUID } from 'node:crypto';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import type { RateLimiter, RateLimitRule } from '../http/rate-limiter.ts';

/** Per client IP, signed in or not: the same budget as the contact form. */
export const feedbackRateLimit: RateLimitRule = { name: 'feedback', max: 5, windowMs: 10 * 60_000 };

export function createFeedbackHandlers(deps: {
  rateLimiter: RateLimiter;
}): ResourceHandlers<'feedback'> {
  return {
    'feedback/submit-feedback': async ({ body, identity, tx, clientIp, logger }) => {
      deps.rateLimiter.consume(feedbackRateLimit, clientIp);
      if (body.website) {
        logger.info({ honeypot: true }, 'feedback form honeypot filled; discarded');
        return { ok: true };
      }
      // Security: the user id comes from the verified token only; the body schema drops any other.
      await tx.query(
        `INSERT INTO feedback (id, rating, category, message, email, user_id, ip)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          randomUUID(),
          body.rating,
          body.category,
          body.message,
          body.email ?? null,
          identity?.userId ?? null,
          clientIp,
        ],
      );
      return { ok: true };
    },
  };
}
