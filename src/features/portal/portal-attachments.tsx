/**
 * Files the client attaches to a new change request: each starts uploading as soon as it is
 * chosen (portal-upload.ts), shows its progress, and can be removed or, after a failure, tried
 * again. The request is sent with the ids of the files that arrived; it cannot be sent while one
 * is still on its way or failed, so nothing the client attached is silently left out.
 *
 * Offline, a chosen file is kept on the device instead (portal-pending-files.ts): the request
 * queued offline names it, and it is uploaded when the request is sent. Back online with the form
 * still open, kept files start uploading at once. Files kept for a request never asked for (the
 * form cancelled, a file removed) are dropped.
 */
import { MAX_CHANGE_REQUEST_ATTACHMENTS } from '#contract/entities/change-request.ts';
import { Paperclip, RotateCw, X } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../ui/button.tsx';
import { formatBytes } from '../files/file-format.ts';
import type { PendingFileRef, PortalPendingFiles } from './portal-pending-files.ts';
import { PortalUploadError, type PortalUpload, type PortalUploadFile } from './portal-upload.ts';

export interface AttachmentItem {
  key: string;
  file: File;
  /** keeping/kept: offline, on its way to (or in) the device's copy, sent with the request. */
  state: 'uploading' | 'done' | 'failed' | 'keeping' | 'kept';
  sent: number;
  fileId: string | null;
  error: string | null;
  /** The device's copy of a kept file. */
  kept: PendingFileRef | null;
}

const CANNOT_KEEP = 'This file can’t be kept on this device. Attach it when you’re back online.';

export interface PortalAttachments {
  items: readonly AttachmentItem[];
  add(files: readonly File[]): void;
  remove(key: string): void;
  retry(key: string): void;
  /** Ids of the files that arrived, in the order they were chosen. */
  fileIds: string[];
  /** Files kept on the device, to go with a request queued offline. */
  keptFiles: PendingFileRef[];
  /** The request with the kept files is queued: they are the outbox's now, not dropped here. */
  handOver(): void;
  /** Why the request cannot be sent yet, or null. */
  blocker: string | null;
}

let nextKey = 0;

export function usePortalAttachments(
  projectId: string,
  upload: PortalUploadFile,
  pendingFiles: PortalPendingFiles,
  offline: boolean,
): PortalAttachments {
  const [items, setItems] = useState<AttachmentItem[]>([]);
  const running = useRef(new Map<string, PortalUpload>());
  // The device's copies this form made and still owns (dropped on leaving, unless handed over).
  const owned = useRef(new Map<string, PendingFileRef>());

  const patch = useCallback((key: string, change: Partial<AttachmentItem>) => {
    setItems((all) => all.map((item) => (item.key === key ? { ...item, ...change } : item)));
  }, []);

  const start = useCallback(
    (key: string, file: File) => {
      const handle = upload(file, {
        projectId,
        onProgress: (sent) => patch(key, { sent }),
      });
      running.current.set(key, handle);
      handle.done.then(
        (fileId) => {
          if (running.current.get(key) !== handle) return;
          running.current.delete(key);
          patch(key, { state: 'done', fileId, sent: file.size, error: null });
        },
        (error: unknown) => {
          if (running.current.get(key) !== handle) return;
          running.current.delete(key);
          patch(key, {
            state: 'failed',
            error:
              error instanceof PortalUploadError ? error.message : 'The file could not be sent.',
          });
        },
      );
    },
    [patch, projectId, upload],
  );

  const mounted = useRef(true);
  const keep = useCallback(
    (key: string, file: File) => {
      pendingFiles.keep(projectId, file).then(
        (kept) => {
          // The form closed while the copy was made: nobody will ask with it.
          if (!mounted.current) {
            void pendingFiles.drop(projectId, [kept]);
            return;
          }
          owned.current.set(key, kept);
          patch(key, { state: 'kept', kept, error: null });
        },
        () => patch(key, { state: 'failed', error: CANNOT_KEEP }),
      );
    },
    [patch, pendingFiles, projectId],
  );

  const dropKept = useCallback(
    (key: string) => {
      const kept = owned.current.get(key);
      if (!kept) return;
      owned.current.delete(key);
      void pendingFiles.drop(projectId, [kept]);
    },
    [pendingFiles, projectId],
  );

  // Leaving the form stops what is still being sent, and drops copies no request took.
  useEffect(() => {
    const uploads = running.current;
    const copies = owned.current;
    mounted.current = true;
    return () => {
      mounted.current = false;
      for (const handle of uploads.values()) handle.abort();
      uploads.clear();
      if (copies.size > 0) void pendingFiles.drop(projectId, [...copies.values()]);
      copies.clear();
    };
  }, [pendingFiles, projectId]);

  // Back online with the form open: kept files go now, as if just chosen.
  useEffect(() => {
    if (offline) return;
    for (const item of items) {
      if (item.state !== 'kept') continue;
      patch(item.key, { state: 'uploading', sent: 0 });
      start(item.key, item.file);
      dropKept(item.key);
    }
  }, [dropKept, items, offline, patch, start]);

  const add = (files: readonly File[]) => {
    const room = MAX_CHANGE_REQUEST_ATTACHMENTS - items.length;
    const added = files.slice(0, Math.max(0, room)).map((file) => ({
      key: `attachment-${(nextKey += 1)}`,
      file,
      state: offline ? ('keeping' as const) : ('uploading' as const),
      sent: 0,
      fileId: null,
      error: null,
      kept: null,
    }));
    setItems((all) => [...all, ...added]);
    for (const item of added) (offline ? keep : start)(item.key, item.file);
  };

  const remove = (key: string) => {
    running.current.get(key)?.abort();
    running.current.delete(key);
    dropKept(key);
    setItems((all) => all.filter((item) => item.key !== key));
  };

  const retry = (key: string) => {
    const item = items.find((candidate) => candidate.key === key);
    if (!item) return;
    patch(key, { state: offline ? 'keeping' : 'uploading', sent: 0, error: null });
    (offline ? keep : start)(key, item.file);
  };

  const uploading = items.filter((item) => item.state === 'uploading').length;
  const keeping = items.filter((item) => item.state === 'keeping').length;
  const failed = items.filter((item) => item.state === 'failed').length;
  return {
    items,
    add,
    remove,
    retry,
    fileIds: items.flatMap((item) => (item.fileId ? [item.fileId] : [])),
    keptFiles: items.flatMap((item) => (item.state === 'kept' && item.kept ? [item.kept] : [])),
    handOver: () => owned.current.clear(),
    blocker:
      uploading > 0
        ? `Wait for ${uploading === 1 ? 'the file' : `${uploading} files`} to finish uploading.`
        : keeping > 0
          ? 'Wait a moment: the files are being kept on this device.'
          : failed > 0
            ? 'Try the files that did not upload again, or remove them.'
            : null,
  };
}

