/**
 * Resumable uploads: tus 1.0 (creation, creation-with-upload, termination, expiration) at
 * UPLOAD_PATH, served by @tus/server. Partial uploads are staged on local disk (@tus/file-store
 * under DATA_DIR/uploads) whatever the storage is: that gives every storage termination and
 * expiration (the Azure tus store has neither) and keeps abandoned bytes out of the storage.
 * The last byte commits: the staged file moves into storage and its file row is written in one
 * step (file-records.ts); if the row cannot be written, the bytes are removed and the upload is
 * terminated, so the device's retry gets the refusal instead of a finished upload with no file.
 *
 * While bytes arrive, as each write to the staged file lands, two things start so that little is
 * left after the last byte: a worker thread hashes them (SHA-256, file-hasher.ts), and the
 * storage may start moving them (`prepareFile`: Azure stages its blocks, local disk flushes them
 * to the disk) under the blob name the commit will use, the upload's id (a UUID the server made).
 * An upload terminated or expired drops what the storage took ahead (`abandonFile`) before its
 * staged bytes go.
 *
 * Authorisation: every request proves who sends it (`identify`: a member's bearer token at
 * /files/uploads, a portal session's cookie at /api/client-portal/uploads); creating checks that
 * uploader's right to the project, the per-file maximum and the plan's storage before any byte is
 * stored, and the last byte checks the right again inside the commit; continuing, reading or
 * terminating an upload is for the uploader who created it (anyone else gets the same 404 as for
 * an upload that does not exist). Errors leave in the contract's error body, whatever part of
 * tus raised them.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { ERRORS, EVENTS, Server, type Upload } from '@tus/server';
import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { UPLOADED_FILE_ID_HEADER } from '#contract/endpoints/file.ts';
import { fileNameSchema, fileTypeSchema, folderSchema } from '#contract/entities/file.ts';
import { idSchema } from '#contract/entities/ids.ts';
import { ErrorCode, type ErrorBody } from '#contract/errors.ts';
import type { VerifyAccessToken } from '../auth/identity.ts';
import type { Database, Queryable } from '../db/database.ts';
import type { AppEnv } from '../http/app-env.ts';
import { AppError, isAppError } from '../http/app-error.ts';
import { requireBearerIdentity } from '../http/bearer-identity.ts';
import { databaseErrorToAppError } from '../http/database-error.ts';
import type { PublishInvalidation } from '../http/run-operation.ts';
import type { Logger } from '../logger.ts';
import { createChangeRecorder } from '../sync/change-recorder.ts';
import { sharedFileHasher, type FileHasher } from './file-hasher.ts';
import { commitUpload, formatBytes, projectWorkspace, requireStorageRoom } from './file-records.ts';
import { isBlobName, type BlobStorage } from './storage/blob-storage.ts';

/** Partial uploads untouched this long are removed (tus expiration). */
export const UPLOAD_EXPIRY_MS = 24 * 60 * 60 * 1000;

/** Who sends an upload request, as that request proved it. */
export interface Uploader {
  /** Owns the uploads it creates: nobody else can continue, read or end them. */
  owner: string;
  /** The project's workspace when this uploader may add files to it; throws an AppError if not. */
  workspaceOf(tx: Queryable, projectId: string): Promise<string>;
  /** The new version's uploader and the activity's actor. */
  actorId: string;
  /** The actor's name when the actor is not a member (a client in the portal). */
  actorName?: string;
  /** Every upload of this uploader lands in this folder, whatever the metadata asks for. */
  folder?: string;
}

/** The members' uploads: a bearer token, and membership of the project's workspace. */
export function memberUploads(verifyAccessToken: VerifyAccessToken) {
  return async (req: Request): Promise<Uploader> => {
    const identity = await requireBearerIdentity(
      req.headers.get('authorization'),
      verifyAccessToken,
    );
    return {
      owner: `user:${identity.userId}`,
      actorId: identity.userId,
      workspaceOf: (tx, projectId) => projectWorkspace(tx, projectId, identity.userId),
    };
  };
}

