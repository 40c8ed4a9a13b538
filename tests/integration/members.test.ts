import { postgresTestUrl } from '../fixtures/scratch-postgres.ts';
import { describeMembers } from './members.suite.ts';

describeMembers('PGlite', {});
// On PostgreSQL too wherever one is configured (CI: DATABASE_URL_TEST).
if (postgresTestUrl) describeMembers('PostgreSQL', { postgresUrl: postgresTestUrl });
