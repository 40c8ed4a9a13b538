/**
 * The HMAC keys that sign local download links, kept in file_link_key so links survive restarts
 * and every process of a deployment signs and verifies alike. The newest key signs; every key
 * still in the table verifies, so rotating is: add a key, wait out the longest link (7 days),
 * remove the old one; processes pick the change up within REFRESH_MS.
 *
 * Held in memory, read at start and refreshed on a timer: links are signed inside a request's
 * transaction, where the database may not be asked anything else (one connection on PGlite).
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';

export interface LinkKey {
  id: string;
  secret: Uint8Array;
}

const REFRESH_MS = 10 * 60_000;

export interface LinkKeys {
  /** Newest first. */
  current(): LinkKey[];
  stop(): void;
}

export async function loadLinkKeys(db: Database, logger: Logger): Promise<LinkKeys> {
  async function read(): Promise<LinkKey[]> {
    const { rows } = await db.query<{ id: string; secret: Uint8Array }>(
      'SELECT id, secret FROM file_link_key ORDER BY created_at DESC, id',
    );
    return rows.map((row) => ({ id: row.id, secret: new Uint8Array(row.secret) }));
  }

  let keys = await read();
  if (keys.length === 0) {
    // First start. Two processes racing here each add a key: both verify, the newer signs.
    await db.query('INSERT INTO file_link_key (id, secret) VALUES ($1, $2)', [
      randomBytes(6).toString('hex'),
      randomBytes(32),
    ]);
    keys = await read();
  }
  const timer = setInterval(() => {
    read().then(
      (fresh) => {
        if (fresh.length > 0) keys = fresh;
      },
      (error: unknown) => logger.warn({ err: error }, 'could not refresh download link keys'),
    );
  }, REFRESH_MS);
  timer.unref();
  return { current: () => keys, stop: () => clearInterval(timer) };
}
