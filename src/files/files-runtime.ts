/**
 * The files machinery of one signed-in user's database, created once and shared by every screen
 * of the tab: the upload runner, the progress store, the offline keeper and the download-link
 * cache. It outlives the screen that started it (an upload keeps going when the user leaves the
 * Files tab) and stops when the database closes (sign-out, a user switch, a newer app version).
 */
import type { AppDatabase } from '../db/app-database.ts';
import { createDownloadLinks, type GetDownloadLink } from './file-access.ts';
import { startOfflineKeeper, type OfflineKeeper } from './file-copies.ts';
import type { TusTransport } from './tus-transport.ts';
import { createUploadProgressStore, type UploadProgressStore } from './upload-progress.ts';
import {
  browserLocks,
  browserNetwork,
  startUploadRunner,
  type NetworkStatus,
  type UploadLocks,
  type UploadRunner,
} from './upload-runner.ts';

/** What the files code needs from the app: the network edges, all replaceable in tests. */
export interface FilesApi {
  getAccessToken: () => Promise<string | null>;
  /** get-download-url through the API client (null: no API here, nothing downloads). */
  getDownloadLink: GetDownloadLink | null;
  fetch: typeof fetch;
  transport?: TusTransport;
  locks?: UploadLocks | null;
  network?: NetworkStatus;
  endpoint?: string;
}

export interface FilesRuntime {
  runner: UploadRunner;
  progress: UploadProgressStore;
  keeper: OfflineKeeper;
  getDownloadLink: GetDownloadLink;
  network: NetworkStatus;
  api: FilesApi;
}

const runtimes = new WeakMap<AppDatabase, FilesRuntime>();

const noLinks: GetDownloadLink = () =>
  Promise.reject(new Error('Downloads are not available here.'));

export function filesRuntimeFor(db: AppDatabase, api: FilesApi): FilesRuntime {
  const existing = runtimes.get(db);
  if (existing) return existing;
  const network = api.network ?? browserNetwork;
  const locks = api.locks === undefined ? browserLocks() : api.locks;
  const progress = createUploadProgressStore(`satchel-uploads:${db.name}`);
  const getDownloadLink = createDownloadLinks(api.getDownloadLink ?? noLinks);
  const runner = startUploadRunner({
    db,
    progress,
    getAccessToken: api.getAccessToken,
    network,
    locks,
    ...(api.transport ? { transport: api.transport } : {}),
    ...(api.endpoint ? { endpoint: api.endpoint } : {}),
  });
  const keeper = startOfflineKeeper({ db, getDownloadLink, fetch: api.fetch, locks, network });
  const runtime: FilesRuntime = { runner, progress, keeper, getDownloadLink, network, api };
  runtimes.set(db, runtime);
  const stop = () => stopFilesRuntime(db);
  db.on('close', stop);
  return runtime;
}

export function stopFilesRuntime(db: AppDatabase): void {
  const runtime = runtimes.get(db);
  if (!runtime) return;
  runtimes.delete(db);
  runtime.runner.stop();
  runtime.keeper.stop();
  runtime.progress.close();
}
