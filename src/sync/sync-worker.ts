/**
 * The sync worker's entry: exposes the engine's API over comlink. Only the leader tab starts
 * one (sync-client.ts), so one engine per user pushes and pulls at a time.
 */
import { expose } from 'comlink';
import { createSyncWorkerApi } from './sync-worker-api.ts';

expose(createSyncWorkerApi());
