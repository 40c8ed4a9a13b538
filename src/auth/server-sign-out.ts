/**
 * Ending a signed-out session on the server (POST /auth/v1/logout?scope=local), when the device
 * may be offline. The device has already forgotten the session (supabase-auth-controller.ts), so a
 * sign-out always holds here; this only makes the server refuse the session's tokens too. A call
 * that cannot reach the server keeps the access token in storage and is sent again at the next
 * start of the app or when the browser comes back online. Any answer from the server ends the wait:
 * a success, or a refusal (the session already ended, the token expired: nothing left to end).
 *
 * Only the access token is kept, never the refresh token. The server takes an expired one for
 * this call alone, for SIGN_OUT_GRACE_SECONDS (contract/sign-out-grace.ts), so a sign-out made on
 * a long flight still ends the session on landing; past that it is dropped unsent (the server
 * would refuse it), and the session, whose refresh token no device holds any more, is left.
 */
import { SIGN_OUT_GRACE_SECONDS } from '#contract/sign-out-grace.ts';
import { decodeJwtPayload } from './auth-session.ts';

export type ServerSignOutAnswer = 'answered' | 'unreachable';

export interface ServerSignOutDeps {
  /** The server's logout with this access token (supabase-js `auth.admin.signOut(token, 'local')`). */
  logout(accessToken: string): Promise<ServerSignOutAnswer>;
  /** Where unsent sign-outs wait (localStorage); none: they are not retried. */
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined;
  now?: () => number;
}

export interface ServerSignOut {
  /** Ends the session of this token on the server, or keeps it for a later try. */
  end(accessToken: string): Promise<void>;
  /** Sends the sign-outs still waiting (app start, `online`). */
  retryWaiting(): Promise<void>;
}

export const WAITING_SIGN_OUTS_KEY = 'satchel.waiting-sign-outs';
/** A device signs out a handful of times offline at most; a bound keeps storage small. */
const MAX_WAITING = 10;

export function createServerSignOut(deps: ServerSignOutDeps): ServerSignOut {
  const now = deps.now ?? Date.now;

  /** Whether the server would still take it to end its session. */
  const stillValid = (token: string) => {
    const exp = decodeJwtPayload(token).exp;
    return typeof exp === 'number' && (exp + SIGN_OUT_GRACE_SECONDS) * 1000 > now();
  };

  const read = (): string[] => {
    try {
      const parsed: unknown = JSON.parse(deps.storage?.getItem(WAITING_SIGN_OUTS_KEY) ?? '[]');
      return Array.isArray(parsed)
        ? parsed.filter((item): item is string => typeof item === 'string')
        : [];
    } catch {
      return [];
    }
  };

  const write = (tokens: readonly string[]) => {
    try {
      if (tokens.length === 0) deps.storage?.removeItem(WAITING_SIGN_OUTS_KEY);
      else deps.storage?.setItem(WAITING_SIGN_OUTS_KEY, JSON.stringify(tokens));
    } catch {
      // Storage refused (quota, privacy mode): the sign-out is not retried, the device is still
      // signed out.
    }
  };

  const send = async (token: string): Promise<boolean> => {
    try {
      return (await deps.logout(token)) === 'answered';
    } catch {
      return false;
    }
  };

  let retrying: Promise<void> | null = null;

  return {
    async end(accessToken) {
      if (await send(accessToken)) return;
      const waiting = read().filter((token) => token !== accessToken && stillValid(token));
      if (stillValid(accessToken)) waiting.push(accessToken);
      write(waiting.slice(-MAX_WAITING));
    },
    retryWaiting() {
      // One pass at a time: `online` can fire while the start's pass is still under way.
      retrying ??= (async () => {
        const done = new Set<string>();
        for (const token of read()) {
          if (!stillValid(token) || (await send(token))) done.add(token);
        }
        // Read again: a sign-out made while this pass ran waits too.
        write(read().filter((token) => !done.has(token) && stillValid(token)));
      })().finally(() => {
        retrying = null;
      });
      return retrying;
    },
  };
}
