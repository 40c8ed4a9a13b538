/**
 * The identity of the /api request being served, readable below the handler without passing it
 * through every signature. The one reader is the hub: a hub token names the session of the token
 * that asked notification-connect for it (hub-tokens.ts), so a sign-out can close it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Identity } from './identity.ts';

const current = new AsyncLocalStorage<Identity>();

export function runWithIdentity<T>(identity: Identity | null, fn: () => T): T {
  return identity ? current.run(identity, fn) : fn();
}

/** The verified identity of the request in progress, if any. */
export function requestIdentity(): Identity | undefined {
  return current.getStore();
}
