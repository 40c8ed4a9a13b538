/**
 * Where file bytes live: one interface, two adapters (local disk, Azure Blob Storage) that pass
 * the same conformance suite (blob-storage.contract.ts). Blob names are made by the server (a
 * UUID, never a user's file name or path), so an adapter may trust them; it still refuses a name
 * that is not one (defence in depth against a bug upstream).
 */
import type { Readable } from 'node:stream';

export interface BlobStat {
  size: number;
}

export interface DownloadUrlOptions {
  /** When the URL stops working. */
  expiresAt: Date;
  /** The name the browser saves the file under (Content-Disposition's filename). */
  downloadFileName: string;
  /** Served as this Content-Type. */
  contentType: string;
  /** Opened in the browser (images, PDF, plain text only: the caller decides) or saved. */
  inline: boolean;
}

export interface BlobStorage {
  readonly kind: 'local' | 'azure';
  /**
   * Stores the bytes of a finished upload (a file on local disk) under `name`, a new name.
   * The source file is consumed: moved when it can be, else copied and removed. Like put, a
   * failure leaves nothing under `name`; a refused name leaves the source alone.
   */
  putFile(name: string, sourcePath: string, options: { contentType: string }): Promise<void>;
  /**
   * Says that the file at `sourcePath`, still growing, will be putFile'd under `name`, and that its
   * first `size` bytes are final: the adapter may start moving them now, while the rest arrives, so
   * that putFile has less left to do after the last byte (Azure stages them as blocks, local disk
   * flushes them to the disk). Returns at once and never fails: whatever it could not do, putFile
   * does. Nothing appears under `name` before putFile.
   */
  prepareFile(name: string, sourcePath: string, size: number): void;
  /**
   * Drops what prepareFile moved for `name` when no putFile will follow (an upload terminated,
   * expired or refused), also when another process moved it (one that stopped mid-upload). Never
   * touches a blob already stored under `name`.
   */
  abandonFile(name: string): Promise<void>;
  /**
   * Stores bytes from a stream under `name`, a new name, in bounded memory. The blob appears
   * whole or not at all: a stream that fails midway leaves nothing under `name`.
   */
  put(name: string, body: Readable, options: { contentType: string }): Promise<void>;
  /** The blob's size, or null when there is no such blob. */
  stat(name: string): Promise<BlobStat | null>;
  /**
   * The blob's bytes, streamed (never the whole blob in memory); `range` is inclusive at both
   * ends, like HTTP's, and within the blob (0 <= start <= end < size: the caller clamps it).
   * Rejects with BlobNotFoundError when there is no such blob. Destroy the stream to stop early.
   */
  read(name: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Removes the blob; a blob already gone is not an error. */
  delete(name: string): Promise<void>;
  /** Every stored blob (for the orphan sweep), in no particular order. */
  list(): AsyncIterable<{ name: string; lastModified: Date }>;
  /**
   * A URL a browser can GET without any other credential until `expiresAt`: on Azure a SAS; on
   * local disk an HMAC-signed `/files/d/<name>` URL the server checks.
   */
  downloadUrl(name: string, options: DownloadUrlOptions): Promise<string>;
}

export class BlobNotFoundError extends Error {
  constructor(name: string) {
    super(`No blob named ${name}.`);
    this.name = 'BlobNotFoundError';
  }
}

const BLOB_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether `name` is a server-made blob name (a lower-case UUID). */
export function isBlobName(name: string): boolean {
  return BLOB_NAME.test(name);
}

/** Refuses anything but a server-made blob name (a lower-case UUID). */
export function assertBlobName(name: string): void {
  if (!isBlobName(name)) throw new Error(`Not a blob name: ${JSON.stringify(name)}`);
}
