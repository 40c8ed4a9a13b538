/**
 * The Files tab of a project: upload (picker or drop, several at once, each waiting in IndexedDB
 * until it is sent, offline included), the project's files in a list or a grid, by folder, with
 * search and sort, and each file's preview, download, versions, rename, move, delete with Undo,
 * "Shown in the client portal", and "Keep offline" (the file, or every file of the project).
 *
 * Everything shown is read live from this device: a file row arrives by pull once its upload
 * finishes (the upload's entry shows until then), and a rename, move or delete is a local write
 * queued for sync like any other. After an action focus stays with the file, or moves to the
 * next one when the file leaves the view.
 */
import {
  ChevronRight,
  CloudUpload,
  Folder,
  FolderOpen,
  FolderPlus,
  HardDriveDownload,
  LayoutGrid,
  LayoutList,
  Search,
  Upload,
  WifiOff,
  X,
} from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import {
  Button as AriaButton,
  FileTrigger,
  Input,
  SearchField,
  Switch,
} from 'react-aria-components';
import type { LocalProject } from '../../db/app-database.ts';
import {
  fileWrites,
  foldersOf,
  latestVersionNumber,
  useProjectFiles,
  type LocalFile,
} from '../../data/files.ts';
import { writeErrorFields } from '../../data/write-error-fields.ts';
import {
  freeFile,
  freeProject,
  keepProject,
  totalBytes,
  useCopies,
  useKeptProject,
} from '../../files/file-copies.ts';
import {
  pauseUpload,
  queueUploads,
  removeUpload,
  resumeUpload,
  retryUpload,
  useProjectUploads,
  type StoredUpload,
} from '../../files/upload-queue.ts';
import { cancelQueuedChange } from '../../sync/sync-client.ts';
import { Button } from '../../ui/button.tsx';
import { inputClassName } from '../../ui/form-text-field.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { ViewSwitch } from '../../ui/view-switch.tsx';
import { showUndoNotice } from '../../ui/undo-notice.ts';
import { useFileDrop } from '../../ui/use-file-drop.ts';
import { useToast } from '../../ui/use-toast.ts';
import { focusWhenReady } from '../../ui/focus-when-ready.ts';
import { useSync, useWriteContext } from '../workspace/sync-context.tsx';
import {
  MoveDialog,
  NewFolderDialog,
  PreviewDialog,
  RenameDialog,
  VersionsDialog,
} from './file-dialogs.tsx';
import {
  childFolders,
  fileSortLabels,
  fileSorts,
  folderLabel,
  formatBytes,
  matchesSearch,
  sortFiles,
  type FileSort,
} from './file-format.ts';
import { FileItem, type FileAction, type KeptState } from './file-item.tsx';
import { NotOnDeviceError, useFileOpener } from './file-open.ts';
import { UploadList } from './upload-list.tsx';
import { useCallEndpoint } from '../activity/activity-timeline.tsx';
import { ShareLinkDialog } from './share-link-dialog.tsx';
import { useFilesRuntime, useKeeping, useOnline, useUploadProgress } from './use-files-runtime.tsx';
import { useMemberNames } from './use-member-names.ts';
import { useRememberedFileView } from './use-remembered-file-view.ts';

/** How long Undo is offered after a delete; the delete waits this long in the outbox. */
export const FILE_UNDO_WINDOW_MS = 8000;

type DialogState =
  | { kind: 'rename' | 'move' | 'versions' | 'open' | 'share'; fileId: string }
  | { kind: 'new-folder' }
  | null;

const fileViews = [
  { id: 'list', label: 'List', Icon: LayoutList },
  { id: 'grid', label: 'Grid', Icon: LayoutGrid },
] as const;

const sortOptions = fileSorts.map((id) => ({ id, label: fileSortLabels[id] }));

const problemOf = (error: unknown): string => {
  if (error instanceof NotOnDeviceError) return error.message;
  if (error instanceof Error && !('code' in error)) return error.message;
  const fields = writeErrorFields(error);
  return fields.form ?? Object.values(fields).find(Boolean) ?? 'That did not work. Try again.';
};

