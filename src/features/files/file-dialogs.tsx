/**
 * The Files tab's dialogs: rename, move to a folder, a new folder, versions and the preview.
 * The preview shows an image, the start of a text or the first pages of a PDF (pdf-preview.tsx).
 * Each is a modal dialog (focus trapped, Escape closes) that hands focus back to what opened it;
 * a refused name or folder stays in its field with the contract's reason beside it.
 */
import { folderSchema } from '#contract/entities/file.ts';
import { Download, ExternalLink, HardDriveDownload } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Switch } from 'react-aria-components';
import * as v from 'valibot';
import type { AppDatabase } from '../../db/app-database.ts';
import { latestVersionNumber, type LocalFile } from '../../data/files.ts';
import { writeErrorFields } from '../../data/write-error-fields.ts';
import { previewKindOf } from '../../files/file-access.ts';
import type { FilesRuntime } from '../../files/files-runtime.ts';
import { Button } from '../../ui/button.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Sheet, SheetActions } from '../../ui/sheet.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { formatBytes, formatFileDateTime } from './file-format.ts';
import type { FileOpener } from './file-open.ts';
import { useImageUrl } from './file-thumbnail.tsx';
import { PdfPreview } from './pdf-preview.tsx';
import { DEMO_FILE_NOTE, isDemoUser } from '../../demo/demo-mode.ts';
import { useOptionalSync } from '../workspace/sync-context.tsx';

/** The name with its extension: the part before the last dot is what a person renames. */
/**
 * A dialog's save: runs the write, closes on success, and on a refusal shows the contract's
 * reason for `field` (or the form's) and lets the user try again.
 */
function useSaveThenClose(field: string, onClose: () => void) {
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const save = async (write: () => Promise<void>) => {
    setSaving(true);
    try {
      await write();
      onClose();
    } catch (failure) {
      const fields = writeErrorFields(failure);
      setError(fields[field] ?? fields.form);
      setSaving(false);
    }
  };
  return { error, setError, saving, save };
}

export function RenameDialog({
  file,
  onRename,
  onClose,
}: {
  file: LocalFile;
  onRename: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  const [name, setName] = useState(file.name);
  const { error, setError, saving, save } = useSaveThenClose('name', onClose);
  const inputRef = useRef<HTMLInputElement>(null);

  // Select the name without its extension, as file managers do (after autofocus selected all).
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      const dot = file.name.lastIndexOf('.');
      inputRef.current?.setSelectionRange(0, dot > 0 ? dot : file.name.length);
    });
    return () => cancelAnimationFrame(frame);
  }, [file.name]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === file.name) {
      onClose();
      return;
    }
    await save(() => onRename(name));
  };

  return (
    <Sheet title={`Rename “${file.name}”`} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4">
        <FormTextField
          inputRef={inputRef}
          label="File name"
          name="name"
          value={name}
          onChange={(text) => {
            setName(text);
            setError(undefined);
          }}
          error={error}
          autoFocus
        />
        <SheetActions>
          <Button variant="secondary" onPress={onClose}>
            Cancel
          </Button>
          <Button type="submit" isPending={saving}>
            Rename
          </Button>
        </SheetActions>
      </form>
    </Sheet>
  );
}

const NEW_FOLDER = '\u0000new';

/** Move to an existing folder, the top level, or a new folder typed here. */
export function MoveDialog({
  file,
  folders,
  onMove,
  onClose,
}: {
  file: LocalFile;
  folders: readonly string[];
  onMove: (folder: string) => Promise<void>;
  onClose: () => void;
}) {
  const [choice, setChoice] = useState<string>(folders.length > 0 ? file.folder : NEW_FOLDER);
  const [typed, setTyped] = useState('');
  const { error, setError, saving, save } = useSaveThenClose('folder', onClose);
  const options = [
    { id: '', label: 'Top level (no folder)' },
    ...folders.map((folder) => ({ id: folder, label: folder })),
    { id: NEW_FOLDER, label: 'New folder…' },
  ];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const folder = choice === NEW_FOLDER ? typed : choice;
    const parsed = v.safeParse(folderSchema, folder);
    if (!parsed.success) {
      setError(parsed.issues[0].message);
      return;
    }
    if (choice === NEW_FOLDER && parsed.output === '') {
      setError('Type the new folder’s name');
      return;
    }
    if (parsed.output === file.folder) {
      onClose();
      return;
    }
    await save(() => onMove(parsed.output));
  };

  return (
    <Sheet title={`Move “${file.name}”`} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4">
        <SelectField
          label="Folder"
          options={options}
          value={choice}
          onChange={(next) => {
            setChoice(next);
            setError(undefined);
          }}
          error={choice === NEW_FOLDER ? undefined : error}
        />
        {choice === NEW_FOLDER ? (
          <FormTextField
            label="New folder"
            name="folder"
            value={typed}
            placeholder="Designs/Final"
            description="Use / for a folder inside another."
            onChange={(text) => {
              setTyped(text);
              setError(undefined);
            }}
            error={error}
            autoFocus
          />
        ) : null}
        <SheetActions>
          <Button variant="secondary" onPress={onClose}>
            Cancel
          </Button>
          <Button type="submit" isPending={saving}>
            Move
          </Button>
        </SheetActions>
      </form>
    </Sheet>
  );
}

