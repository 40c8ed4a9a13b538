/**
 * Settings > Storage, the files part: the workspace's file storage on the server (get-file-storage:
 * bytes used against the plan's allowance, the largest single upload, how many files), read when
 * online; and the files kept on this device to open offline, by project, with "Free space" for
 * one project or all of them.
 */
import { getFileStorage, type FileStorage } from '#contract/endpoints/file.ts';
import { getPlan } from '#contract/entities/plan.ts';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { Files, HardDriveDownload, RotateCw } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { Label, Meter } from 'react-aria-components';
import { useLiveQuery } from '../../db/live-query.ts';
import {
  freeAllCopies,
  freeProject,
  listCopies,
  totalBytes,
  type CopySummary,
} from '../../files/file-copies.ts';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { useToast } from '../../ui/use-toast.ts';
import { useCallEndpoint } from '../activity/activity-timeline.tsx';
import { FormAlert } from '../auth/form-alert.tsx';
import { SettingsSection } from '../settings/settings-section.tsx';
import { useOptionalSync, useSync } from '../workspace/sync-context.tsx';
import { useWorkspaceState } from '../workspace/use-workspace.ts';
import { formatBytes } from './file-format.ts';
import { useFilesRuntime, useOnline } from './use-files-runtime.tsx';

export interface FileStorageSettingsProps {
  /** The API client; the app's from the router context by default. */
  callEndpoint?: CallEndpoint;
}

/** Nothing without a signed-in user's data (the section needs their workspace). */
export function FileStorageSettings(props: FileStorageSettingsProps) {
  if (!useOptionalSync()) return null;
  return <WithWorkspace {...props} />;
}

function WithWorkspace(props: FileStorageSettingsProps) {
  const state = useWorkspaceState();
  if (state.status !== 'ready') return null;
  return <Sections workspaceId={state.workspace.id} {...props} />;
}

type Loaded =
  | { status: 'loading' }
  | { status: 'ready'; storage: FileStorage }
  | { status: 'error'; message: string };

function Sections({
  workspaceId,
  callEndpoint: override,
}: FileStorageSettingsProps & { workspaceId: string }) {
  const callEndpoint = useCallEndpoint(override);
  const runtime = useFilesRuntime();
  const online = useOnline(runtime);
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });

  const load = useCallback(async () => {
    if (!callEndpoint) return;
    setLoaded({ status: 'loading' });
    try {
      const storage = await callEndpoint(getFileStorage, { query: { workspaceId } });
      setLoaded({ status: 'ready', storage });
    } catch (error) {
      const { status, message } = error as { status?: number; message?: string };
      setLoaded({
        status: 'error',
        message:
          status === 0
            ? "Can't reach the server. Check your connection and try again."
            : (message ?? 'The storage figures could not be read.'),
      });
    }
  }, [callEndpoint, workspaceId]);

  useEffect(() => {
    if (online) void load();
  }, [online, load]);

  return (
    <>
      <SettingsSection
        title="Files in your workspace"
        description="What your workspace's files take on the server, every version included, against your plan's allowance."
        icon={<Files aria-hidden="true" size={20} />}
      >
        {!callEndpoint ? (
          <p className="text-sm text-fg-muted">The server's figures are not available here.</p>
        ) : !online && loaded.status !== 'ready' ? (
          <p className="text-sm text-fg-muted">
            You're offline. Connect to see how much of your plan's storage your files use.
          </p>
        ) : loaded.status === 'loading' ? (
          <p role="status" className="flex items-center gap-2 text-fg-muted">
            <Spinner size="small" /> Reading file storage...
          </p>
        ) : loaded.status === 'error' ? (
          <FormAlert
            action={
              <Button variant="secondary" onPress={() => void load()}>
                <RotateCw aria-hidden="true" size={16} /> Try again
              </Button>
            }
          >
            {loaded.message}
          </FormAlert>
        ) : (
          <WorkspaceUsage storage={loaded.storage} />
        )}
      </SettingsSection>
      <KeptCopies workspaceId={workspaceId} />
    </>
  );
}