export function PortalAttachmentList({
  attachments,
  offline,
  disabled,
}: {
  attachments: PortalAttachments;
  offline: boolean;
  disabled: boolean;
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const attachRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const [focusAfterRemove, setFocusAfterRemove] = useState<number | null>(null);
  const { items } = attachments;
  const full = items.length >= MAX_CHANGE_REQUEST_ATTACHMENTS;

  useEffect(() => {
    if (focusAfterRemove === null) return;
    // The next file's Remove (or the one before, or Attach files when none is left).
    const buttons = listRef.current?.querySelectorAll<HTMLButtonElement>(
      'button[aria-label^="Remove "]',
    );
    const next = buttons?.[Math.min(focusAfterRemove, buttons.length - 1)];
    (next ?? attachRef.current)?.focus();
    setFocusAfterRemove(null);
  }, [focusAfterRemove]);

  const noteId = `${id}-note`;
  const note = offline
    ? 'You’re offline: files you attach are kept on this device and sent with your request.'
    : full
      ? `At most ${MAX_CHANGE_REQUEST_ATTACHMENTS} files.`
      : 'Optional: sketches, documents or photos that show what you mean.';

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-3">
        <Button
          ref={attachRef}
          variant="secondary"
          isDisabled={full || disabled}
          aria-describedby={noteId}
          onPress={() => inputRef.current?.click()}
        >
          <Paperclip aria-hidden="true" size={16} /> Attach files
        </Button>
        <span id={noteId} className="text-sm text-fg-muted">
          {note}
        </span>
        <input
          ref={inputRef}
          type="file"
          multiple
          hidden
          aria-hidden="true"
          tabIndex={-1}
          onChange={(event) => {
            attachments.add([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
      </div>
      {items.length > 0 ? (
        <ul ref={listRef} aria-label="Attached files" className="flex flex-col gap-2">
          {items.map((item, index) => (
            <li
              key={item.key}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-xl border border-border p-2 pl-3"
            >
              <div className="min-w-0 flex-1">
                <p className="text-sm font-medium break-words text-fg">{item.file.name}</p>
                {item.state === 'uploading' ? (
                  <progress
                    className="h-1.5 w-full accent-brand"
                    max={Math.max(item.file.size, 1)}
                    value={item.sent}
                    aria-label={`Uploading ${item.file.name}`}
                  />
                ) : null}
                <p
                  className={`text-xs ${item.state === 'failed' ? 'text-danger' : 'text-fg-muted'}`}
                >
                  {item.state === 'failed'
                    ? item.error
                    : item.state === 'done'
                      ? `${formatBytes(item.file.size)} · uploaded`
                      : item.state === 'kept'
                        ? `${formatBytes(item.file.size)} · kept on this device, sent with your request`
                        : item.state === 'keeping'
                          ? `${formatBytes(item.file.size)} · keeping on this device…`
                          : `${formatBytes(item.sent)} of ${formatBytes(item.file.size)}`}
                </p>
              </div>
              {item.state === 'failed' ? (
                <Button
                  variant="ghost"
                  isDisabled={disabled}
                  aria-label={`Try ${item.file.name} again`}
                  onPress={() => attachments.retry(item.key)}
                >
                  <RotateCw aria-hidden="true" size={16} />
                </Button>
              ) : null}
              <Button
                variant="ghost"
                isDisabled={disabled}
                aria-label={`Remove ${item.file.name}`}
                onPress={() => {
                  attachments.remove(item.key);
                  setFocusAfterRemove(index);
                }}
              >
                <X aria-hidden="true" size={16} />
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
