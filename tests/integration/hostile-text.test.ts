import { postgresTestUrl } from '../fixtures/scratch-postgres.ts';
import { describeHostileText } from './hostile-text.suite.ts';

describeHostileText('PGlite', {});
// On PostgreSQL too wherever one is configured (CI and this machine: DATABASE_URL_TEST).
if (postgresTestUrl) describeHostileText('PostgreSQL', { postgresUrl: postgresTestUrl });