function WorkspaceUsage({ storage }: { storage: FileStorage }) {
  const { usedBytes, limitBytes } = storage;
  const valueText = `${formatBytes(usedBytes)} of ${formatBytes(limitBytes)}`;
  const share = limitBytes > 0 ? usedBytes / limitBytes : 0;
  return (
    <div className="flex flex-col gap-4">
      <Meter
        value={usedBytes}
        minValue={0}
        maxValue={Math.max(limitBytes, 1)}
        valueLabel={valueText}
        className="flex flex-col gap-2"
      >
        {({ percentage }) => (
          <>
            <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
              <Label className="text-sm font-medium text-fg">File storage used</Label>
              <span className="text-sm text-fg tabular-nums">{valueText}</span>
            </div>
            <div className="h-2 overflow-hidden rounded-full bg-border">
              <div
                className={`h-full rounded-full ${share >= 0.9 ? 'bg-danger' : 'bg-brand'}`}
                style={{ width: `${usedBytes > 0 ? Math.max(percentage, 1) : 0}%` }}
              />
            </div>
          </>
        )}
      </Meter>
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-fg-muted">Plan</dt>
          <dd className="font-medium text-fg">{getPlan(storage.plan).name}</dd>
        </div>
        <div>
          <dt className="text-fg-muted">Files</dt>
          <dd className="font-medium text-fg tabular-nums">{storage.fileCount}</dd>
        </div>
        <div>
          <dt className="text-fg-muted">Largest single upload</dt>
          <dd className="font-medium text-fg">{formatBytes(storage.maxFileBytes)}</dd>
        </div>
      </dl>
      {share >= 0.9 ? (
        <FormAlert tone="info">
          {share >= 1
            ? 'Your plan’s storage is full: new uploads are refused until you delete files or change plans.'
            : 'Your plan’s storage is nearly full. Delete files you no longer need, or change plans in Billing.'}
        </FormAlert>
      ) : null}
    </div>
  );
}

function KeptCopies({ workspaceId }: { workspaceId: string }) {
  const { handle } = useSync();
  const db = handle.db;
  const toaster = useToast();
  // Copies and their projects' names in one read, so a name never lags behind its copies.
  const read = useLiveQuery(async () => {
    const copies = await listCopies(db, workspaceId);
    const ids = [...new Set(copies.map((copy) => copy.projectId))];
    const projects = await db.projects.bulkGet(ids);
    return { copies, names: new Map(ids.map((id, index) => [id, projects[index]?.name])) };
  }, [db, workspaceId]);
  const copies = read?.copies;
  const byProject = new Map<string, CopySummary[]>();
  for (const copy of copies ?? []) {
    byProject.set(copy.projectId, [...(byProject.get(copy.projectId) ?? []), copy]);
  }
  const total = totalBytes(copies ?? []);

  return (
    <SettingsSection
      title="Files kept offline"
      description="Files you chose to keep on this device open without a network. Freeing them gives the space back; they stay on the server."
      icon={<HardDriveDownload aria-hidden="true" size={20} />}
    >
      {read === undefined || copies === undefined ? null : copies.length === 0 ? (
        <p className="text-sm text-fg-muted">
          No file is kept on this device. Use “Keep offline” on a file, or “Keep all files offline”
          in a project’s Files tab.
        </p>
      ) : (
        <div className="flex flex-col gap-4">
          <p className="text-sm text-fg">
            {copies.length === 1 ? '1 file' : `${copies.length} files`} kept,{' '}
            <span className="font-semibold">{formatBytes(total)}</span> on this device.
          </p>
          <ul aria-label="Kept files by project" className="divide-y divide-border">
            {[...byProject].map(([projectId, kept]) => {
              const name = read.names.get(projectId) ?? 'A project';
              return (
                <li
                  key={projectId}
                  className="flex flex-wrap items-center justify-between gap-3 py-2"
                >
                  <div className="min-w-0">
                    <p className="text-sm font-medium break-words text-fg">{name}</p>
                    <p className="text-xs text-fg-muted">
                      {kept.length === 1 ? '1 file' : `${kept.length} files`},{' '}
                      {formatBytes(totalBytes(kept))}
                    </p>
                  </div>
                  <Button
                    variant="secondary"
                    aria-label={`Free space of ${name}`}
                    onPress={() =>
                      void freeProject(db, { id: projectId, workspaceId }).then(() =>
                        toaster.show({
                          tone: 'success',
                          message: `Offline copies of ${name} freed.`,
                        }),
                      )
                    }
                  >
                    Free space
                  </Button>
                </li>
              );
            })}
          </ul>
          <div>
            <Button
              variant="secondary"
              onPress={() =>
                void freeAllCopies(db, workspaceId).then(() =>
                  toaster.show({
                    tone: 'success',
                    message: `${formatBytes(total)} freed: no file is kept on this device now.`,
                  }),
                )
              }
            >
              Free all ({formatBytes(total)})
            </Button>
          </div>
        </div>
      )}
    </SettingsSection>
  );
}