/** A folder to upload into; it exists once a file is in it. */
export function NewFolderDialog({
  parent,
  onCreate,
  onClose,
}: {
  parent: string;
  onCreate: (folder: string) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const path = parent === '' ? name.trim() : `${parent}/${name.trim()}`;
    const parsed = v.safeParse(folderSchema, path);
    if (name.trim() === '' || name.includes('/') || !parsed.success) {
      setError(
        name.includes('/')
          ? 'One folder at a time: a name without /'
          : parsed.success
            ? 'Type the folder’s name'
            : parsed.issues[0].message,
      );
      return;
    }
    onCreate(parsed.output);
    onClose();
  };
  return (
    <Sheet title={parent === '' ? 'New folder' : `New folder in “${parent}”`} onClose={onClose}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <FormTextField
          label="Folder name"
          name="folder"
          value={name}
          description="The folder appears for everyone once a file is uploaded or moved into it."
          onChange={(text) => {
            setName(text);
            setError(undefined);
          }}
          error={error}
          autoFocus
        />
        <SheetActions>
          <Button variant="secondary" onPress={onClose}>
            Cancel
          </Button>
          <Button type="submit">Open folder</Button>
        </SheetActions>
      </form>
    </Sheet>
  );
}

export function VersionsDialog({
  file,
  uploaderName,
  opener,
  onError,
  onClose,
}: {
  file: LocalFile;
  uploaderName: (userId: string) => string;
  opener: FileOpener;
  onError: (error: unknown) => void;
  onClose: () => void;
}) {
  const versions = [...file.versions].reverse();
  return (
    <Sheet title={`Versions of “${file.name}”`} onClose={onClose} wide>
      <p className="text-sm text-fg-muted">
        Uploading a file with the same name to the same folder adds a version. Every version stays
        downloadable until the file is deleted.
      </p>
      {versions.length === 0 ? (
        <p className="text-sm text-fg-muted">No earlier versions.</p>
      ) : (
        <ul aria-label="Versions" className="flex flex-col divide-y divide-border">
          {versions.map((version, index) => (
            <li
              key={version.number}
              className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3"
            >
              <div className="min-w-0">
                <p className="font-medium text-fg">
                  Version {version.number}
                  {index === 0 ? (
                    <span className="ml-2 rounded-full bg-brand-soft px-2 py-0.5 text-xs font-semibold text-brand">
                      Current
                    </span>
                  ) : null}
                </p>
                <p className="text-sm text-fg-muted">
                  {uploaderName(version.uploadedBy)} · {formatFileDateTime(version.uploadedAt)} ·{' '}
                  {formatBytes(version.size)}
                </p>
              </div>
              <Button
                variant="secondary"
                aria-label={`Download version ${version.number}`}
                onPress={() => opener.download(file, version.number).catch(onError)}
              >
                <Download aria-hidden="true" size={16} /> Download
              </Button>
            </li>
          ))}
        </ul>
      )}
      <SheetActions>
        <Button variant="secondary" onPress={onClose}>
          Close
        </Button>
      </SheetActions>
    </Sheet>
  );
}

function TextPreview({ file, opener }: { file: LocalFile; opener: FileOpener }) {
  const [state, setState] = useState<
    | { status: 'loading' }
    | { status: 'ready'; text: string; cut: boolean }
    | { status: 'error'; message: string }
  >({ status: 'loading' });
  useEffect(() => {
    let live = true;
    opener.readText(file).then(
      (preview) => live && setState({ status: 'ready', ...preview }),
      (error: unknown) =>
        live &&
        setState({
          status: 'error',
          message: error instanceof Error ? error.message : 'The preview could not load.',
        }),
    );
    return () => {
      live = false;
    };
  }, [file, opener]);
  if (state.status === 'loading') {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-fg-muted">
        <Spinner size="small" /> Loading the preview…
      </p>
    );
  }
  if (state.status === 'error') return <p className="text-sm text-fg-muted">{state.message}</p>;
  return (
    <figure className="flex flex-col gap-1">
      <pre
        tabIndex={0}
        aria-label={`Beginning of ${file.name}`}
        className="max-h-72 overflow-auto rounded-lg border border-border bg-surface-muted p-3 text-sm break-words whitespace-pre-wrap text-fg"
      >
        {state.text}
      </pre>
      {state.cut ? (
        <figcaption className="text-xs text-fg-muted">
          The first 4 KB. Download or open the file for the rest.
        </figcaption>
      ) : null}
    </figure>
  );
}