export interface UploadRouteDeps {
  /** Where tus is mounted, for the Location of new uploads (UPLOAD_PATH for members). */
  path: string;
  /** Proves who sends a request; throws an AppError (401, 403) when it cannot. */
  identify(req: Request): Promise<Uploader>;
  db: Database;
  storage: BlobStorage;
  /** Where partial uploads are staged (DATA_DIR/uploads). */
  uploadDir: string;
  maxFileBytes: number;
  logger: Logger;
  publishInvalidation?: PublishInvalidation;
  /** Hashes staged uploads off the event loop; the process's shared one by default. */
  hasher?: FileHasher;
}

interface RequestState {
  requestId: string;
  logger: Logger;
  uploader?: Uploader;
}

const metadataSchema = v.object({
  projectId: idSchema,
  filename: fileNameSchema,
  filetype: v.optional(v.nullable(fileTypeSchema), ''),
  folder: v.optional(v.nullable(folderSchema), ''),
  fileId: v.optional(v.nullable(idSchema)),
});

/** Metadata the server writes on an upload; a client's values for these keys are discarded. */
interface ServerMetadata {
  owner: string;
  workspaceId: string;
}

const statusCodes: Record<number, ErrorCode> = {
  400: ErrorCode.VALIDATION_FAILED,
  401: ErrorCode.UNAUTHORIZED,
  403: ErrorCode.FORBIDDEN,
  404: ErrorCode.NOT_FOUND,
  409: ErrorCode.CONFLICT,
  410: ErrorCode.GONE,
  412: ErrorCode.VALIDATION_FAILED,
  413: ErrorCode.PAYLOAD_TOO_LARGE,
  415: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
};

/** What tus throws and sends: a status and a body. */
interface TusError {
  status_code: number;
  body: string;
}

/** A refusal tus sends as is (it reads `status_code` and `body` off whatever a hook throws). */
class TusRefusal extends Error implements TusError {
  readonly status_code: number;
  readonly body: string;
  constructor(status: number, body: string) {
    super(body);
    this.status_code = status;
    this.body = body;
  }
}

function isTusError(error: unknown): error is TusError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as TusError).status_code === 'number' &&
    typeof (error as TusError).body === 'string'
  );
}

function errorBody(code: string, message: string, requestId: string, details?: unknown): string {
  const body: ErrorBody = {
    error: { code, message, ...(details === undefined ? {} : { details }), requestId },
  };
  return JSON.stringify(body);
}

