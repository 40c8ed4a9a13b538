/**
 * Files uploaded from the chat composer, through the Files tab's own upload path: a picked,
 * dropped or pasted file is queued with queueUploads (src/files/upload-queue.ts) to the project's
 * top level, the shared upload runner sends it with tus (tus-js-client loads with the first
 * upload, not with the chat), and the composer follows the entry: its progress, a failure in the
 * server's words (Retry, Remove), then the file id the server answered once the file row is
 * written. The entry shows in the Files tab's Uploads list too, like any upload.
 *
 * Uploading from the chat needs a connection: offline nothing is queued (a message would have to
 * wait for its file, which the chat does not do). A done entry leaves the queue when its file row
 * arrives by pull; the hook remembers what it learnt, so the composer's chip stays attached.
 */
import { useCallback, useMemo, useRef } from 'react';
import type { AppDatabase } from '../../db/app-database.ts';
import type { FilesRuntime } from '../../files/files-runtime.ts';
import {
  queueUploads,
  removeUpload,
  retryUpload,
  useProjectUploads,
  type StoredUpload,
} from '../../files/upload-queue.ts';
import { uploadPhase, uploadPhaseText } from '../files/file-format.ts';
import { useOnline, useUploadProgress } from '../files/use-files-runtime.tsx';

export interface ChatUploadState {
  phase: 'uploading' | 'failed' | 'done' | 'gone';
  /** 0–100 while uploading. */
  percent: number;
  /** The state in words: "Uploading 42 %", "Failed: <reason>", "Uploaded". */
  text: string;
  /** The file the upload wrote, once done. */
  fileId: string | null;
}

export interface ChatUploads {
  /** Whether uploads can start (the network the runner uses). */
  online: boolean;
  /** Queues the files; resolves their upload ids in order. Rejects with words to show. */
  add(files: readonly File[]): Promise<string[]>;
  /** An upload's state; undefined until the queue shows it. */
  stateOf(uploadId: string): ChatUploadState | undefined;
  retry(uploadId: string): void;
  /** Takes a running or failed upload off the queue (a done one's file stays in the project). */
  remove(uploadId: string): void;
  /** The name of a file an upload of this project wrote, before its row is on the device. */
  uploadedName(fileId: string): string | undefined;
}

interface Remembered {
  fileId: string | null;
  name: string;
}

export function useChatUploads(
  db: AppDatabase,
  runtime: FilesRuntime,
  project: { workspaceId: string; id: string },
): ChatUploads {
  const online = useOnline(runtime);
  const progressOf = useUploadProgress(runtime);
  const entries = useProjectUploads(db, project.workspaceId, project.id);
  /** Uploads this composer started and has seen in the queue (done ones keep their file id). */
  const seen = useRef(new Map<string, Remembered>());

  const byId = useMemo(() => new Map((entries ?? []).map((entry) => [entry.id, entry])), [entries]);
  for (const entry of entries ?? []) {
    const known = seen.current.get(entry.id);
    if (known && entry.fileId) known.fileId = entry.fileId;
  }

  const add = useCallback(
    async (files: readonly File[]) => {
      if (!runtime.network.isOnline()) throw new Error('Uploading a file needs a connection.');
      let queued: StoredUpload[];
      try {
        queued = await queueUploads(
          db,
          { workspaceId: project.workspaceId, projectId: project.id, folder: '' },
          files.map((file) => ({ name: file.name, type: file.type, size: file.size, blob: file })),
        );
      } catch {
        throw new Error(
          'This device has no room to hold the file for upload. Free some space and try again.',
        );
      }
      for (const entry of queued) seen.current.set(entry.id, { fileId: null, name: entry.name });
      runtime.runner.kick();
      return queued.map((entry) => entry.id);
    },
    [db, runtime, project.workspaceId, project.id],
  );

  const stateOf = (uploadId: string): ChatUploadState | undefined => {
    const entry = byId.get(uploadId);
    const known = seen.current.get(uploadId);
    if (!entry) {
      if (known?.fileId)
        return { phase: 'done', percent: 100, text: 'Uploaded', fileId: known.fileId };
      // Not in the queue: not there yet (just queued), or cancelled elsewhere (the Files tab).
      return entries === undefined || !known
        ? undefined
        : { phase: 'gone', percent: 0, text: 'The upload was cancelled', fileId: null };
    }
    const phase = uploadPhase(entry, progressOf(entry.id), online, Date.now());
    if (phase.kind === 'done') {
      return { phase: 'done', percent: 100, text: 'Uploaded', fileId: entry.fileId };
    }
    if (phase.kind === 'failed') {
      return { phase: 'failed', percent: 0, text: uploadPhaseText(phase), fileId: null };
    }
    return {
      phase: 'uploading',
      percent: 'percent' in phase ? phase.percent : 0,
      text: uploadPhaseText(phase),
      fileId: null,
    };
  };

  const retry = (uploadId: string) => {
    void retryUpload(db, uploadId).then(() => runtime.runner.kick());
  };

  const remove = (uploadId: string) => {
    seen.current.delete(uploadId);
    const entry = byId.get(uploadId);
    if (entry?.fileId) return;
    void removeUpload(db, uploadId).then(async (removed) => {
      runtime.progress.clear(uploadId);
      if (removed?.uploadUrl) await runtime.runner.terminate(removed.uploadUrl);
    });
  };

  const uploadedName = (fileId: string): string | undefined => {
    for (const entry of entries ?? []) if (entry.fileId === fileId) return entry.name;
    for (const known of seen.current.values()) if (known.fileId === fileId) return known.name;
    return undefined;
  };

  return { online, add, stateOf, retry, remove, uploadedName };
}
