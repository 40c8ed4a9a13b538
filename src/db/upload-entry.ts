/**
 * An upload waiting on this device (ARCHITECTURE.md "Files"): the bytes as a Blob in IndexedDB,
 * written when the user picks the file, so an upload started offline, interrupted or cut off by a
 * closed laptop resumes from the server's offset (tus) when the network is back, also after a
 * reload. Not an outbox entry: a file row is written by the server when the last byte arrives, and
 * reaches the device by pull like any other change; the entry goes once that row is here.
 */
export const uploadStatuses = ['queued', 'uploading', 'paused', 'failed'] as const;
export type UploadStatus = (typeof uploadStatuses)[number];

export interface UploadEntry {
  /** The file id the device proposes (tus metadata `fileId`); the server's answer may differ. */
  id: string;
  workspaceId: string;
  projectId: string;
  name: string;
  folder: string;
  type: string;
  size: number;
  blob: Blob;
  status: UploadStatus;
  /** The tus upload's URL once the server created it: a retry continues there. */
  uploadUrl: string | null;
  /** Why the last attempt failed, in words, when it failed for good (status `failed`). */
  error: string | null;
  /** The file row the finished upload wrote (set when done, until the row arrives by pull). */
  fileId: string | null;
  createdAt: string;
}

/** A file's bytes kept on this device to open offline ("Keep offline"). */
export interface FileCopy {
  fileId: string;
  /** The version kept (the file's latest when kept; refreshed when a new one arrives). */
  version: number;
  workspaceId: string;
  projectId: string;
  size: number;
  type: string;
  blob: Blob;
  keptAt: string;
}

/** A project whose every file is kept offline, new ones included. */
export interface KeptProject {
  projectId: string;
  workspaceId: string;
}
