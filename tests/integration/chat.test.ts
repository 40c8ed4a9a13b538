import { postgresTestUrl } from '../fixtures/scratch-postgres.ts';
import { describeChat } from './chat.suite.ts';

describeChat('PGlite', {});
// On PostgreSQL too wherever one is configured (CI and this machine: DATABASE_URL_TEST).
if (postgresTestUrl) describeChat('PostgreSQL', { postgresUrl: postgresTestUrl });
