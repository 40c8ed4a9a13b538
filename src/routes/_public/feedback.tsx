import { createFileRoute } from '@tanstack/react-router';
import { useAuth } from '../../auth/auth-provider.tsx';
import { FeedbackScreen } from '../../features/marketing/feedback-screen.tsx';

export const Route = createFileRoute('/_public/feedback')({
  component: FeedbackRoute,
});

function FeedbackRoute() {
  const { api } = Route.useRouteContext();
  const auth = useAuth();
  return (
    <FeedbackScreen
      callEndpoint={api.callEndpoint}
      signedInEmail={auth.status === 'authenticated' ? auth.user.email : null}
    />
  );
}
