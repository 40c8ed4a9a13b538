import { postgresTestUrl } from '../fixtures/scratch-postgres.ts';
import { describeInvoices } from './invoices.suite.ts';

describeInvoices('PGlite', {});
// On PostgreSQL too wherever one is configured (CI and this machine: DATABASE_URL_TEST).
if (postgresTestUrl) describeInvoices('PostgreSQL', { postgresUrl: postgresTestUrl });
