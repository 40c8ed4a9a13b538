import { describe, it } from 'vitest';
import { postgresTestUrl } from '../fixtures/scratch-postgres.ts';
import { describeHostileText } from './hostile-text.suite.ts';

if (postgresTestUrl) {
  describeHostileText('PostgreSQL', { postgresUrl: postgresTestUrl });
} else {
  describe.skip('hostile text on PostgreSQL', () => {
    it.skip('skipped: set DATABASE_URL_TEST=postgres://user@host:5432/db to run against PostgreSQL', () => {});
  });
}
