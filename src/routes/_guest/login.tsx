import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { LoginScreen } from '../../features/auth/login-screen.tsx';

export const Route = createFileRoute('/_guest/login')({
  component: LoginRoute,
});

function LoginRoute() {
  const { returnTo } = Route.useSearch();
  const navigate = useNavigate();
  return (
    <LoginScreen
      returnTo={returnTo}
      onConfirmationResent={(email) =>
        void navigate({ to: '/verify-email', search: { email, returnTo } })
      }
    />
  );
}
