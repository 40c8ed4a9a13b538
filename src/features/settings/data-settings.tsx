/**
 * Settings > Data: the workspace in the user's hands. Export makes a zip on this device from its
 * own tables (works offline; src/data-export/), files included when asked; import brings clients
 * in from a spreadsheet's CSV (src/features/data-import/). Loaded only when the Data tab opens
 * (settings-screen.tsx lazy-loads it), so fflate and papaparse never weigh on other pages.
 */
import { Download } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Checkbox } from 'react-aria-components';
import { getCopy } from '../../files/file-copies.ts';
import { saveFromUrl } from '../../files/file-access.ts';
import type { FileBytesSource } from '../../data-export/collect-file-bytes.ts';
import type { ExportProgress } from '../../data-export/export-archive.ts';
import { exportWorkspace, type WorkspaceExport } from '../../data-export/export-workspace.ts';
import type { LocalWorkspace } from '../../db/app-database.ts';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { FormAlert } from '../auth/form-alert.tsx';
import { ClientImportSection } from '../data-import/client-import-section.tsx';
import { useFilesRuntime, useOnline } from '../files/use-files-runtime.tsx';
import { ProgressBar } from '../milestones/progress-bar.tsx';
import { useOptionalSync, useSync } from '../workspace/sync-context.tsx';
import { useWorkspaceState } from '../workspace/use-workspace.ts';
import { formatBytes } from './format-bytes.ts';
import { SettingsSection } from './settings-section.tsx';

export function DataSettings() {
  if (!useOptionalSync()) {
    return (
      <FormAlert tone="info">
        Your workspace opens a moment after sign-in; then it is here.
      </FormAlert>
    );
  }
  return <WithWorkspace />;
}