export function createUploadRoute(deps: UploadRouteDeps) {
  const { db, storage, logger } = deps;
  const requests = new WeakMap<Request, RequestState>();
  const hasher = deps.hasher ?? sharedFileHasher();
  const datastore = new StagingFileStore({
    directory: deps.uploadDir,
    expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS,
    storage,
    hasher,
  });

  function stateOf(req: Request): RequestState {
    const state = requests.get(req);
    if (!state) throw new Error('An upload request reached tus without its state.');
    return state;
  }

  /** Any failure as tus's error shape, carrying our error body. */
  function asTusError(req: Request, error: unknown): Error {
    const { requestId } = stateOf(req);
    const appError = isAppError(error) ? error : databaseErrorToAppError(error);
    if (!appError) return error instanceof Error ? error : new Error(String(error));
    return new TusRefusal(
      appError.status,
      errorBody(appError.code, appError.message, requestId, appError.details),
    );
  }

  async function ownerOf(id: string): Promise<string | null> {
    try {
      const upload = await datastore.getUpload(id);
      return upload.metadata?.owner ?? null;
    } catch {
      return null;
    }
  }

  // The default in-memory locker: one process owns an upload. Scaled out, route /files/uploads
  // sticky (ARCHITECTURE.md "Files").
  const options: ConstructorParameters<typeof Server>[0] = {
    path: deps.path,
    datastore,
    relativeLocation: true,
    maxSize: deps.maxFileBytes,
    exposedHeaders: [UPLOADED_FILE_ID_HEADER],
    // Names of staged uploads are the server's own; nothing a client sends names a path.
    namingFunction: () => randomUUID(),
    async onIncomingRequest(req, id) {
      const state = stateOf(req);
      try {
        state.uploader = await deps.identify(req);
      } catch (error) {
        throw asTusError(req, error);
      }
      if (req.method === 'POST') return;
      const owner = await ownerOf(id);
      // Someone else's upload answers like a missing one (no probing of upload ids).
      if (owner !== null && owner !== state.uploader.owner) {
        throw asTusError(req, new AppError(ErrorCode.NOT_FOUND, 'No such upload.'));
      }
    },
    async onUploadCreate(req, upload) {
      const { uploader } = stateOf(req);
      if (!uploader) throw asTusError(req, new AppError(ErrorCode.UNAUTHORIZED, 'Sign in first.'));
      try {
        if (upload.size === undefined) {
          throw new AppError(
            ErrorCode.VALIDATION_FAILED,
            'Upload-Length is required: say how large the file is when the upload starts.',
          );
        }
        if (upload.size === 0) {
          throw new AppError(ErrorCode.VALIDATION_FAILED, 'The file is empty (0 bytes).');
        }
        const parsed = v.safeParse(metadataSchema, upload.metadata ?? {});
        if (!parsed.success) {
          throw new AppError(ErrorCode.VALIDATION_FAILED, parsed.issues[0].message, {
            details: parsed.issues.map((issue) => ({
              path: `metadata.${v.getDotPath(issue) ?? ''}`,
              message: issue.message,
            })),
          });
        }
        const meta = parsed.output;
        const workspaceId = await uploader.workspaceOf(db, meta.projectId);
        await requireStorageRoom(db, workspaceId, upload.size);
        const server: ServerMetadata = { owner: uploader.owner, workspaceId };
        return {
          metadata: {
            projectId: meta.projectId,
            filename: meta.filename,
            filetype: meta.filetype ?? '',
            folder: uploader.folder ?? meta.folder ?? '',
            fileId: meta.fileId ?? '',
            ...server,
          },
        };
      } catch (error) {
        throw asTusError(req, error);
      }
    },
    async onUploadFinish(req, upload) {
      const state = stateOf(req);
      try {
        if (!state.uploader) throw new AppError(ErrorCode.UNAUTHORIZED, 'Sign in first.');
        const fileId = await finish(
          state.uploader,
          upload.id,
          upload.metadata ?? {},
          upload.size ?? 0,
        );
        datastore.holdCommitted(upload);
        return { headers: { [UPLOADED_FILE_ID_HEADER]: fileId } };
      } catch (error) {
        // The upload is terminated: a retry must meet this refusal, not a finished upload. (Not
        // `datastore.remove`: the staged bytes may have moved to storage already, and it stops at
        // a missing file before forgetting the upload.)
        await forget(upload.id, { abandon: true });
        state.logger.warn({ err: error, uploadId: upload.id }, 'upload could not be committed');
        throw asTusError(req, error);
      }
    },
    onResponseError(req, error) {
      if (!isTusError(error)) {
        // A bug or a storage failure: logged, and never its message in the answer.
        stateOf(req).logger.error({ err: error }, 'upload failed');
        return {
          status_code: 500,
          body: errorBody(
            ErrorCode.INTERNAL,
            'An unexpected error occurred. It has been logged.',
            stateOf(req).requestId,
          ),
        };
      }
      if (error.body.startsWith('{')) return error;
      // tus's own refusals (wrong offset, too large, expired...) in our error shape and words.
      const code = statusCodes[error.status_code] ?? ErrorCode.INTERNAL;
      const message =
        error.status_code === 413
          ? `This file is larger than the ${formatBytes(deps.maxFileBytes)} a single upload may be.`
          : error.body.trim();
      return {
        status_code: error.status_code,
        body: errorBody(code, message, stateOf(req).requestId),
      };
    },
  };
  const tus = new Server(options);
  tus.on(EVENTS.POST_FINISH, (_req, _res, upload) => datastore.releaseCommitted(upload.id));

  /**
   * An upload's staged bytes (if still there) and its tus record; when it was not committed, also
   * what the storage took ahead of a commit (`abandon`).
   */
  async function forget(uploadId: string, { abandon }: { abandon: boolean }): Promise<void> {
    if (abandon && isBlobName(uploadId)) {
      await storage.abandonFile(uploadId).catch((cause: unknown) => {
        logger.warn({ err: cause, uploadId }, 'could not drop the bytes staged for an upload');
      });
    }
    await unlink(path.join(deps.uploadDir, uploadId)).catch(() => undefined);
    await datastore.configstore.delete(uploadId).catch(() => undefined);
    hasher.forget(uploadId);
  }

  /** Moves the staged bytes into storage and writes the file row; the file's id. */
  async function finish(
    uploader: Uploader,
    uploadId: string,
    metadata: Record<string, string | null>,
    size: number,
  ): Promise<string> {
    const staged = path.join(deps.uploadDir, uploadId);
    // Hashed while the bytes arrived: only the last of them are left (all, after a restart).
    const checksum = await hasher.digest(uploadId, staged, size).catch((error: unknown) => {
      logger.warn({ err: error, uploadId }, 'hashing worker failed; hashing the upload here');
      return sha256Of(staged);
    });
    // The upload's id (a server-made UUID): what the storage took ahead is under that name.
    const blobName = isBlobName(uploadId) ? uploadId : randomUUID();
    const type = metadata.filetype ?? '';
    await storage.putFile(blobName, staged, {
      contentType: type || 'application/octet-stream',
    });
    let outcome;
    try {
      outcome = await db.transaction(async (tx) => {
        const recorder = createChangeRecorder(tx);
        const committed = await commitUpload(tx, recorder, {
          uploader,
          projectId: String(metadata.projectId),
          proposedFileId: metadata.fileId || null,
          name: String(metadata.filename),
          folder: metadata.folder ?? '',
          type,
          size,
          checksum,
          blobName,
        });
        return { committed, touched: recorder.touched };
      });
    } catch (error) {
      await storage.delete(blobName).catch((cause: unknown) => {
        // The sweep removes bytes with no ledger row later; say so rather than fail twice.
        logger.warn({ err: cause, blobName }, 'could not remove the bytes of a refused upload');
      });
      throw error;
    }
    const { committed, touched } = outcome;
    if (committed.duplicate) await storage.delete(blobName);
    // The staged data moved; its tus metadata goes too (the upload is done).
    await forget(uploadId, { abandon: false });
    for (const [workspaceId, { tables, seq }] of touched) {
      try {
        deps.publishInvalidation?.({
          workspaceId,
          tables: [...tables],
          seq,
          originClientId: null,
        });
      } catch (error) {
        logger.error({ err: error }, 'invalidation publish failed');
      }
    }
    return committed.fileId;
  }

  const app = new Hono<AppEnv>();
  const handle = (c: Context<AppEnv>) => {
    const req = uploadRequest(c);
    requests.set(req, { requestId: c.get('requestId'), logger: c.get('logger') });
    return tus.handleWeb(req);
  };
  app.on(['POST', 'PATCH', 'DELETE', 'OPTIONS'], ['/uploads', '/uploads/:id'], handle);
  // Hono routes a HEAD through GET handlers (the raw request keeps its method). GET itself is not
  // part of tus here: bytes are read through signed download links only.
  app.get('/uploads/:id', async (c) => {
    if (c.req.raw.method !== 'HEAD') {
      throw new AppError(ErrorCode.METHOD_NOT_ALLOWED, 'Uploads are read through download links.');
    }
    const response = await handle(c);
    if (response.status !== 404) return response;
    return (await committedHead(c.req.raw, c.req.param('id'))) ?? response;
  });

  /**
   * A HEAD for an upload that committed. tus forgot it when its bytes moved into storage, but the
   * device may have missed the last PATCH's answer (the page closed while it was on its way): it
   * is answered as complete, with the file's id, so tus-js-client ends it as a success instead of
   * starting over and sending every byte again. Only to someone who may add files to that
   * project (anyone else gets tus's 404). An upload whose bytes were already there (a duplicate:
   * no blob of its own) or whose file was deleted since is still a 404, and starts over.
   */
  async function committedHead(req: Request, uploadId: string): Promise<Response | null> {
    if (!isBlobName(uploadId)) return null;
    let uploader: Uploader;
    try {
      uploader = await deps.identify(req);
    } catch {
      return null;
    }
    const { rows } = await db.query<{ file_id: string; size: string; project_id: string }>(
      `SELECT b.file_id, b.size::text AS size, f.project_id
       FROM file_blob b JOIN project_file f ON f.id = b.file_id WHERE b.blob_name = $1`,
      [uploadId],
    );
    const row = rows[0];
    if (!row) return null;
    try {
      await uploader.workspaceOf(db, row.project_id);
    } catch {
      return null;
    }
    return new Response(null, {
      status: 200,
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': row.size,
        'Upload-Length': row.size,
        'Cache-Control': 'no-store',
        [UPLOADED_FILE_ID_HEADER]: row.file_id,
        'Access-Control-Expose-Headers': `Upload-Offset, Upload-Length, Tus-Resumable, ${UPLOADED_FILE_ID_HEADER}`,
      },
    });
  }

  return {
    app,
    /** Removes partial uploads older than UPLOAD_EXPIRY_MS; how many. */
    cleanUpExpired: () => tus.cleanUpExpiredUploads(),
  };
}

