import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { SignupScreen } from '../../features/auth/signup-screen.tsx';

export const Route = createFileRoute('/_guest/signup')({
  component: SignupRoute,
});

function SignupRoute() {
  const { returnTo } = Route.useSearch();
  const navigate = useNavigate();
  return (
    <SignupScreen
      returnTo={returnTo}
      onSignedUp={(email) => void navigate({ to: '/verify-email', search: { email, returnTo } })}
    />
  );
}
