/**
 * One file in the Files tab, as a row (list view) or a card (grid view): its picture, name (which
 * opens the preview), size, date and version, whether it is kept on this device and whether the
 * client sees it, a Download button and a menu of everything else.
 */
import {
  Download,
  EllipsisVertical,
  Eye,
  EyeOff,
  FolderInput,
  HardDriveDownload,
  History,
  LoaderCircle,
  Pencil,
  Trash2,
  Link2,
} from 'lucide-react';
import {
  Button as AriaButton,
  Menu,
  MenuItem,
  MenuTrigger,
  Popover,
  Separator,
} from 'react-aria-components';
import type { AppDatabase } from '../../db/app-database.ts';
import { latestVersionNumber, uploadedAt, type LocalFile } from '../../data/files.ts';
import type { FilesRuntime } from '../../files/files-runtime.ts';
import { Button } from '../../ui/button.tsx';
import { formatBytes, formatFileDate } from './file-format.ts';
import { FileThumbnail } from './file-thumbnail.tsx';

export type FileAction =
  | 'open'
  | 'download'
  | 'rename'
  | 'move'
  | 'versions'
  | 'share'
  | 'keep'
  | 'free'
  | 'show'
  | 'hide'
  | 'delete';

/** Whether this device holds the file's bytes: its newest version, an older one, or none. */
export type KeptState = 'latest' | 'older' | 'none';

export interface FileItemProps {
  db: AppDatabase;
  runtime: FilesRuntime;
  file: LocalFile;
  layout: 'list' | 'grid';
  online: boolean;
  kept: KeptState;
  keeping: boolean;
  keepError: string | undefined;
  /** Shown when the list mixes folders (a search). */
  showFolder: boolean;
  onAction: (file: LocalFile, action: FileAction) => void;
}

const menuItemClass =
  'flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-3 text-sm text-fg outline-none data-focused:bg-surface-muted data-disabled:cursor-not-allowed data-disabled:opacity-50 sm:min-h-9';

function Meta({
  file,
  kept,
  keeping,
  keepError,
  showFolder,
}: Omit<FileItemProps, 'db' | 'runtime' | 'layout' | 'online' | 'onAction'>) {
  const version = latestVersionNumber(file);
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs text-fg-muted">
      <span>{formatBytes(file.size)}</span>
      <span aria-hidden="true">·</span>
      <span>{formatFileDate(uploadedAt(file))}</span>
      {version > 1 ? (
        <>
          <span aria-hidden="true">·</span>
          <span>v{version}</span>
        </>
      ) : null}
      {showFolder && file.folder !== '' ? (
        <>
          <span aria-hidden="true">·</span>
          <span className="break-all">{file.folder}</span>
        </>
      ) : null}
      {keeping ? (
        <span className="inline-flex items-center gap-1 text-brand">
          <LoaderCircle aria-hidden="true" size={12} className="animate-spin" /> Keeping offline…
        </span>
      ) : kept === 'latest' ? (
        <span className="inline-flex items-center gap-1 text-success">
          <HardDriveDownload aria-hidden="true" size={12} /> Kept offline
        </span>
      ) : kept === 'older' ? (
        <span className="inline-flex items-center gap-1">
          <HardDriveDownload aria-hidden="true" size={12} /> Older version kept
        </span>
      ) : null}
      {keepError ? <span className="text-danger">Not kept: {keepError}</span> : null}
      {file.visibleToClient ? null : (
        <span className="inline-flex items-center gap-1">
          <EyeOff aria-hidden="true" size={12} /> Hidden from client
        </span>
      )}
      {file._pending > 0 ? <span>Not synced yet</span> : null}
    </span>
  );
}

