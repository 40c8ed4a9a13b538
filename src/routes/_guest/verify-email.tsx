import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { VerifyEmailScreen } from '../../features/auth/verify-email-screen.tsx';
import { optionalSearchString } from '../-route-schemas.ts';

export const Route = createFileRoute('/_guest/verify-email')({
  /** `email`: the address the confirmation went to, shown and used for "resend". */
  validateSearch: v.object({ email: optionalSearchString }),
  component: VerifyEmailRoute,
});

function VerifyEmailRoute() {
  const { email, returnTo } = Route.useSearch();
  return <VerifyEmailScreen email={email} returnTo={returnTo} />;
}
