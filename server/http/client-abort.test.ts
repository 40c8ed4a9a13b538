/**
 * A client that closes the connection mid-request is not a server error: the request is logged
 * once, at info level, as status 499 "client closed request", and nothing is logged as an error.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { startServer, type RunningServer } from '../start-server.ts';
import { createTestApp, type TestApp } from '../../tests/fixtures/create-test-app.ts';

describe('client abort', () => {
  let t: TestApp | null = null;
  let running: RunningServer | null = null;
  afterEach(async () => {
    await running?.stop();
    await t?.cleanup();
    running = null;
    t = null;
  });

  it('is logged as 499 client closed request, not as a 500 error', async () => {
    const app = await createTestApp();
    t = app;
    running = await startServer({
      app: app.app,
      db: { ...app.db, close: () => Promise.resolve() },
      logger: createLogger({ level: 'silent' }),
      port: 0,
      host: '127.0.0.1',
      graceMs: 1_000,
    });
    const { port } = running;
    // Half a body, then the client hangs up while the server is still reading it.
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          'POST /api/contact?endpoint=submit-contact HTTP/1.1\r\n' +
            'Host: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n' +
            '{"name":"Ada",',
          () => setImmediate(() => socket.destroy()),
        );
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    // Wait for the request's log line (the server finishes the aborted request on its own).
    const requestLine = await new Promise<Record<string, unknown>>((resolve) => {
      const poll = () => {
        const line = app.logLines.find(
          (l) => l.msg === 'request' || l.msg === 'client closed request',
        );
        if (line) resolve(line);
        else setTimeout(poll, 20);
      };
      poll();
    });
    expect(requestLine).toMatchObject({ status: 499 });
    expect(app.logLines.filter((l) => Number(l.level) >= 50)).toEqual([]);
    expect(app.logLines.some((l) => l.msg === 'client closed request')).toBe(true);
  });
});
