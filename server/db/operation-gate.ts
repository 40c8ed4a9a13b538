/**
 * Bookkeeping shared by both adapters: close() must refuse new work and wait for running work, and
 * a call to the Database from inside its own transaction callback must fail fast (on PGlite's single
 * connection it would wait for the transaction that is waiting for it: a silent deadlock).
 * Invariant: every public Database method goes through `run`; transaction callbacks run in `inTransaction`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface OperationGate {
  /** Runs one public operation: rejects after close() began or inside a transaction callback. */
  run<T>(operation: string, fn: () => Promise<T>): Promise<T>;
  /** Runs a transaction callback; `run` calls from within it (until it settles) are refused. */
  inTransaction<T>(fn: () => Promise<T>): Promise<T>;
  /** Refuses new work, waits for running work, then calls release once (idempotent). */
  close(release: () => Promise<void>): Promise<void>;
}

export function createOperationGate(): OperationGate {
  // One marker per running callback; `open` flips to false when it settles, so work it started
  // but did not await (which keeps the async context) is not refused afterwards.
  const context = new AsyncLocalStorage<{ open: boolean }>();
  const inFlight = new Set<Promise<unknown>>();
  let closing: Promise<void> | null = null;

  return {
    run(operation, fn) {
      if (closing) return Promise.reject(new Error(`Database is closed (${operation} refused)`));
      if (context.getStore()?.open) {
        return Promise.reject(
          new Error(
            `db.${operation}() was called inside a db.transaction() callback; use the tx argument instead`,
          ),
        );
      }
      const work = fn();
      inFlight.add(work);
      const forget = () => inFlight.delete(work);
      work.then(forget, forget);
      return work;
    },

    inTransaction(fn) {
      const marker = { open: true };
      return context.run(marker, fn).finally(() => {
        marker.open = false;
      });
    },

    close(release) {
      closing ??= (async () => {
        await Promise.allSettled([...inFlight]);
        await release();
      })();
      return closing;
    },
  };
}
