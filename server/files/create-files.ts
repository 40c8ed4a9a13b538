/**
 * Project files, assembled: the storage (Azure Blob Storage when configured, else local disk under
 * DATA_DIR/files), tus uploads staged under DATA_DIR/uploads, signed download links (local disk
 * only: Azure signs its own), the download route, and the sweeps. The server mounts `app` at
 * /files and gives `handlers` to the API.
 */
import path from 'node:path';
import { Hono } from 'hono';
import { UPLOAD_PATH } from '#contract/endpoints/file.ts';
import { PORTAL_UPLOAD_PATH } from '#contract/endpoints/client-portal.ts';
import type { VerifyAccessToken } from '../auth/identity.ts';
import {
  createPasswordHasher,
  OWASP_ARGON2ID,
  type PasswordHashOptions,
} from '../auth/password-hasher.ts';
import type { Database } from '../db/database.ts';
import type { FileHandlerDeps } from '../endpoints/file.ts';
import type { AppEnv } from '../http/app-env.ts';
import type { PublishInvalidation } from '../http/run-operation.ts';
import type { Logger } from '../logger.ts';
import { createDownloadRoute } from './download-route.ts';
import { isLiveBlob } from './file-records.ts';
import { createFileSweeps, type FileSweeps } from './file-sweeps.ts';
import { loadLinkKeys } from './link-keys.ts';
import { createSignedLinks } from './signed-link.ts';
import { createAzureBlobStorage } from './storage/azure-blob-storage.ts';
import type { BlobStorage } from './storage/blob-storage.ts';
import { createLocalDiskStorage } from './storage/local-disk-storage.ts';
import { portalUploads } from '../portal/portal-uploads.ts';
import { createUploadRoute, memberUploads } from './upload-route.ts';

export interface Files {
  storage: BlobStorage;
  handlers: FileHandlerDeps;
  /** Mounted at /files: tus uploads at /files/uploads, local download links at /files/d. */
  app: Hono<AppEnv>;
  /** Mounted at /api/client-portal: the client's tus uploads at PORTAL_UPLOAD_PATH. */
  portalApp: Hono<AppEnv>;
  sweeps: FileSweeps;
  /** Stops the sweeps and the link keys' refresh timer (at shutdown). */
  stop(): void;
  /** The origin download links point at when it is not this server's (Azure), else null. */
  origin: string | null;
}

/**
 * Azure's blob endpoint origin from a connection string: BlobEndpoint when given (Azurite, custom
 * domains), else https://<account>.blob.<suffix>.
 */
export function blobEndpointOrigin(connectionString: string): string {
  const parts = new Map(
    connectionString
      .split(';')
      .filter((part) => part.includes('='))
      .map((part) => {
        const at = part.indexOf('=');
        return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
      }),
  );
  const endpoint = parts.get('BlobEndpoint');
  if (endpoint) return new URL(endpoint).origin;
  const protocol = parts.get('DefaultEndpointsProtocol') ?? 'https';
  const suffix = parts.get('EndpointSuffix') ?? 'core.windows.net';
  return `${protocol}://${parts.get('AccountName') ?? ''}.blob.${suffix}`;
}

export async function createFiles(deps: {
  db: Database;
  dataDir: string;
  publicUrl: string;
  maxFileBytes: number;
  azure: { connectionString: string; container: string } | null;
  verifyAccessToken: VerifyAccessToken;
  logger: Logger;
  publishInvalidation?: PublishInvalidation;
  /** Share-link password hashing; tests pass cheaper parameters. */
  argon2Options?: PasswordHashOptions;
}): Promise<Files> {
  const { db, logger } = deps;
  const app = new Hono<AppEnv>();
  let storage: BlobStorage;
  let stopKeys = () => {};
  if (deps.azure) {
    storage = createAzureBlobStorage({
      connectionString: deps.azure.connectionString,
      containerName: deps.azure.container,
    });
  } else {
    const keys = await loadLinkKeys(db, logger);
    stopKeys = () => keys.stop();
    const links = createSignedLinks({
      keys: () => Promise.resolve(keys.current()),
      publicUrl: deps.publicUrl,
    });
    const local = createLocalDiskStorage({ dir: path.join(deps.dataDir, 'files'), links });
    storage = local;
    app.route(
      '/',
      createDownloadRoute({
        storage: local,
        links,
        isLive: (blobName) => isLiveBlob(db, blobName),
        logger,
      }),
    );
  }
  const uploadDeps = {
    db,
    storage,
    maxFileBytes: deps.maxFileBytes,
    logger,
    ...(deps.publishInvalidation ? { publishInvalidation: deps.publishInvalidation } : {}),
  };
  const uploads = createUploadRoute({
    ...uploadDeps,
    path: UPLOAD_PATH,
    identify: memberUploads(deps.verifyAccessToken),
    uploadDir: path.join(deps.dataDir, 'uploads'),
  });
  app.route('/', uploads.app);
  // Its own staging directory: the two tus servers each expire what they staged.
  const portalUploadRoute = createUploadRoute({
    ...uploadDeps,
    path: PORTAL_UPLOAD_PATH,
    identify: portalUploads(db, deps.publicUrl),
    uploadDir: path.join(deps.dataDir, 'portal-uploads'),
  });
  const sweeps = createFileSweeps({
    db,
    storage,
    cleanUpExpiredUploads: async () =>
      (await uploads.cleanUpExpired()) + (await portalUploadRoute.cleanUpExpired()),
    logger,
  });
  return {
    storage,
    handlers: {
      storage,
      maxFileBytes: deps.maxFileBytes,
      publicUrl: deps.publicUrl,
      passwords: await createPasswordHasher(deps.argon2Options ?? OWASP_ARGON2ID),
    },
    app,
    portalApp: portalUploadRoute.app,
    sweeps,
    stop: () => {
      sweeps.stop();
      stopKeys();
    },
    origin: deps.azure ? blobEndpointOrigin(deps.azure.connectionString) : null,
  };
}
