import { postgresTestUrl } from '../fixtures/scratch-postgres.ts';
import { describeCalendar } from './calendar.suite.ts';

describeCalendar('PGlite', {});
// On PostgreSQL too wherever one is configured (CI and this machine: DATABASE_URL_TEST).
if (postgresTestUrl) describeCalendar('PostgreSQL', { postgresUrl: postgresTestUrl });
