/**
 * checkDatabase never throws: a failing or hanging database yields ok=false with a reason, so
 * /healthz can answer 503. The real adapters are covered in the conformance suite.
 */
import { describe, expect, it } from 'vitest';
import { checkDatabase } from './create-database.ts';
import type { Database } from './database.ts';

function fakeDb(query: Database['query']): Database {
  return {
    kind: 'postgres',
    query,
    transaction: () => Promise.reject(new Error('unused')),
    close: async () => {},
  };
}

describe('checkDatabase', () => {
  it('reports a failing database without throwing', async () => {
    const db = fakeDb(() =>
      Promise.reject(Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' })),
    );
    expect(await checkDatabase(db)).toEqual({
      ok: false,
      kind: 'postgres',
      schemaVersion: null,
      error: 'connection refused',
    });
  });

  it('gives up on a database that does not answer in time', async () => {
    const db = fakeDb(() => new Promise(() => {}));
    expect(await checkDatabase(db, { timeoutMs: 20 })).toEqual({
      ok: false,
      kind: 'postgres',
      schemaVersion: null,
      error: 'database did not answer within 20 ms',
    });
  });

  it('reports a reachable but unmigrated database with schemaVersion null', async () => {
    const db = fakeDb(<R>() =>
      Promise.resolve({ rows: [{ one: 1, present: false }] as R[], rowCount: 1 }),
    );
    expect(await checkDatabase(db)).toEqual({ ok: true, kind: 'postgres', schemaVersion: null });
  });
});
