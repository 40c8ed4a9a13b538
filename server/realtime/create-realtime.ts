/**
 * Composition of the real-time parts for one process: hub tokens (key from the database), the
 * backplane (Redis when configured), the notification hub, the publisher and the notification
 * store, plus what the HTTP app and the listener need from them.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Hono } from 'hono';
import type { Database } from '../db/database.ts';
import type { AppEnv } from '../http/app-env.ts';
import { createLogger, type Logger } from '../logger.ts';
import type { Backplane } from './backplane.ts';
import { createHubTokens, loadHubTokenSecret } from './hub-tokens.ts';
import {
  createNotificationHub,
  type HubMethod,
  type HubSessions,
  type HubTimings,
  type NotificationHub,
} from './notification-hub.ts';
import { createNotificationStore, type NotificationStore } from './notification-store.ts';
import { createRealtimePublisher, type RealtimePublisher } from './realtime-publisher.ts';
import { createRedisBackplane } from './redis-backplane.ts';
import { createSignalrHeaderAlias, SIGNALR_API_PATH } from './signalr-request-alias.ts';

export interface Realtime {
  hub: NotificationHub;
  publisher: RealtimePublisher;
  notifications: NotificationStore;
  /** For createHttpApp: the negotiate endpoint and the spec's signalr header form. */
  mounts: { path: string; app: Hono<AppEnv> }[];
  /** For startServer: WebSocket upgrades, and shutdown before the listener closes. */
  upgrades: {
    handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
    shutdown(): Promise<void>;
  };
}

export async function createRealtime(deps: {
  db: Database;
  logger: Logger;
  publicUrl: string;
  allowedOrigins?: readonly string[];
  /** REDIS_URL and the channel prefix; null keeps everything in this process. */
  redis?: { url: string; prefix: string } | null;
  /** A ready backplane instead of `redis` (tests share an in-memory one); not closed here. */
  backplane?: Backplane;
  timings?: Partial<HubTimings>;
  tokenTtlSeconds?: number;
  /** Embedded auth's sessions: hub tokens name one, and its sign-out closes its connections. */
  sessions?: HubSessions | null;
  methods?: Readonly<Record<string, HubMethod>>;
}): Promise<Realtime> {
  const secret = await loadHubTokenSecret(deps.db);
  const ownBackplane = deps.redis
    ? await createRedisBackplane({ ...deps.redis, logger: deps.logger })
    : null;
  const backplane = ownBackplane ?? deps.backplane ?? null;
  const hub = createNotificationHub({
    logger: deps.logger,
    publicUrl: deps.publicUrl,
    tokens: createHubTokens({
      secret,
      ...(deps.tokenTtlSeconds === undefined ? {} : { ttlSeconds: deps.tokenTtlSeconds }),
    }),
    backplane,
    sessions: deps.sessions ?? null,
    ...(deps.allowedOrigins ? { allowedOrigins: deps.allowedOrigins } : {}),
    ...(deps.timings ? { timings: deps.timings } : {}),
    ...(deps.methods ? { methods: deps.methods } : {}),
  });
  return assemble(hub, deps.logger, async () => {
    await hub.shutdown();
    await ownBackplane?.close();
  });
}

/**
 * A hub no listener serves, with a throwaway key: for API-only setups (tests of the HTTP app)
 * where notification pushes have nobody to reach and hub tokens are never redeemed.
 */
export function createDetachedRealtime(): Realtime {
  const logger = createLogger({ level: 'silent' });
  const hub = createNotificationHub({
    logger,
    publicUrl: 'http://localhost',
    tokens: createHubTokens({ secret: randomBytes(32) }),
  });
  return assemble(hub, logger, () => hub.shutdown());
}

function assemble(hub: NotificationHub, logger: Logger, shutdown: () => Promise<void>): Realtime {
  const publisher = createRealtimePublisher({ hub, logger });
  return {
    hub,
    publisher,
    notifications: createNotificationStore({ publisher }),
    mounts: [
      { path: hub.path, app: hub.app },
      { path: SIGNALR_API_PATH, app: createSignalrHeaderAlias() },
    ],
    upgrades: { handleUpgrade: (...args) => hub.handleUpgrade(...args), shutdown },
  };
}
