/**
 * The address a request came from, for rate limits, idempotency scopes, audit rows and captcha
 * checks. X-Forwarded-For is written by whoever sends the request, so it is believed only as far
 * as configured: with N trusted proxies in front, each appends the address it received from, so
 * the client is the entry N places left of the socket; anything further left may be forged.
 */
import { isIP } from 'node:net';

export interface ClientAddressInput {
  /** The TCP peer; null when unknown (in-process requests in tests). */
  socketAddress: string | null;
  /** The X-Forwarded-For header as received (several headers joined by commas). */
  forwardedFor: string | null;
  /** TRUST_PROXY: how many proxies in front of this server append to X-Forwarded-For. */
  trustedHops: number;
}

export function clientAddress(input: ClientAddressInput): string {
  const socket = input.socketAddress ?? 'unknown';
  if (input.trustedHops <= 0 || !input.forwardedFor) return socket;
  const forwarded = input.forwardedFor
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  // The chain as the last proxy saw it, oldest first, ending with the peer of this server.
  const chain = [...forwarded, socket];
  // Fewer entries than proxies means a proxy did not append (misconfigured TRUST_PROXY); the
  // leftmost entry is then the best left, as Express's numeric `trust proxy` also does.
  const candidate = chain[Math.max(0, chain.length - 1 - input.trustedHops)] ?? socket;
  // A trusted proxy writes addresses; anything else (a port, garbage) is not a usable key.
  return isIP(candidate) ? candidate : socket;
}
