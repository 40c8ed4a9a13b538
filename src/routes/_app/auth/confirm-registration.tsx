import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import * as v from 'valibot';
import { ConfirmRegistrationScreen } from '../../../features/auth/confirm-registration-screen.tsx';
import { optionalSearchString } from '../../-route-schemas.ts';

export const Route = createFileRoute('/_app/auth/confirm-registration')({
  /** `returnTo`: where to go once registered (checked by safeReturnTo), else /dashboard. */
  validateSearch: v.object({ returnTo: optionalSearchString }),
  component: ConfirmRegistrationRoute,
});

function ConfirmRegistrationRoute() {
  const { returnTo } = Route.useSearch();
  const navigate = useNavigate();
  const onDone = useCallback(
    (to: string) => void navigate({ href: to, replace: true }),
    [navigate],
  );
  return <ConfirmRegistrationScreen returnTo={returnTo} onDone={onDone} />;
}