export function FilesTab({ project }: { project: LocalProject }) {
  const { handle } = useSync();
  const db = handle.db;
  const ctx = useWriteContext();
  const toaster = useToast();
  const runtime = useFilesRuntime();
  const online = useOnline(runtime);
  const progressOf = useUploadProgress(runtime);
  const keeping = useKeeping(runtime);
  const opener = useFileOpener(db, runtime);
  const uploaderName = useMemberNames(project.workspaceId);
  const callEndpoint = useCallEndpoint();

  const files = useProjectFiles(db, project.workspaceId, project.id);
  const uploads = useProjectUploads(db, project.workspaceId, project.id);
  const copies = useCopies(db, project.workspaceId, project.id);
  const projectKept = useKeptProject(db, project.id);

  const [folder, setFolder] = useState('');
  const [newFolders, setNewFolders] = useState<string[]>([]);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<FileSort>('name');
  const [view, setView] = useRememberedFileView();
  const [dialog, setDialog] = useState<DialogState>(null);
  const [now, setNow] = useState(() => Date.now());

  // "Trying again shortly" turns back into "Uploading" on time.
  const retrying = uploads?.some((entry) => (entry.retryAt ?? 0) > now) ?? false;
  useEffect(() => {
    if (!retrying) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [retrying]);

  const allFolders = useMemo(
    () =>
      [
        ...new Set([
          ...foldersOf(files ?? []),
          ...newFolders.flatMap((path) => foldersOf([{ folder: path }])),
        ]),
      ].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' })),
    [files, newFolders],
  );

  const keptOf = useMemo(() => {
    const byFile = new Map<string, number[]>();
    for (const copy of copies ?? [])
      byFile.set(copy.fileId, [...(byFile.get(copy.fileId) ?? []), copy.version]);
    return (file: LocalFile): KeptState => {
      const versions = byFile.get(file.id);
      if (!versions) return 'none';
      return versions.includes(latestVersionNumber(file)) ? 'latest' : 'older';
    };
  }, [copies]);

  const fail = (error: unknown) => toaster.show({ tone: 'error', message: problemOf(error) });

  const addFiles = async (picked: readonly File[]) => {
    if (picked.length === 0) return;
    try {
      await queueUploads(
        db,
        { workspaceId: project.workspaceId, projectId: project.id, folder },
        picked.map((file) => ({ name: file.name, type: file.type, size: file.size, blob: file })),
      );
      runtime.runner.kick();
    } catch {
      toaster.show({
        tone: 'error',
        message:
          'This device has no room to hold these files for upload. Free some space and try again.',
      });
    }
  };

  const { dragging, dropProps } = useFileDrop((files) => void addFiles(files));

  if (files === undefined || uploads === undefined) {
    return (
      <div role="status" className="flex items-center gap-3 py-10 text-fg-muted">
        <Spinner />
        Loading files…
      </div>
    );
  }

  const searching = search.trim() !== '';
  const shown = sortFiles(
    searching
      ? files.filter((file) => matchesSearch(file.name, search))
      : files.filter((file) => file.folder === folder),
    sort,
  );
  const subfolders = searching ? [] : childFolders(allFolders, folder);
  const fileIds = new Set(files.map((file) => file.id));
  // A finished upload whose file is listed already: the file row has taken its place.
  const pending = uploads.filter((entry) => entry.fileId === null || !fileIds.has(entry.fileId));
  const dialogFile =
    dialog && 'fileId' in dialog ? files.find((file) => file.id === dialog.fileId) : undefined;
  const keptBytes = totalBytes(copies ?? []);

  // ------------------------------------------------------------ uploads

  const cancel = async (entry: StoredUpload) => {
    const removed = await removeUpload(db, entry.id);
    runtime.progress.clear(entry.id);
    if (removed?.uploadUrl) await runtime.runner.terminate(removed.uploadUrl);
    focusWhenReady('[data-upload-id] button, [data-files-upload]');
  };

  // ------------------------------------------------------------ file actions

  /** The file after this one in the view (or before it), for focus when it leaves. */
  const neighbourOf = (file: LocalFile) => {
    const index = shown.findIndex((candidate) => candidate.id === file.id);
    return shown[index + 1] ?? shown[index - 1] ?? null;
  };
  const focusFileOr = (file: LocalFile | null) =>
    focusWhenReady(file ? `[data-file-open="${file.id}"]` : '[data-files-upload]');

  const remove = async (file: LocalFile) => {
    const next = neighbourOf(file);
    try {
      const mutationId = await fileWrites.delete(ctx, file.id, {
        undoWindowMs: FILE_UNDO_WINDOW_MS,
      });
      focusFileOr(next);
      showUndoNotice(toaster, {
        message: `“${file.name}” deleted`,
        durationMs: FILE_UNDO_WINDOW_MS,
        undo: () => {
          void cancelQueuedChange(db, mutationId).then((undone) => {
            if (undone) focusFileOr(file);
            else
              toaster.show({
                tone: 'error',
                message: `Too late to undo: “${file.name}” is deleted.`,
              });
          });
        },
      });
    } catch (error) {
      fail(error);
    }
  };

  const setVisible = async (file: LocalFile, visibleToClient: boolean) => {
    try {
      await fileWrites.update(ctx, file.id, { visibleToClient });
      toaster.show({
        tone: 'success',
        message: visibleToClient
          ? `“${file.name}” is shown in the client portal.`
          : `“${file.name}” is hidden from the client portal.`,
      });
    } catch (error) {
      fail(error);
    }
  };

  const onAction = (file: LocalFile, action: FileAction) => {
    switch (action) {
      case 'open':
      case 'rename':
      case 'move':
      case 'versions':
      case 'share':
        setDialog({ kind: action, fileId: file.id });
        return;
      case 'download':
        opener.download(file).catch(fail);
        return;
      case 'keep':
        runtime.keeper
          .keep(file)
          .then(
            () =>
              toaster.show({ tone: 'success', message: `“${file.name}” is kept on this device.` }),
            fail,
          );
        return;
      case 'free':
        void freeFile(db, file).then(({ projectReleased }) =>
          toaster.show({
            tone: 'success',
            message: projectReleased
              ? `Offline copy of “${file.name}” freed. New files of this project are no longer kept automatically.`
              : `Offline copy of “${file.name}” freed.`,
          }),
        );
        return;
      case 'show':
      case 'hide':
        void setVisible(file, action === 'show');
        return;
      case 'delete':
        void remove(file);
        return;
    }
  };

  const setProjectKept = async (keep: boolean) => {
    if (keep) {
      await keepProject(db, project);
      toaster.show({
        tone: 'success',
        message: online
          ? `Keeping every file of ${project.name} on this device, new ones included.`
          : `Every file of ${project.name} will be kept on this device when you're back online.`,
      });
    } else {
      await freeProject(db, project);
      toaster.show({ tone: 'success', message: `Offline copies of ${project.name} freed.` });
    }
  };

  // ------------------------------------------------------------ render

  const picker = (
    <FileTrigger allowsMultiple onSelect={(list) => void addFiles(list ? [...list] : [])}>
      <Button data-files-upload>
        <Upload aria-hidden="true" size={16} /> Upload files
      </Button>
    </FileTrigger>
  );

  const isEmpty = files.length === 0 && pending.length === 0 && folder === '';

  return (
    <section aria-labelledby="project-files-heading" className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="project-files-heading" className="text-lg font-semibold text-fg">
          Files
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <Button variant="secondary" onPress={() => setDialog({ kind: 'new-folder' })}>
            <FolderPlus aria-hidden="true" size={16} /> New folder
          </Button>
          {picker}
        </div>
      </div>

      {!online ? (
        <p
          role="status"
          className="flex items-start gap-2 rounded-xl border border-border bg-surface-muted px-4 py-3 text-sm text-fg"
        >
          <WifiOff aria-hidden="true" size={16} className="mt-0.5 shrink-0 text-fg-muted" />
          You're offline. Files you add now wait on this device and upload when you're back online;
          files kept offline still open.
        </p>
      ) : null}

      <div
        {...dropProps}
        className={`flex-col items-center gap-2 rounded-2xl border-2 border-dashed text-center transition-colors ${
          dragging ? 'border-brand bg-brand-soft' : 'border-border-strong bg-surface'
        } ${
          // Phones have nothing to drag from: the strip shows where there is a pointer to drop.
          isEmpty
            ? 'flex px-6 py-10'
            : 'hidden px-4 py-4 sm:flex sm:flex-row sm:justify-center sm:gap-3'
        }`}
      >
        <CloudUpload aria-hidden="true" size={isEmpty ? 32 : 20} className="text-fg-muted" />
        {isEmpty ? (
          <>
            <p className="font-semibold text-fg">No files in {project.name} yet</p>
            <p className="max-w-md text-sm text-fg-muted">
              Choose Upload files, or drop files here. Deliverables, briefs, contracts: up to
              several at once. Uploads survive a lost connection and a closed laptop, and you choose
              what your client sees in the portal.
            </p>
          </>
        ) : (
          <p className="text-sm text-fg-muted">
            Drop files here to upload them to{' '}
            <span className="font-medium text-fg">{folder === '' ? 'the top level' : folder}</span>.
          </p>
        )}
      </div>

      <UploadList
        uploads={pending}
        progressOf={progressOf}
        online={online}
        now={now}
        onPause={(entry) => void pauseUpload(db, entry.id)}
        onResume={(entry) => void resumeUpload(db, entry.id).then(() => runtime.runner.kick())}
        onRetry={(entry) => void retryUpload(db, entry.id).then(() => runtime.runner.kick())}
        onCancel={(entry) => void cancel(entry)}
      />

      {files.length > 0 || folder !== '' ? (
        <div className="flex flex-col gap-3">
          <div className="flex flex-wrap items-end gap-3">
            <SearchField
              aria-label="Search files"
              value={search}
              onChange={setSearch}
              className="relative min-w-0 basis-full sm:flex-1 sm:basis-48"
            >
              <Search
                aria-hidden="true"
                size={16}
                className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-fg-muted"
              />
              <Input
                placeholder="Search by name"
                className={`${inputClassName} pr-10 pl-9 sm:min-h-10 sm:text-sm [&::-webkit-search-cancel-button]:hidden`}
              />
              {search ? (
                <AriaButton
                  aria-label="Clear search"
                  className="absolute top-1/2 right-1 grid size-9 -translate-y-1/2 cursor-pointer place-items-center rounded-md text-fg-muted outline-none hover:text-fg data-focus-visible:ring-2 data-focus-visible:ring-ring"
                >
                  <X aria-hidden="true" size={16} />
                </AriaButton>
              ) : null}
            </SearchField>
            <SelectField
              label="Sort"
              isLabelHidden
              options={sortOptions}
              value={sort}
              onChange={setSort}
              className="min-w-0 flex-1 sm:w-44 sm:flex-none"
            />
            <ViewSwitch options={fileViews} value={view} onChange={setView} wordsFromSm />
          </div>

          {searching ? (
            <p role="status" className="text-sm text-fg-muted">
              {shown.length === 0
                ? `No file names match “${search.trim()}”.`
                : `${shown.length} ${shown.length === 1 ? 'file matches' : 'files match'} “${search.trim()}” in every folder.`}
            </p>
          ) : (
            <Breadcrumb folder={folder} onOpen={setFolder} />
          )}

          {subfolders.length > 0 ? (
            <ul aria-label="Folders" className="flex flex-wrap gap-2">
              {subfolders.map((path) => {
                const count = files.filter(
                  (file) => file.folder === path || file.folder.startsWith(`${path}/`),
                ).length;
                return (
                  <li key={path}>
                    <AriaButton
                      onPress={() => setFolder(path)}
                      className="flex min-h-11 cursor-pointer items-center gap-2 rounded-xl border border-border bg-surface px-3 text-sm font-medium text-fg outline-none hover:border-brand data-focus-visible:ring-2 data-focus-visible:ring-ring"
                    >
                      <Folder aria-hidden="true" size={16} className="text-brand" />
                      {folderLabel(path)}
                      <span className="text-xs font-normal text-fg-muted">
                        {count === 1 ? '1 file' : `${count} files`}
                      </span>
                    </AriaButton>
                  </li>
                );
              })}
            </ul>
          ) : null}

          {shown.length > 0 ? (
            <ul
              aria-label={searching ? 'Matching files' : `Files in ${folderLabel(folder)}`}
              className={
                view === 'grid'
                  ? 'grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4'
                  : 'flex flex-col gap-2'
              }
            >
              {shown.map((file) => (
                <FileItem
                  key={file.id}
                  db={db}
                  runtime={runtime}
                  file={file}
                  layout={view}
                  online={online}
                  kept={keptOf(file)}
                  keeping={keeping.busy.has(file.id)}
                  keepError={keeping.errors.get(file.id)}
                  showFolder={searching}
                  onAction={onAction}
                />
              ))}
            </ul>
          ) : !searching && subfolders.length === 0 ? (
            <div className="flex flex-col items-center gap-2 rounded-2xl border border-dashed border-border-strong p-6 text-center text-sm text-fg-muted">
              <FolderOpen aria-hidden="true" size={24} />
              <p>
                {folder === ''
                  ? 'Every file is in a folder.'
                  : `“${folderLabel(folder)}” is empty. Upload files while it is open, or move files into it.`}
              </p>
            </div>
          ) : null}
        </div>
      ) : null}

      <OfflineSummary
        kept={projectKept ?? false}
        bytes={keptBytes}
        count={copies?.length ?? 0}
        onChange={(keep) => void setProjectKept(keep)}
      />

      {dialog?.kind === 'new-folder' ? (
        <NewFolderDialog
          parent={folder}
          onCreate={(path) => {
            setNewFolders((current) => [...current, path]);
            setFolder(path);
          }}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialogFile && dialog?.kind === 'rename' ? (
        <RenameDialog
          file={dialogFile}
          onRename={async (name) => {
            await fileWrites.update(ctx, dialogFile.id, { name });
            focusFileOr(dialogFile);
          }}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialogFile && dialog?.kind === 'move' ? (
        <MoveDialog
          file={dialogFile}
          folders={allFolders}
          onMove={async (target) => {
            const next = neighbourOf(dialogFile);
            await fileWrites.update(ctx, dialogFile.id, { folder: target });
            if (!searching) focusFileOr(next);
            toaster.show({
              tone: 'success',
              message: `“${dialogFile.name}” moved to ${target === '' ? 'the top level' : target}.`,
              action: {
                label: `Open ${folderLabel(target)}`,
                onAction: () => {
                  setSearch('');
                  setFolder(target);
                  focusFileOr(dialogFile);
                },
              },
              durationMs: 6000,
            });
          }}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialogFile && dialog?.kind === 'versions' ? (
        <VersionsDialog
          file={dialogFile}
          uploaderName={uploaderName}
          opener={opener}
          onError={fail}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialogFile && dialog?.kind === 'share' ? (
        <ShareLinkDialog
          file={dialogFile}
          online={online}
          callEndpoint={callEndpoint}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialogFile && dialog?.kind === 'open' ? (
        <PreviewDialog
          db={db}
          runtime={runtime}
          file={dialogFile}
          online={online}
          kept={keptOf(dialogFile)}
          uploaderName={uploaderName}
          opener={opener}
          onToggleVisible={(visible) => void setVisible(dialogFile, visible)}
          onError={fail}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </section>
  );
}

function Breadcrumb({ folder, onOpen }: { folder: string; onOpen: (folder: string) => void }) {
  const parts = folder === '' ? [] : folder.split('/');
  const trail = [
    { path: '', label: 'All files' },
    ...parts.map((part, index) => ({ path: parts.slice(0, index + 1).join('/'), label: part })),
  ];
  return (
    <nav aria-label="Folder">
      <ol className="flex flex-wrap items-center gap-1 text-sm">
        {trail.map((crumb, index) => {
          const current = index === trail.length - 1;
          return (
            <li key={crumb.path} className="flex min-w-0 items-center gap-1">
              {index > 0 ? (
                <ChevronRight aria-hidden="true" size={14} className="shrink-0 text-fg-muted" />
              ) : null}
              {current ? (
                <span aria-current="page" className="font-semibold break-all text-fg">
                  {crumb.label}
                </span>
              ) : (
                <AriaButton
                  onPress={() => onOpen(crumb.path)}
                  className="min-h-11 cursor-pointer rounded-md px-1 font-medium break-all text-brand outline-none hover:underline data-focus-visible:ring-2 data-focus-visible:ring-ring sm:min-h-8"
                >
                  {crumb.label}
                </AriaButton>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

function OfflineSummary({
  kept,
  bytes,
  count,
  onChange,
}: {
  kept: boolean;
  bytes: number;
  count: number;
  onChange: (keep: boolean) => void;
}) {
  return (
    <div className="flex flex-col gap-3 rounded-2xl border border-border bg-surface p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex items-start gap-3">
        <HardDriveDownload aria-hidden="true" size={20} className="mt-0.5 shrink-0 text-brand" />
        <div>
          <p className="text-sm font-medium text-fg">Offline copies</p>
          <p className="text-sm text-fg-muted">
            {count === 0
              ? 'No file of this project is kept on this device.'
              : `${count === 1 ? '1 file' : `${count} files`} kept on this device, ${formatBytes(bytes)}.`}
          </p>
        </div>
      </div>
      <Switch
        isSelected={kept}
        onChange={onChange}
        className="group flex min-h-11 cursor-pointer items-center gap-3 text-sm font-medium text-fg outline-none"
      >
        <span className="flex h-6 w-10 shrink-0 items-center rounded-full border border-border-strong bg-surface-muted px-0.5 transition-colors group-data-focus-visible:ring-2 group-data-focus-visible:ring-ring group-data-selected:border-brand group-data-selected:bg-brand">
          <span className="size-4.5 rounded-full bg-fg-muted transition-transform group-data-selected:translate-x-4 group-data-selected:bg-on-brand motion-reduce:transition-none" />
        </span>
        Keep all files offline
      </Switch>
    </div>
  );
}
