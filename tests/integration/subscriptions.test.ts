import { postgresTestUrl } from '../fixtures/scratch-postgres.ts';
import { describeSubscriptions } from './subscriptions.suite.ts';

describeSubscriptions('PGlite', {});
// On PostgreSQL too wherever one is configured (CI and this machine: DATABASE_URL_TEST).
if (postgresTestUrl) describeSubscriptions('PostgreSQL', { postgresUrl: postgresTestUrl });