function ActionsMenu({
  file,
  online,
  kept,
  onAction,
}: Pick<FileItemProps, 'file' | 'online' | 'kept' | 'onAction'>) {
  const items: { id: FileAction; label: string; Icon: typeof Download; disabled?: boolean }[] = [
    { id: 'open', label: 'Preview', Icon: Eye },
    { id: 'rename', label: 'Rename…', Icon: Pencil },
    { id: 'move', label: 'Move to folder…', Icon: FolderInput },
    {
      id: 'versions',
      label: file.versions.length > 1 ? `Versions (${file.versions.length})…` : 'Versions…',
      Icon: History,
    },
    { id: 'share', label: 'Share link…', Icon: Link2, disabled: !online },
    kept === 'none'
      ? { id: 'keep', label: 'Keep offline', Icon: HardDriveDownload, disabled: !online }
      : { id: 'free', label: 'Free offline copy', Icon: HardDriveDownload },
    file.visibleToClient
      ? { id: 'hide', label: 'Hide from client portal', Icon: EyeOff }
      : { id: 'show', label: 'Show in client portal', Icon: Eye },
  ];
  return (
    <MenuTrigger>
      <AriaButton
        aria-label={`Actions for ${file.name}`}
        className="grid size-11 shrink-0 cursor-pointer place-items-center rounded-lg text-fg-muted outline-none hover:bg-surface-muted hover:text-fg data-focus-visible:ring-2 data-focus-visible:ring-ring data-pressed:bg-surface-muted sm:size-9"
      >
        <EllipsisVertical aria-hidden="true" size={16} />
      </AriaButton>
      <Popover
        placement="bottom end"
        className="min-w-56 overflow-auto rounded-xl border border-border bg-surface p-1 text-fg shadow-lg outline-none"
      >
        <Menu
          aria-label={`Actions for ${file.name}`}
          className="outline-none"
          disabledKeys={items.filter((item) => item.disabled).map((item) => item.id)}
          onAction={(key) => onAction(file, key as FileAction)}
        >
          {items.map(({ id, label, Icon }) => (
            <MenuItem key={id} id={id} textValue={label} className={menuItemClass}>
              <Icon aria-hidden="true" size={16} className="text-fg-muted" />
              {label}
            </MenuItem>
          ))}
          <Separator className="my-1 border-t border-border" />
          <MenuItem id="delete" textValue="Delete" className={`${menuItemClass} text-danger`}>
            <Trash2 aria-hidden="true" size={16} />
            Delete
          </MenuItem>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

export function FileItem(props: FileItemProps) {
  const { db, runtime, file, layout, online, kept, onAction } = props;
  const reachable = online || kept === 'latest';
  const nameButton = (
    <AriaButton
      data-file-open={file.id}
      onPress={() => onAction(file, 'open')}
      className="min-w-0 cursor-pointer text-left font-medium break-words text-fg outline-none hover:text-brand hover:underline data-focus-visible:ring-2 data-focus-visible:ring-ring"
    >
      {file.name}
    </AriaButton>
  );
  const download = (
    <Button
      variant="ghost"
      size="icon"
      aria-label={`Download ${file.name}`}
      isDisabled={!reachable}
      onPress={() => onAction(file, 'download')}
    >
      <Download aria-hidden="true" size={16} />
    </Button>
  );

  if (layout === 'grid') {
    return (
      <li
        data-file-id={file.id}
        className="flex min-w-0 flex-col overflow-hidden rounded-xl border border-border bg-surface"
      >
        <FileThumbnail db={db} runtime={runtime} file={file} online={online} large />
        <div className="flex min-w-0 flex-1 items-start gap-1 p-3 pr-1">
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            {nameButton}
            <Meta {...props} />
          </div>
          <ActionsMenu {...props} />
        </div>
      </li>
    );
  }
  return (
    <li
      data-file-id={file.id}
      className="flex min-w-0 items-center gap-3 rounded-xl border border-border bg-surface py-2 pr-1 pl-3"
    >
      <FileThumbnail db={db} runtime={runtime} file={file} online={online} />
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        {nameButton}
        <Meta {...props} />
      </div>
      {download}
      <ActionsMenu {...props} />
    </li>
  );
}
