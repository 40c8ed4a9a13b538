/**
 * Spec section 7 sends notification-connect's claims as headers (`x-user-id`, `x-workspace-id`),
 * but operations read their input from the query and body only. Mounted at /api/signalr, ahead
 * of the dispatcher, this copies those headers into the query keys the contract declares
 * (`userId`, `workspaceId`), where the handler checks them against the bearer token.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';

const CLAIM_HEADERS = [
  ['x-user-id', 'userId'],
  ['x-workspace-id', 'workspaceId'],
] as const;

export const SIGNALR_API_PATH = '/api/signalr';

export function createSignalrHeaderAlias(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    const url = new URL(c.req.url);
    // Both spellings: /api/signalr/notification-connect and /api/signalr?endpoint=notification-connect.
    const operation = url.pathname.split('/')[3] ?? url.searchParams.get('endpoint');
    if (operation === 'notification-connect') {
      let changed = false;
      for (const [header, key] of CLAIM_HEADERS) {
        const claim = headerClaim(c.req.header(header));
        if (claim === null) continue;
        const given = url.searchParams.get(key);
        if (given !== null && given !== claim) {
          throw new AppError(ErrorCode.VALIDATION_FAILED, `${header} and ?${key}= disagree.`);
        }
        if (given === null) {
          url.searchParams.set(key, claim);
          changed = true;
        }
      }
      if (changed) {
        const raw = c.req.raw;
        // Node's fetch needs `duplex` to forward a streamed body (absent from DOM's RequestInit).
        const init: RequestInit & { duplex: 'half' } = {
          method: raw.method,
          headers: raw.headers,
          body: raw.body,
          duplex: 'half',
          signal: raw.signal,
        };
        c.req.raw = new Request(url, init);
      }
    }
    await next();
  });
  return app;
}

/** A header's value as a claim; absent, empty, "null" and "undefined" (sloppy clients) claim nothing. */
function headerClaim(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' || trimmed === 'null' || trimmed === 'undefined' ? null : trimmed;
}
