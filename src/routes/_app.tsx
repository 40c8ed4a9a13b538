import { createFileRoute, Outlet, redirect, useNavigate } from '@tanstack/react-router';
import { signedInRedirect } from '../auth/auth-guards.ts';
import { useAuth, useSignOut } from '../auth/auth-provider.tsx';
import { EventReminderToasts } from '../features/calendar/event-reminder-toasts.tsx';
import { ResumeQueuedUploads } from '../features/files/resume-queued-uploads.tsx';
import { AppShell } from '../features/shell/app-shell.tsx';
import { useSignOutGuard } from '../features/sync-status/sign-out-guard.tsx';
import { SyncStatusButton } from '../features/sync-status/sync-status-button.tsx';
import { LoadingView } from '../ui/loading-view.tsx';

/** Signed-in pages: a signed-out visitor goes to /login?returnTo=<path and query>. */
export const Route = createFileRoute('/_app')({
  beforeLoad: ({ context, location }) => {
    const target = signedInRedirect(context.auth, location);
    if (target !== null) redirect({ ...target, replace: true, throw: true });
  },
  component: AppLayoutRoute,
});

function AppLayoutRoute() {
  const auth = useAuth();
  const signOut = useSignOut();
  const { requestSignOut, dialog } = useSignOutGuard(() => void signOut());
  const navigate = useNavigate();
  // Loading: the guard has let the visitor through and runs again once the state is known.
  // Unauthenticated: the redirect to /login is on its way; never render the shell without a user.
  if (auth.status !== 'authenticated') return <LoadingView />;
  return (
    <AppShell user={auth.user} onSignOut={requestSignOut} syncStatus={<SyncStatusButton />}>
      <Outlet />
      {dialog}
      <EventReminderToasts
        openDay={(day) => void navigate({ to: '/calendar', search: { date: day } })}
      />
      <ResumeQueuedUploads />
    </AppShell>
  );
}
