import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { Database } from './db/database.ts';
import type { AppEnv } from './http/app-env.ts';
import { createLogger } from './logger.ts';
import { startServer } from './start-server.ts';

function fakeDb(events: string[]): Database {
  return {
    kind: 'pglite',
    query: () => Promise.resolve({ rows: [], rowCount: 0 }),
    transaction: (fn) => fn({ query: () => Promise.resolve({ rows: [], rowCount: 0 }) }),
    close: () => {
      events.push('db closed');
      return Promise.resolve();
    },
  };
}

describe('startServer shutdown', () => {
  it('finishes in-flight requests, refuses new connections, then closes the database', async () => {
    const events: string[] = [];
    let release: () => void = () => {};
    const app = new Hono<AppEnv>();
    app.get('/slow', async (c) => {
      events.push('slow started');
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      events.push('slow finished');
      return c.text('done');
    });
    const running = await startServer({
      app,
      db: fakeDb(events),
      logger: createLogger({ level: 'silent' }),
      port: 0,
      host: '127.0.0.1',
    });

    const inFlight = fetch(`${running.url}/slow`);
    await expect.poll(() => events.includes('slow started')).toBe(true);
    const stopped = running.stop();
    await expect(fetch(`${running.url}/slow`)).rejects.toThrow();
    expect(events).not.toContain('db closed');
    release();
    const response = await inFlight;
    expect(await response.text()).toBe('done');
    await stopped;
    expect(events).toEqual(['slow started', 'slow finished', 'db closed']);
  });

  it('cuts connections still open after the grace period', async () => {
    const events: string[] = [];
    const app = new Hono<AppEnv>();
    app.get('/hang', () => new Promise<Response>(() => {}));
    const running = await startServer({
      app,
      db: fakeDb(events),
      logger: createLogger({ level: 'silent' }),
      port: 0,
      host: '127.0.0.1',
      graceMs: 100,
    });
    const hanging = fetch(`${running.url}/hang`).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await running.stop();
    expect(await hanging).toBeInstanceOf(Error);
    expect(events).toEqual(['db closed']);
  });
});
