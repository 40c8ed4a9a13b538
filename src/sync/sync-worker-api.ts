/**
 * What the sync worker exposes over comlink: `init` builds the user's database, the API client
 * (tokens come from the page through a proxied callback) and the engine; the other calls are the
 * engine's triggers. Kept apart from sync-worker.ts so it can be tested without a Worker.
 */
import { createApiClient } from '../api-client/call-endpoint.ts';
import { createAppDatabase, type AppDatabase } from '../db/app-database.ts';
import {
  createSyncEngine,
  defaultWorkspaceIds,
  type SyncEngine,
  type SyncEngineDeps,
  type SyncStatus,
} from './sync-engine.ts';

export interface SyncWorkerConfig {
  userId: string;
  /** Origin of the API; '' for the page's own origin. */
  baseUrl: string;
}

export interface SyncWorkerApi {
  init(
    config: SyncWorkerConfig,
    getAccessToken: () => Promise<string | null>,
    onStatus: (status: SyncStatus) => void,
  ): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  online(): Promise<void>;
  offline(): Promise<void>;
  visible(): Promise<void>;
  hidden(): Promise<void>;
  enqueued(): Promise<void>;
  invalidate(message: { workspaceId: string; seq: number }): Promise<void>;
  reconnect(): Promise<void>;
  resumeAfterAuth(): Promise<void>;
  syncNow(): Promise<void>;
  getStatus(): Promise<SyncStatus>;
}

export function createSyncWorkerApi(
  factories: {
    openDatabase?: (userId: string) => AppDatabase;
    createEngine?: (deps: SyncEngineDeps) => SyncEngine;
    fetch?: typeof fetch;
  } = {},
): SyncWorkerApi {
  let engine: SyncEngine | null = null;
  let db: AppDatabase | null = null;

  const current = (): SyncEngine => {
    if (!engine) throw new Error('The sync worker was not initialised.');
    return engine;
  };

  /** comlink calls are async on the page's side anyway; errors travel as rejections. */
  const call = <T>(fn: (engine: SyncEngine) => T): Promise<T> => {
    try {
      return Promise.resolve(fn(current()));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };

  return {
    async init(config, getAccessToken, onStatus) {
      db = (factories.openDatabase ?? createAppDatabase)(config.userId);
      const { callEndpoint } = createApiClient({
        baseUrl: config.baseUrl,
        getAccessToken,
        ...(factories.fetch ? { fetch: factories.fetch } : {}),
      });
      const openDb = db;
      engine = (factories.createEngine ?? createSyncEngine)({
        db: openDb,
        userId: config.userId,
        callEndpoint,
        getWorkspaceIds: () => defaultWorkspaceIds(openDb, callEndpoint),
        onStatus,
      });
      await Promise.resolve();
    },
    start: async () => current().start(),
    async stop() {
      engine?.stop();
      db?.close();
      await Promise.resolve();
    },
    online: () => call((engine) => engine.online()),
    offline: () => call((engine) => engine.offline()),
    visible: () => call((engine) => engine.visible()),
    hidden: () => call((engine) => engine.hidden()),
    enqueued: () => call((engine) => engine.enqueued()),
    invalidate: (message) => call((engine) => engine.invalidate(message)),
    reconnect: () => call((engine) => engine.reconnect()),
    resumeAfterAuth: () => call((engine) => engine.resumeAfterAuth()),
    syncNow: async () => current().syncNow(),
    getStatus: () => call((engine) => engine.getStatus()),
  };
}
