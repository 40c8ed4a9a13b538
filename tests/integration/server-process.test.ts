// The real server process: configuration errors, start, SIGTERM, restart with the same DATA_DIR.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPgliteDatabase } from '../../server/db/pglite-database.ts';

const root = path.resolve(import.meta.dirname, '../..');

interface Started {
  child: ChildProcess;
  url: string;
  lines: string[];
  exited: Promise<number | null>;
}

function launch(env: Record<string, string>): Started & { ready: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let buffered = '';
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        const url = /"url":"([^"]+)"/.exec(line)?.[1];
        if (line.includes('"msg":"listening"') && url) resolve(url);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', () =>
      reject(new Error(`server exited early:\n${lines.join('\n')}${buffered}`)),
    );
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { child, url: '', lines, exited, ready };
}

describe('server process', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('fails fast with a clear message on bad configuration', async () => {
    const started = launch({ PORT: 'eighty' });
    children.push(started.child);
    started.ready.catch(() => {});
    expect(await started.exited).toBe(1);
    expect(started.lines.join('\n')).toMatch(
      /Invalid configuration:\n\s+PORT: must be a whole number/,
    );
  });

  it('serves, stops on SIGTERM with exit 0, and keeps data across restarts', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'satchel-proc-'));
    dirs.push(dataDir);
    const env = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir };

    const first = launch(env);
    children.push(first.child);
    const url = await first.ready;
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    const posted = await fetch(`${url}/api/contact?endpoint=submit-contact`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'Ada',
        email: 'ada@example.com',
        subject: 'Hi',
        message: 'Kept?',
      }),
    });
    expect(posted.status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.lines.some((line) => line.includes('shutdown complete'))).toBe(true);
    for (const line of first.lines.filter((l) => l.includes('"msg":"request"'))) {
      expect(JSON.parse(line)).toHaveProperty('requestId');
    }

    const second = launch(env);
    children.push(second.child);
    const url2 = await second.ready;
    expect((await fetch(`${url2}/healthz`)).status).toBe(200);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);

    const db = await createPgliteDatabase({ dataDir });
    try {
      const { rows } = await db.query<{ message: string }>('SELECT message FROM contact_message');
      expect(rows).toEqual([{ message: 'Kept?' }]);
    } finally {
      await db.close();
    }
    // Two cold starts of the real process (tsx compiles the server, PGlite runs initdb): on a
    // loaded 2-core machine that passed the suite's 30 s default once, so it gets more room.
  }, 120_000);
});