function ImagePreview({
  db,
  runtime,
  file,
  online,
}: {
  db: AppDatabase;
  runtime: FilesRuntime;
  file: LocalFile;
  online: boolean;
}) {
  const url = useImageUrl(db, runtime, file, online);
  if (!url) {
    return (
      <p className="text-sm text-fg-muted">
        {online ? 'Loading the image…' : 'The image is not kept on this device.'}
      </p>
    );
  }
  return (
    <img
      src={url}
      alt={`Preview of ${file.name}`}
      className="max-h-96 w-full rounded-lg bg-surface-muted object-contain"
    />
  );
}

export interface PreviewDialogProps {
  db: AppDatabase;
  runtime: FilesRuntime;
  file: LocalFile;
  online: boolean;
  kept: 'latest' | 'older' | 'none';
  uploaderName: (userId: string) => string;
  opener: FileOpener;
  onToggleVisible: (visible: boolean) => void;
  onError: (error: unknown) => void;
  onClose: () => void;
}

export function PreviewDialog({
  db,
  runtime,
  file,
  online,
  kept,
  uploaderName,
  opener,
  onToggleVisible,
  onError,
  onClose,
}: PreviewDialogProps) {
  const kind = previewKindOf(file.type);
  const reachable = online || kept === 'latest';
  // The demo's files are metadata only: say so rather than fail to draw a preview.
  const demo = isDemoUser({ id: useOptionalSync()?.userId ?? '' });
  return (
    <Sheet title={file.name} onClose={onClose} wide>
      {demo ? (
        <p
          role="note"
          className="rounded-lg border border-border bg-surface-muted p-4 text-sm text-fg"
        >
          {DEMO_FILE_NOTE}
        </p>
      ) : kind === 'image' ? (
        <ImagePreview db={db} runtime={runtime} file={file} online={online} />
      ) : kind === 'text' && reachable ? (
        <TextPreview file={file} opener={opener} />
      ) : kind === 'pdf' && reachable ? (
        <PdfPreview
          db={db}
          runtime={runtime}
          fileId={file.id}
          fileName={file.name}
          fileSize={file.size}
          version={latestVersionNumber(file)}
          onOpenInTab={() => opener.openInTab(file).catch(onError)}
          onDownload={() => opener.download(file).catch(onError)}
        />
      ) : (
        <p className="text-sm text-fg-muted">
          {reachable
            ? 'No preview for this kind of file. Download it to open it in its app.'
            : 'This file is not kept on this device. Connect to open it.'}
        </p>
      )}
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
        <dt className="text-fg-muted">Size</dt>
        <dd className="text-fg">{formatBytes(file.size)}</dd>
        <dt className="text-fg-muted">Type</dt>
        <dd className="break-words text-fg">{file.type || 'Unknown'}</dd>
        <dt className="text-fg-muted">Folder</dt>
        <dd className="break-words text-fg">{file.folder || 'Top level'}</dd>
        <dt className="text-fg-muted">Version</dt>
        <dd className="text-fg">
          {latestVersionNumber(file)}
          {file.versions.length > 1 ? ` of ${file.versions.length}` : ''}
        </dd>
        <dt className="text-fg-muted">Uploaded</dt>
        <dd className="text-fg">
          {uploaderName(file.uploadedBy)}
          {file.versions.at(-1) ? `, ${formatFileDateTime(file.versions.at(-1)!.uploadedAt)}` : ''}
        </dd>
        <dt className="text-fg-muted">On this device</dt>
        <dd className="flex items-center gap-1 text-fg">
          {kept === 'latest' ? (
            <>
              <HardDriveDownload aria-hidden="true" size={14} /> Kept offline
            </>
          ) : kept === 'older' ? (
            'An older version is kept; the new one downloads when online'
          ) : (
            'Not kept'
          )}
        </dd>
      </dl>
      <Switch
        isSelected={file.visibleToClient}
        onChange={onToggleVisible}
        className="group flex min-h-11 cursor-pointer items-center gap-3 text-sm font-medium text-fg outline-none"
      >
        <span className="flex h-6 w-10 shrink-0 items-center rounded-full border border-border-strong bg-surface-muted px-0.5 transition-colors group-data-focus-visible:ring-2 group-data-focus-visible:ring-ring group-data-selected:border-brand group-data-selected:bg-brand">
          <span className="size-4.5 rounded-full bg-fg-muted transition-transform group-data-selected:translate-x-4 group-data-selected:bg-on-brand motion-reduce:transition-none" />
        </span>
        Shown in the client portal
      </Switch>
      <SheetActions>
        <Button variant="secondary" onPress={onClose}>
          Close
        </Button>
        {kind !== 'none' ? (
          <Button
            variant="secondary"
            isDisabled={!reachable}
            onPress={() => opener.openInTab(file).catch(onError)}
          >
            <ExternalLink aria-hidden="true" size={16} /> Open in new tab
          </Button>
        ) : null}
        <Button isDisabled={!reachable} onPress={() => opener.download(file).catch(onError)}>
          <Download aria-hidden="true" size={16} /> Download
        </Button>
      </SheetActions>
    </Sheet>
  );
}
