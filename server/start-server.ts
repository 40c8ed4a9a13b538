/**
 * Binds the HTTP app to a port and owns shutdown: on stop, the listener closes at once (no new
 * connections), idle keep-alive sockets are dropped, in-flight requests get up to `graceMs` to
 * finish, then the remaining sockets are destroyed and the database is closed cleanly.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Database } from './db/database.ts';
import type { AppEnv } from './http/app-env.ts';
import type { Logger } from './logger.ts';

export interface RunningServer {
  port: number;
  url: string;
  stop(): Promise<void>;
}

export async function startServer(options: {
  app: Hono<AppEnv>;
  db: Database;
  logger: Logger;
  port: number;
  host: string;
  graceMs?: number;
}): Promise<RunningServer> {
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: options.app.fetch, port: options.port, hostname: options.host }, () =>
      resolve(s),
    ) as Server;
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${options.host === '0.0.0.0' ? 'localhost' : options.host}:${port}`;
  options.logger.info({ url }, 'listening');

  let stopping: Promise<void> | null = null;
  function stop(): Promise<void> {
    stopping ??= (async () => {
      options.logger.info('shutting down: no new connections, finishing in-flight requests');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => {
        options.logger.warn('grace period over; closing remaining connections');
        server.closeAllConnections();
      }, options.graceMs ?? 10_000);
      await closed;
      clearTimeout(timer);
      await options.db.close();
      options.logger.info('shutdown complete');
    })();
    return stopping;
  }
  return { port, url, stop };
}
