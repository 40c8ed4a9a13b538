/**
 * Binds the HTTP app to a port and owns shutdown: on stop, the listener closes at once (no new
 * connections), idle keep-alive sockets are dropped, in-flight requests get up to `graceMs` to
 * finish, then the remaining sockets are destroyed and the database is closed cleanly.
 * WebSocket upgrades go to `upgrades` (the real-time hub); on stop it is shut down first, so hub
 * clients get a Close message allowing reconnect before the listener stops accepting.
 */
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Database } from './db/database.ts';
import type { AppEnv } from './http/app-env.ts';
import type { Logger } from './logger.ts';

/** Takes the HTTP server's WebSocket upgrades; `shutdown` closes every upgraded connection. */
export interface UpgradeHandler {
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  shutdown(): Promise<void>;
}

export interface RunningServer {
  port: number;
  url: string;
  stop(): Promise<void>;
}

/** Longer than common load balancers' idle timeouts, so the server is never the side that closes. */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export async function startServer(options: {
  app: Hono<AppEnv>;
  db: Database;
  logger: Logger;
  port: number;
  host: string;
  graceMs?: number;
  upgrades?: UpgradeHandler;
}): Promise<RunningServer> {
  const { upgrades } = options;
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: options.app.fetch, port: options.port, hostname: options.host }, () =>
      resolve(s),
    ) as Server;
    s.once('error', reject);
    // Idle keep-alive sockets stay open longer than a load balancer's idle timeout (AWS ALB 60 s):
    // with Node's 5 s default, the server closed sockets that clients and proxies were already
    // reusing, and 4% of requests in the 200-user load bench died with ECONNRESET (a proxy would
    // answer those with 502). Headers must be allowed a little longer than that.
    s.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    s.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
    // Without a listener Node destroys upgrade requests; with one, the handler answers them all.
    if (upgrades)
      s.on('upgrade', (request, socket, head) => upgrades.handleUpgrade(request, socket, head));
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${options.host === '0.0.0.0' ? 'localhost' : options.host}:${port}`;
  options.logger.info({ url }, 'listening');

  let stopping: Promise<void> | null = null;
  function stop(): Promise<void> {
    stopping ??= (async () => {
      options.logger.info('shutting down: no new connections, finishing in-flight requests');
      // Upgraded sockets are outside server.close(); the hub closes them (allowReconnect) first.
      await upgrades
        ?.shutdown()
        .catch((error: unknown) =>
          options.logger.error({ err: error }, 'upgrade handler shutdown failed'),
        );
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
