/**
 * Renders its children once the workspace is on this device, and provides it to them. Before that
 * (first sign-in on this device, the first pull still on its way) it says what is happening:
 * loading, syncing, or offline with nothing here yet.
 */
import { CloudOff } from 'lucide-react';
import { createContext, useContext, type ReactNode } from 'react';
import type { LocalWorkspace } from '../../db/app-database.ts';
import { Spinner } from '../../ui/spinner.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { useOptionalSync, useSyncStatus } from './sync-context.tsx';
import { useWorkspaceState } from './use-workspace.ts';

const WorkspaceContext = createContext<LocalWorkspace | null>(null);

export function useWorkspace(): LocalWorkspace {
  const workspace = useContext(WorkspaceContext);
  if (!workspace) throw new Error('useWorkspace needs a WorkspaceGate.');
  return workspace;
}

export interface WorkspaceGateProps {
  /** The page's heading while its data is not here yet (screens whose h1 is their data's name). */
  title?: string | undefined;
  children: ReactNode;
}

export function WorkspaceGate({ title, children }: WorkspaceGateProps) {
  // Sync starts a moment after sign-in (its code loads on demand).
  if (!useOptionalSync()) return <Opening title={title} text="Opening your workspace…" />;
  return <OpenWorkspace title={title}>{children}</OpenWorkspace>;
}

function Opening({ title, text }: { title: string | undefined; text: string }) {
  return (
    <>
      {title ? <PageTitle title={title} /> : null}
      <OpeningStatus title={title} text={text} />
    </>
  );
}

/** Only rendered with a title, so screens that set their own title keep it. */
function PageTitle({ title }: { title: string }) {
  usePageTitle(title);
  return null;
}

function OpeningStatus({ title, text }: { title: string | undefined; text: string }) {
  return (
    <div role="status" className="mx-auto mt-16 flex max-w-md flex-col items-center text-center">
      {title ? <h1 className="sr-only">{title}</h1> : null}
      <Spinner />
      <p className="mt-4 text-fg-muted">{text}</p>
    </div>
  );
}

function OpenWorkspace({ title, children }: WorkspaceGateProps) {
  const state = useWorkspaceState();
  const sync = useSyncStatus();
  if (state.status === 'ready') {
    return (
      <WorkspaceContext.Provider value={state.workspace}>{children}</WorkspaceContext.Provider>
    );
  }
  if (state.status === 'missing' && sync.state === 'offline') {
    return (
      <div role="status" className="mx-auto mt-16 max-w-md text-center">
        {title ? <h1 className="sr-only">{title}</h1> : null}
        <CloudOff aria-hidden="true" className="mx-auto text-fg-muted" size={32} />
        <h2 className="mt-4 text-xl font-semibold text-fg">You're offline</h2>
        <p className="mt-2 text-fg-muted">
          Your workspace hasn't been downloaded to this device yet. Connect once and it will be
          here, online or not.
        </p>
      </div>
    );
  }
  return (
    <Opening
      title={title}
      text={state.status === 'loading' ? 'Opening your workspace…' : 'Setting up your workspace…'}
    />
  );
}
