/**
 * The client portal's own app: its pages (the password gate and a project's page) without the
 * members' app. A client opening a portal link on a phone loads React, these screens and little
 * else: no router, no route tree, no sign-in, no local database (src/main.tsx starts
 * src/app/mount-portal.tsx instead of src/app/mount-app.tsx on a portal page). The screens are
 * the app's own, as are the session rules: a project's page without a live session for it shows
 * its gate (portal-history.ts).
 *
 * The page's static copy (portal-copy.ts) stays on screen until the live page is rendered.
 */
import {
  StrictMode,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { ThemeController } from '../../ui/theme.ts';
import { ThemeProvider } from '../../ui/theme-provider.tsx';
import { ToastProvider } from '../../ui/toast-provider.tsx';
import type { Toaster } from '../../ui/toaster.ts';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { PortalLayout } from '../shell/portal-layout.tsx';
import { ClientAccessScreen } from './client-access-screen.tsx';
import { handOverCopy, takeCopy, type CopyState } from './portal-copy.ts';
import { accessPath } from './portal-location.ts';
import type { PortalHistory } from './portal-history.ts';
import type { ProjectCopyState } from './portal-project-copy.ts';
import { PortalProjectScreen } from './portal-project-screen.tsx';
import { readPortalSnapshot } from './portal-snapshot.ts';
import { useBrowserOnline } from './use-browser-online.ts';
import { usePortalManifest } from './use-portal-manifest.ts';

export interface PortalAppProps {
  history: PortalHistory;
  callEndpoint: CallEndpoint;
  themeController: ThemeController;
  toaster: Toaster;
  /** What the page's static copy shows of the project, when it painted one (mount-portal.tsx). */
  projectCopy?: ProjectCopyState | undefined;
}

export function PortalApp({
  history,
  callEndpoint,
  themeController,
  toaster,
  projectCopy,
}: PortalAppProps) {
  const href = useSyncExternalStore(history.subscribe, history.href);
  const page = history.page();
  // The static copy is the first page's: any page after it (the gate, this project again through
  // it) starts on its own.
  const firstHref = useRef(href);
  const [leftFirstPage, setLeftFirstPage] = useState(false);
  if (!leftFirstPage && href !== firstHref.current) setLeftFirstPage(true);
  const fromCopy = leftFirstPage ? undefined : projectCopy;
  const copyRef = useRef<CopyState | null>(null);

  // In the commit that first shows the live page, before it paints: the copy goes.
  useLayoutEffect(() => {
    copyRef.current = takeCopy(document);
  }, []);
  // After the screens' own effects (their focus on the heading): what the visitor did on it.
  useEffect(() => {
    const state = copyRef.current;
    copyRef.current = null;
    // The copy is gone: its fields by name are the live page's.
    if (state) handOverCopy(state, document);
  }, []);

  return (
    <StrictMode>
      <ThemeProvider controller={themeController}>
        <ToastProvider toaster={toaster}>
          <PortalLayout>
            {page === null ? (
              <InvalidPortalLink />
            ) : page.page === 'access' ? (
              <PortalAccessPage
                // The gate of another project is another page, as with the router.
                key={`${page.clientId ?? ''}/${page.projectId ?? ''}`}
                projectId={page.projectId}
                clientId={page.clientId}
                redirect={page.redirect}
                callEndpoint={callEndpoint}
                history={history}
              />
            ) : (
              <PortalProjectPage
                // A new project is a new page, as with the router.
                key={`${page.clientId}/${page.projectId}`}
                clientId={page.clientId}
                projectId={page.projectId}
                callEndpoint={callEndpoint}
                history={history}
                fromCopy={fromCopy}
              />
            )}
          </PortalLayout>
        </ToastProvider>
      </ThemeProvider>
    </StrictMode>
  );
}

/**
 * The gate. Offline, the password cannot be checked: a copy of the project kept on the device
 * (its session ended, 30 minutes idle say) is offered, read-only, instead of a dead end.
 */
function PortalAccessPage({
  projectId,
  clientId,
  redirect,
  callEndpoint,
  history,
}: {
  projectId: string | undefined;
  clientId: string | undefined;
  redirect: string | undefined;
  callEndpoint: CallEndpoint;
  history: PortalHistory;
}) {
  const online = useBrowserOnline();
  const [reading, setReading] = useState(false);
  const snapshot =
    !online && projectId && clientId
      ? readPortalSnapshot(globalThis.localStorage, projectId)
      : null;
  const saved = snapshot?.project.clientId === clientId ? snapshot : null;
  const toSignIn = useCallback(() => setReading(false), []);
  const readOnly = useMemo(() => ({ toSignIn }), [toSignIn]);
  if (reading && saved && projectId && clientId) {
    return (
      <PortalProjectScreen
        projectId={projectId}
        clientId={clientId}
        callEndpoint={callEndpoint}
        toGate={toSignIn}
        readOnly={readOnly}
      />
    );
  }
  return (
    <ClientAccessScreen
      projectId={projectId}
      clientId={clientId}
      redirect={redirect}
      callEndpoint={callEndpoint}
      navigate={history.replace}
      savedCopy={
        saved
          ? {
              projectName: saved.project.name,
              savedAt: saved.savedAt,
              open: () => setReading(true),
            }
          : null
      }
    />
  );
}

function PortalProjectPage({
  clientId,
  projectId,
  callEndpoint,
  history,
  fromCopy,
}: {
  clientId: string;
  projectId: string;
  callEndpoint: CallEndpoint;
  history: PortalHistory;
  fromCopy: ProjectCopyState | undefined;
}) {
  usePortalManifest(clientId, projectId);
  // Spec section 2: when the session ends, back to the access page for the same project and client.
  const toGate = useCallback(
    () => history.replace(accessPath(clientId, projectId)),
    [clientId, history, projectId],
  );
  return (
    <PortalProjectScreen
      projectId={projectId}
      clientId={clientId}
      callEndpoint={callEndpoint}
      toGate={toGate}
      fromCopy={fromCopy}
    />
  );
}

/** A portal-looking address the portal cannot read (an empty or overlong id). */
function InvalidPortalLink() {
  usePageTitle('Client portal');
  return (
    <div className="mx-auto flex max-w-md flex-col gap-3 text-center">
      <h1 className="text-2xl font-bold tracking-tight text-fg">This portal link is not valid</h1>
      <p className="text-fg-muted">Open the link you were sent again, or ask for a new one.</p>
    </div>
  );
}
