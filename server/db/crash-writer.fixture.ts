/**
 * Child process for crash-safety.test.ts: opens the embedded database in argv[2], migrates, then
 * commits transactions until killed. Each transaction inserts two rows sharing a batch id; the
 * batch id is printed (one line, synchronous on a pipe) only after its COMMIT returned, so every
 * printed id is a promise the database must keep after a SIGKILL.
 */
import { runMigrations } from './migrate.ts';
import { createPgliteDatabase } from './pglite-database.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: crash-writer.fixture.ts <dataDir>');

const db = await createPgliteDatabase({ dataDir });
await runMigrations(db);
await db.query(
  `CREATE TABLE IF NOT EXISTS crash_rows (
     id bigserial PRIMARY KEY, batch integer NOT NULL, part integer NOT NULL, payload text NOT NULL
   )`,
);
const { rows } = await db.query<{ last: number | null }>(
  'SELECT max(batch) AS last FROM crash_rows',
);
let batch = rows[0]?.last ?? 0;
process.stdout.write(`ready ${batch}\n`);

for (;;) {
  batch += 1;
  // Varying sizes make rows straddle page boundaries at different points in different runs.
  const payload = 'x'.repeat(100 + ((batch * 37) % 1900));
  const current = batch;
  await db.transaction(async (tx) => {
    await tx.query('INSERT INTO crash_rows (batch, part, payload) VALUES ($1, 1, $2)', [
      current,
      payload,
    ]);
    await tx.query('INSERT INTO crash_rows (batch, part, payload) VALUES ($1, 2, $2)', [
      current,
      payload,
    ]);
  });
  process.stdout.write(`${current}\n`);
}
