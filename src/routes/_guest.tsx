import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import * as v from 'valibot';
import { guestOnlyRedirect } from '../auth/auth-guards.ts';
import { useAuth } from '../auth/auth-provider.tsx';
import { AuthLayout } from '../features/shell/auth-layout.tsx';
import { LoadingView } from '../ui/loading-view.tsx';
import { optionalSearchString } from './-route-schemas.ts';

const guestSearchSchema = v.object({
  /** Where to go once signed in; only a same-origin path is honoured (see safe-return-to.ts). */
  returnTo: optionalSearchString,
});

/** Guest-only pages: /login, /signup, /forgot-password, /reset-password, /verify-email. */
export const Route = createFileRoute('/_guest')({
  validateSearch: guestSearchSchema,
  beforeLoad: ({ context, search, location }) => {
    // The path matters for one case: a user signed in by a password-reset link stays on
    // /reset-password (see guestOnlyRedirect).
    const target = guestOnlyRedirect(context.auth, search, location.pathname);
    if (target !== null) redirect({ href: target, replace: true, throw: true });
  },
  component: GuestLayoutRoute,
});

function GuestLayoutRoute() {
  const auth = useAuth();
  // Until the session is known the form is held back, so a signed-in user never sees it flash.
  if (auth.status === 'loading') return <LoadingView />;
  return (
    <AuthLayout>
      <Outlet />
    </AuthLayout>
  );
}
