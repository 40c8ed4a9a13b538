/**
 * A client's files: every file of that client's projects, newest first, each with its project,
 * size and date. Opening one downloads it (from the copy kept on this device when there is one,
 * so kept files open offline); its project's Files tab has everything else.
 */
import { Link } from '@tanstack/react-router';
import { Download, Files } from 'lucide-react';
import type { LocalClient } from '../../db/app-database.ts';
import { latestVersionNumber, uploadedAt, useClientFiles } from '../../data/files.ts';
import { useCopies } from '../../files/file-copies.ts';
import { Button } from '../../ui/button.tsx';
import { useToast } from '../../ui/use-toast.ts';
import { useSync } from '../workspace/sync-context.tsx';
import { fileIconOf, formatBytes, formatFileDate } from './file-format.ts';
import { useFileOpener } from './file-open.ts';
import { useFilesRuntime, useOnline } from './use-files-runtime.tsx';

/** More than this and the list ends with a count (the project tabs list them all). */
const SHOWN = 20;

export function ClientFiles({ client }: { client: LocalClient }) {
  const { handle } = useSync();
  const db = handle.db;
  const toaster = useToast();
  const runtime = useFilesRuntime();
  const online = useOnline(runtime);
  const opener = useFileOpener(db, runtime);
  const rows = useClientFiles(db, client.workspaceId, client.id);
  const copies = useCopies(db, client.workspaceId);

  if (rows === undefined) return null;
  if (rows.length === 0) {
    return (
      <div className="mt-2 text-center text-sm text-fg-muted">
        <Files aria-hidden="true" size={24} className="mx-auto" />
        <p className="mt-2">No files in {client.name}'s projects yet.</p>
        <p>Upload them in a project's Files tab.</p>
      </div>
    );
  }
  const kept = new Set((copies ?? []).map((copy) => `${copy.fileId}:${copy.version}`));
  return (
    <div className="flex flex-col gap-2">
      <ul aria-label={`Files of ${client.name}`} className="divide-y divide-border">
        {rows.slice(0, SHOWN).map(({ file, projectName }) => {
          const Icon = fileIconOf(file.type, file.name);
          const isKept = kept.has(`${file.id}:${latestVersionNumber(file)}`);
          return (
            <li key={file.id} className="flex min-w-0 items-center gap-3 py-2">
              <Icon aria-hidden="true" size={18} className="shrink-0 text-fg-muted" />
              <div className="min-w-0 flex-1">
                {/* Wrapping, not truncating: nowrap text would widen the page's one-column grid
                    on a phone to its full length. */}
                <p className="text-sm font-medium break-words text-fg">{file.name}</p>
                <p className="text-xs break-words text-fg-muted">
                  <Link
                    to="/projects/$projectId/$clientId"
                    params={{ projectId: file.projectId, clientId: client.id }}
                    search={{ tab: 'files' }}
                    className="underline-offset-2 hover:text-brand hover:underline"
                  >
                    {projectName}
                  </Link>{' '}
                  · {formatBytes(file.size)} · {formatFileDate(uploadedAt(file))}
                  {isKept ? ' · Kept offline' : ''}
                </p>
              </div>
              <Button
                variant="ghost"
                size="icon"
                aria-label={`Download ${file.name}`}
                isDisabled={!online && !isKept}
                onPress={() =>
                  opener.download(file).catch((error: unknown) =>
                    toaster.show({
                      tone: 'error',
                      message: error instanceof Error ? error.message : 'The download failed.',
                    }),
                  )
                }
              >
                <Download aria-hidden="true" size={16} />
              </Button>
            </li>
          );
        })}
      </ul>
      {rows.length > SHOWN ? (
        <p className="text-xs text-fg-muted">
          The {SHOWN} newest of {rows.length} files. Each project's Files tab lists all of its own.
        </p>
      ) : null}
    </div>
  );
}
