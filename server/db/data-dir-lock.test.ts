/**
 * The data-dir lock: one holder at a time, stale locks of dead processes are taken over, live
 * holders in other processes are refused, and release removes only the holder's own file.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock } from './data-dir-lock.ts';

describe('acquireDataDirLock', () => {
  let dir = '';
  let lockFile = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'satchel-lock-'));
    lockFile = join(dir, 'pglite.lock');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('holds the lock until released, then allows the next holder', async () => {
    const lock = await acquireDataDirLock(lockFile);
    expect(JSON.parse(await readFile(lockFile, 'utf8'))).toMatchObject({ pid: process.pid });
    await expect(acquireDataDirLock(lockFile)).rejects.toThrow(
      /in use by another Database in this process/,
    );
    await lock.release();
    expect(existsSync(lockFile)).toBe(false);
    const again = await acquireDataDirLock(lockFile);
    await again.release();
    await again.release(); // idempotent
  });

  it('takes over a lock left by a process that no longer runs', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    await writeFile(lockFile, JSON.stringify({ pid: Number(dead.stdout) }));
    const lock = await acquireDataDirLock(lockFile);
    expect(JSON.parse(await readFile(lockFile, 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  it('treats a lock file with our own pid but not held by us as stale (container restart)', async () => {
    await writeFile(lockFile, JSON.stringify({ pid: process.pid }));
    const lock = await acquireDataDirLock(lockFile);
    await lock.release();
  });

  it('refuses while another live process holds the lock, naming it', async () => {
    await writeFile(lockFile, JSON.stringify({ pid: process.ppid }));
    await expect(acquireDataDirLock(lockFile)).rejects.toThrow(`in use by process ${process.ppid}`);
    expect(JSON.parse(await readFile(lockFile, 'utf8'))).toMatchObject({ pid: process.ppid });
  });
});
