/**
 * A SIGKILL while the embedded database is writing must lose no reported commit and leave no
 * half transaction. A child process (crash-writer.fixture.ts) commits two-row transactions in a
 * loop on a temp DATA_DIR; once it reported enough commits it is killed at a varying moment, the
 * directory is reopened here and checked; three kills on the same directory. Every step is bounded.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { loadMigrations } from './migrate.ts';
import { createPgliteDatabase } from './pglite-database.ts';

const FIXTURE = fileURLToPath(new URL('./crash-writer.fixture.ts', import.meta.url));
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ROUND_TIMEOUT_MS = 45_000;
const COMMITS_PER_ROUND = 50;
// Kill right away, or a few ms later, so the SIGKILL lands at different points of a transaction.
const KILL_DELAYS_MS = [0, 3, 11];

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Runs the writer until it reported COMMITS_PER_ROUND commits, SIGKILLs it, returns the last reported batch. */
async function writeThenKill(
  dataDir: string,
  killDelayMs: number,
): Promise<{ first: number; last: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, dataDir], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  // Assigned from the line handler; the cast keeps TS from narrowing it to null.
  let start = null as number | null;
  let last = 0;
  let commits = 0;
  let killScheduled = false;
  createInterface({ input: child.stdout }).on('line', (line) => {
    const ready = /^ready (\d+)$/.exec(line);
    if (ready) {
      start = Number(ready[1]);
      return;
    }
    last = Number(line);
    commits += 1;
    if (commits >= COMMITS_PER_ROUND && !killScheduled) {
      killScheduled = true;
      setTimeout(() => child.kill('SIGKILL'), killDelayMs);
    }
  });
  const guard = setTimeout(() => child.kill('SIGKILL'), ROUND_TIMEOUT_MS);
  // 'close' comes after exit AND after stdout is drained, so every line the child printed was read.
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    child.once('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
  });
  clearTimeout(guard);
  if (!killScheduled || signal !== 'SIGKILL' || start === null) {
    throw new Error(
      `writer ended unexpectedly (code ${code}, signal ${signal}, ${commits} commits, ready ${start}):\n${stderr}`,
    );
  }
  return { first: start + 1, last };
}

it('loses no reported commit and tears no transaction across three SIGKILLs on one directory', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'satchel-crash-'));
  dirs.push(dataDir);
  const versions = (await loadMigrations()).map((migration) => migration.version);
  let expectedFirst = 1;

  for (const killDelayMs of KILL_DELAYS_MS) {
    const { first, last } = await writeThenKill(dataDir, killDelayMs);
    // The writer resumed exactly after what the previous check found.
    expect(first).toBe(expectedFirst);
    expect(last - first + 1).toBeGreaterThanOrEqual(COMMITS_PER_ROUND);

    const db = await createPgliteDatabase({ dataDir });
    try {
      const migrated = await db.query<{ version: number }>(
        'SELECT version FROM schema_migrations ORDER BY version',
      );
      expect(migrated.rows.map((row) => row.version)).toEqual(versions);

      const { rows } = await db.query<{ rows: number; batches: number; max: number }>(
        `SELECT count(*)::int AS rows, count(DISTINCT batch)::int AS batches, coalesce(max(batch), 0) AS max
             FROM crash_rows`,
      );
      const stats = rows[0];
      // Every reported commit is there; at most one more committed before it could be printed.
      expect(stats?.max).toBeGreaterThanOrEqual(last);
      expect(stats?.max).toBeLessThanOrEqual(last + 1);
      // No gaps and no half transactions: batches 1..max, each with exactly its two rows.
      expect(stats?.batches).toBe(stats?.max);
      expect(stats?.rows).toBe(2 * (stats?.max ?? 0));
      const torn = await db.query(
        'SELECT batch FROM crash_rows GROUP BY batch HAVING count(*) <> 2 OR count(DISTINCT part) <> 2',
      );
      expect(torn.rows).toEqual([]);
      expectedFirst = (stats?.max ?? 0) + 1;
    } finally {
      await db.close();
    }
  }
}, 180_000);
