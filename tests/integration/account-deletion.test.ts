import { postgresTestUrl } from '../fixtures/scratch-postgres.ts';
import { describeAccountDeletion } from './account-deletion.suite.ts';

describeAccountDeletion('PGlite', {});
// On PostgreSQL too wherever one is configured (CI: DATABASE_URL_TEST).
if (postgresTestUrl) describeAccountDeletion('PostgreSQL', { postgresUrl: postgresTestUrl });