/**
 * The request as tus reads it. Served by Node, its body comes straight from Node's request: the
 * body @hono/node-server gives goes through Node 20's Readable.toWeb, which copies every chunk
 * (a 256 MiB upload: 256 MiB more copying, and as much garbage, on the event loop).
 */
function uploadRequest(c: Context<AppEnv>): Request {
  const raw = c.req.raw;
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (
    !incoming ||
    (raw.method !== 'PATCH' && raw.method !== 'POST') ||
    // Already read, or gone: the adapter's own body knows what is left.
    incoming.readableFlowing !== null ||
    incoming.readableEnded ||
    incoming.destroyed
  ) {
    return raw;
  }
  const chunks = incoming[Symbol.asyncIterator]() as AsyncIterator<Buffer, undefined>;
  const body = new ReadableStream<Uint8Array>(
    {
      // A failed read (the client hung up) fails the stream, and tus's write with it.
      async pull(controller) {
        const { value, done } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      },
      async cancel() {
        await chunks.return?.();
      },
    },
    { highWaterMark: 0 },
  );
  const init: RequestInit & { duplex: 'half' } = {
    method: raw.method,
    headers: raw.headers,
    body,
    duplex: 'half',
    signal: raw.signal,
  };
  return new Request(raw.url, init);
}

