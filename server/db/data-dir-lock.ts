/**
 * Exclusive, process-level lock on a PGlite data directory. PGlite writes a fake pid into
 * postmaster.pid and never checks it, so two processes can open the same files at once, which
 * corrupts them (observed: the first process aborts). The lock file holds the owner's pid and is
 * created with O_EXCL; a lock whose owner is dead (e.g. after SIGKILL) is stale and taken over.
 */
import { open, readFile, stat, unlink } from 'node:fs/promises';
import { resolve } from 'node:path';

export interface DataDirLock {
  readonly path: string;
  release(): Promise<void>;
}

// Lock files held by Databases of this process: a pid match alone cannot tell "open here" from
// "stale file left by an earlier container run that also had this pid" (pid 1 in Docker).
const heldByThisProcess = new Set<string>();

// A lock file with no pid yet may belong to a starter between create and write; only older is stale.
const UNWRITTEN_LOCK_GRACE_MS = 5_000;

export async function acquireDataDirLock(lockFile: string): Promise<DataDirLock> {
  const path = resolve(lockFile);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const handle = await open(path, 'wx');
      try {
        await handle.writeFile(
          `${JSON.stringify({ pid: process.pid, since: new Date().toISOString() })}\n`,
        );
      } finally {
        await handle.close();
      }
      heldByThisProcess.add(path);
      return { path, release: () => releaseLock(path) };
    } catch (error) {
      if (!isErrno(error, 'EEXIST')) throw error;
    }
    const owner = await readOwnerPid(path);
    if (owner === 'gone') continue;
    if (owner === 'unwritten' || isAlive(owner, path)) {
      const who =
        owner === 'unwritten'
          ? 'another process that is starting'
          : owner === process.pid
            ? 'another Database in this process'
            : `process ${owner}`;
      throw new Error(
        `The embedded database directory is in use by ${who} (lock file ${path}). ` +
          'Stop it first; if no such process runs, delete the lock file.',
      );
    }
    await unlink(path).catch((error: unknown) => {
      if (!isErrno(error, 'ENOENT')) throw error;
    });
  }
  throw new Error(`Could not take the lock file ${path}: it keeps reappearing`);
}

async function releaseLock(path: string): Promise<void> {
  if (!heldByThisProcess.delete(path)) return;
  const owner = await readOwnerPid(path);
  if (owner !== process.pid) return;
  await unlink(path).catch((error: unknown) => {
    if (!isErrno(error, 'ENOENT')) throw error;
  });
}

async function readOwnerPid(path: string): Promise<number | 'gone' | 'unwritten' | 'stale'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return 'gone';
    throw error;
  }
  const match = /"pid":\s*(\d+)/.exec(text);
  if (match?.[1]) return Number(match[1]);
  try {
    const age = Date.now() - (await stat(path)).mtimeMs;
    return age < UNWRITTEN_LOCK_GRACE_MS ? 'unwritten' : 'stale';
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return 'gone';
    throw error;
  }
}

function isAlive(owner: number | 'stale', path: string): boolean {
  if (owner === 'stale') return false;
  if (owner === process.pid) return heldByThisProcess.has(path);
  try {
    process.kill(owner, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return !isErrno(error, 'ESRCH');
  }
}

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}
