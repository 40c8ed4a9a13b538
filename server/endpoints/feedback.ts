import { randomUUID } from 'node:crypto';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';

export function createFeedbackHandlers(): ResourceHandlers<'feedback'> {
  return {
    'feedback/submit-feedback': async ({ body, identity, tx, clientIp, logger }) => {
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