/** Bytes a staging write takes in before it waits for the disk (one write call takes them all). */
const WRITE_BUFFER_BYTES = 1024 * 1024;
/** The hasher hears of new bytes each time this many more are written (and at a write's end). */
const FOLLOW_EVERY_BYTES = 8 * 1024 * 1024;

/**
 * The staging store. Bytes are written where they arrive and, as each write lands, offered to the
 * hasher (hashed on its worker, read back from the page cache) and to the storage (prepareFile).
 * Reading a large upload again for its checksum at the last byte cost a third of the upload's
 * time; hashing the chunks on the event loop as they passed cost it as much CPU as the rest of
 * the request.
 */
class StagingFileStore extends FileStore {
  private readonly storage: BlobStorage;
  private readonly hasher: FileHasher;

  constructor(
    options: ConstructorParameters<typeof FileStore>[0] & {
      storage: BlobStorage;
      hasher: FileHasher;
    },
  ) {
    const { storage, hasher, ...rest } = options;
    super(rest);
    this.storage = storage;
    this.hasher = hasher;
  }

  override async write(
    readable: Parameters<FileStore['write']>[0],
    id: string,
    offset: number,
  ): Promise<number> {
    const file = path.join(this.directory, id);
    const { hasher } = this;
    // Only an upload named like a blob is committed under its own name (always, here: tus names
    // uploads with namingFunction); any other is put whole at the commit.
    const storage = isBlobName(id) ? this.storage : null;
    let handle: FileHandle;
    try {
      handle = await open(file, 'r+');
    } catch {
      writeFailed();
    }
    let position = offset;
    let followed = offset;
    const sink = new Writable({
      highWaterMark: WRITE_BUFFER_BYTES,
      writev(chunks, done) {
        const buffers = chunks.map(({ chunk }) => chunk as Buffer);
        writeAll(handle, buffers, position).then((written) => {
          position += written;
          // Bytes before `position` never change again: tus only appends at the upload's end.
          storage?.prepareFile(id, file, position);
          if (position - followed >= FOLLOW_EVERY_BYTES) {
            followed = position;
            hasher.follow(id, file, position);
          }
          done();
        }, done);
      },
    });
    try {
      await pipeline(readable, sink);
    } catch {
      // As FileStore: what was written stays, and the upload resumes from there.
      writeFailed();
    } finally {
      await handle.close();
      if (position > followed) hasher.follow(id, file, position);
    }
    return position;
  }

