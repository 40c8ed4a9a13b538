import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { ForgotPasswordScreen } from '../../features/auth/forgot-password-screen.tsx';
import { optionalSearchString } from '../-route-schemas.ts';

export const Route = createFileRoute('/_guest/forgot-password')({
  /** `email`: prefilled from what was typed on /login. */
  validateSearch: v.object({ email: optionalSearchString }),
  component: ForgotPasswordRoute,
});

function ForgotPasswordRoute() {
  const { email } = Route.useSearch();
  return <ForgotPasswordScreen initialEmail={email} />;
}
