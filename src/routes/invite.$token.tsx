import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useAuth } from '../auth/auth-provider.tsx';
import { InviteScreen } from '../features/members/invite-screen.tsx';
import { choosePreferredWorkspace } from '../features/members/preferred-workspace.ts';
import { AuthLayout } from '../features/shell/auth-layout.tsx';
import { useOptionalSync } from '../features/workspace/sync-context.tsx';

/**
 * An invitation into a workspace, signed in or not: neither a guest page (a signed-in user must
 * see it to accept) nor an app page (a visitor without an account must see what it is first).
 */
export const Route = createFileRoute('/invite/$token')({
  component: InviteRoute,
});

function InviteRoute() {
  const { api } = Route.useRouteContext();
  const { token } = Route.useParams();
  const auth = useAuth();
  const sync = useOptionalSync();
  const navigate = useNavigate();
  const viewer =
    auth.status === 'loading'
      ? ({ status: 'loading' } as const)
      : auth.status === 'authenticated'
        ? ({ status: 'signed-in', email: auth.user.email } as const)
        : ({ status: 'signed-out' } as const);
  return (
    <AuthLayout>
      <InviteScreen
        token={token}
        callEndpoint={api.callEndpoint}
        viewer={viewer}
        onJoined={({ workspaceId }) => {
          if (auth.status === 'authenticated') choosePreferredWorkspace(auth.user.id, workspaceId);
          // A pull of the new workspace now, so the dashboard fills as soon as it opens.
          sync?.handle.invalidate({ workspaceId, seq: Number.MAX_SAFE_INTEGER });
          void navigate({ to: '/dashboard' });
        }}
      />
    </AuthLayout>
  );
}
