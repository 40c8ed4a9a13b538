import { describe, it } from 'vitest';
import { postgresTestUrl } from '../fixtures/scratch-postgres.ts';
import { describeSyncProtocol } from './sync-protocol.suite.ts';

if (postgresTestUrl) {
  describeSyncProtocol('PostgreSQL', { postgresUrl: postgresTestUrl });
} else {
  describe.skip('sync protocol on PostgreSQL', () => {
    it.skip('skipped: set DATABASE_URL_TEST=postgres://user@host:5432/db to run against PostgreSQL', () => {});
  });
}