  /**
   * Termination and expiration. What the storage took ahead goes first: if that fails, the upload
   * stays, and the client's next DELETE or the next expiry sweep tries again. (An id with no upload
   * costs the storage nothing: it may be a committed upload's, whose blob is not ours to touch.)
   */
  override async remove(id: string): Promise<void> {
    if (isBlobName(id) && (await this.configstore.get(id))) await this.storage.abandonFile(id);
    this.hasher.forget(id);
    await super.remove(id);
  }

  /**
   * Uploads committed by the request still being answered. A creation-with-upload POST carrying
   * the whole file reads its upload once more after onUploadFinish (for Upload-Expires), when the
   * staged bytes have already moved to storage: without this, the commit succeeds and the
   * client is told 404. Each entry goes when tus reports the response written (POST_FINISH).
   */
  private readonly committed = new Map<string, Upload>();

  override async getUpload(id: string): Promise<Upload> {
    return this.committed.get(id) ?? super.getUpload(id);
  }

  holdCommitted(upload: Upload): void {
    this.committed.set(upload.id, upload);
  }

  releaseCommitted(id: string): void {
    this.committed.delete(id);
  }
}

/** A staging write failed: tus's own error, as FileStore throws it (a 500 for the client). */
function writeFailed(): never {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- tus answers its { status_code, body } objects
  throw ERRORS.FILE_WRITE_ERROR;
}

/** Writes every byte of `buffers` at `position` (a write may take fewer); how many. */
async function writeAll(handle: FileHandle, buffers: Buffer[], position: number): Promise<number> {
  let written = 0;
  let rest = buffers;
  while (rest.length > 0) {
    const { bytesWritten } = await handle.writev(rest, position + written);
    if (bytesWritten === 0) throw new Error('The disk took no bytes.');
    written += bytesWritten;
    let skip = bytesWritten;
    const next: Buffer[] = [];
    for (const buffer of rest) {
      if (skip >= buffer.length) {
        skip -= buffer.length;
        continue;
      }
      next.push(skip > 0 ? buffer.subarray(skip) : buffer);
      skip = 0;
    }
    rest = next;
  }
  return written;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}