function WithWorkspace() {
  const state = useWorkspaceState();
  if (state.status !== 'ready') {
    return (
      <p role="status" className="flex items-center gap-2 text-fg-muted">
        <Spinner size="small" />
        {state.status === 'loading'
          ? 'Opening your workspace...'
          : 'Your workspace is on its way to this device...'}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <ExportSection workspace={state.workspace} />
      <ClientImportSection workspace={state.workspace} />
    </div>
  );
}

type ExportState =
  | { status: 'idle' }
  | { status: 'running'; progress: ExportProgress | null }
  | { status: 'done'; result: WorkspaceExport }
  | { status: 'failed'; message: string };

function progressWords(progress: ExportProgress | null): { value: number; text: string } {
  if (!progress) return { value: 0, text: 'Starting...' };
  const share = progress.total === 0 ? 1 : progress.done / progress.total;
  // Reading is quick, files and packing take the time: the bar's thirds are weighted that way.
  switch (progress.phase) {
    case 'reading':
      return {
        value: share * 10,
        text: `Reading records: ${progress.done} of ${progress.total} kinds`,
      };
    case 'files':
      return {
        value: 10 + share * 50,
        text: `Gathering files: ${progress.done} of ${progress.total}`,
      };
    case 'packing':
      return { value: 60 + share * 40, text: `Packing the zip: ${Math.round(share * 100)}%` };
  }
}

function ExportSection({ workspace }: { workspace: LocalWorkspace }) {
  const { handle } = useSync();
  const runtime = useFilesRuntime();
  const online = useOnline(runtime);
  const [includeFiles, setIncludeFiles] = useState(false);
  const [state, setState] = useState<ExportState>({ status: 'idle' });
  const urlRef = useRef<string | null>(null);
  // The zip's object URL lives while the tab is open (Download again), not after.
  useEffect(
    () => () => {
      if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    },
    [],
  );

  const save = (result: WorkspaceExport) => {
    if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    urlRef.current = URL.createObjectURL(result.blob);
    saveFromUrl(urlRef.current, result.fileName);
  };

  const run = async () => {
    setState({ status: 'running', progress: null });
    const db = handle.db;
    const files: FileBytesSource | null = includeFiles
      ? {
          kept: async (fileId, version) => (await getCopy(db, fileId, version))?.blob,
          download: runtime.network.isOnline()
            ? async (fileId, version) => {
                const link = await runtime.getDownloadLink({ id: fileId, version });
                const response = await runtime.api.fetch(link.url);
                if (!response.ok) throw new Error(`The download failed (${response.status}).`);
                return response.blob();
              }
            : null,
        }
      : null;
    try {
      const result = await exportWorkspace({
        db,
        workspace,
        files,
        onProgress: (progress) => setState({ status: 'running', progress }),
      });
      setState({ status: 'done', result });
      save(result);
    } catch (error) {
      setState({
        status: 'failed',
        message: error instanceof Error ? error.message : 'Something went wrong.',
      });
    }
  };

  const running = state.status === 'running';
  return (
    <SettingsSection
      title="Export your data"
      description="One zip of everything in this workspace: every record as JSON, and a spreadsheet (CSV) for each kind of record. It is made on this device from what it holds, so it works offline too."
      icon={<Download aria-hidden="true" size={20} />}
    >
      <div className="flex flex-col gap-4">
        <Checkbox
          isSelected={includeFiles}
          onChange={setIncludeFiles}
          isDisabled={running}
          className="group flex min-h-11 cursor-pointer items-start gap-3 text-sm text-fg data-disabled:opacity-60 sm:min-h-10"
        >
          <span
            aria-hidden="true"
            className="mt-0.5 grid size-5 shrink-0 place-items-center rounded border border-border-strong bg-surface group-data-focus-visible:ring-2 group-data-focus-visible:ring-ring group-data-selected:border-brand group-data-selected:bg-brand"
          >
            <svg
              viewBox="0 0 16 16"
              className="hidden size-3.5 text-on-brand group-data-selected:block"
            >
              <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="2" />
            </svg>
          </span>
          <span className="flex flex-col gap-0.5">
            <span className="font-medium">Include files</span>
            <span className="text-fg-muted">
              {online
                ? 'Files kept on this device are added as they are; the others are downloaded now.'
                : 'You are offline: only files kept on this device can be added. The others are listed in the zip’s README.'}
            </span>
          </span>
        </Checkbox>
        <div>
          <Button onPress={() => void run()} isPending={running}>
            <Download aria-hidden="true" size={16} />
            {running ? 'Exporting...' : 'Export workspace'}
          </Button>
        </div>
        {state.status === 'running' ? (
          <ProgressBar label="Export progress" {...toBar(state.progress)} />
        ) : state.status === 'done' ? (
          <FormAlert
            tone="success"
            action={
              <Button variant="secondary" onPress={() => save(state.result)}>
                Download again
              </Button>
            }
          >
            <p>
              Exported {records(state.result.recordCount)}
              {files(state.result)} as <strong>{state.result.fileName}</strong> (
              {formatBytes(state.result.blob.size)}).
            </p>
            {state.result.missingFiles.length > 0 ? (
              <p className="mt-1">
                {state.result.missingFiles.length === 1
                  ? '1 file could not be added'
                  : `${state.result.missingFiles.length} files could not be added`}{' '}
                (
                {online
                  ? 'see README.txt in the zip for why'
                  : 'offline and not kept on this device; they are listed in README.txt'}
                ).
              </p>
            ) : null}
          </FormAlert>
        ) : state.status === 'failed' ? (
          <FormAlert>The export failed: {state.message} Try again.</FormAlert>
        ) : null}
      </div>
    </SettingsSection>
  );
}

function toBar(progress: ExportProgress | null) {
  const { value, text } = progressWords(progress);
  return { value: Math.round(value), valueText: text };
}

function files(result: WorkspaceExport): string {
  if (result.fileCount === 0) return '';
  return result.fileCount === 1 ? ' and 1 file' : ` and ${result.fileCount.toLocaleString()} files`;
}

function records(count: number): string {
  return count === 1 ? '1 record' : `${count.toLocaleString()} records`;
}
