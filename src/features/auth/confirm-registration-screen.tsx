import { CircleCheck } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { useAuthServices } from '../../auth/auth-services.tsx';
import { useSignOut } from '../../auth/auth-provider.tsx';
import { safeReturnTo } from '../../auth/safe-return-to.ts';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { authUnavailableMessage } from './auth-unavailable.ts';
import { FormAlert } from './form-alert.tsx';

export interface ConfirmRegistrationScreenProps {
  /** Where to go afterwards; only a same-origin path is honoured, else /dashboard. */
  returnTo?: string | undefined;
  /** Registration is done: leave for `to`. */
  onDone: (to: string) => void;
}

type Status = { status: 'working' } | { status: 'failed'; message: string };

function failureMessage(error: unknown): string {
  const status = (error as { status?: unknown }).status;
  if (status === 0) return "Can't reach the server. Check your connection and try again.";
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && message ? message : 'Something went wrong.';
}

/**
 * /auth/confirm-registration: where the email confirmation link and Google sign-in land, signed
 * in. It calls register-user (names from sign-up, or for Google the first word of the full name
 * and the rest, spec 4), then goes to `returnTo` or /dashboard. A failure is shown with a retry;
 * the user stays on the page.
 */
export function ConfirmRegistrationScreen({ returnTo, onDone }: ConfirmRegistrationScreenProps) {
  usePageTitle('Confirm your registration');
  const services = useAuthServices();
  const signOut = useSignOut();
  const [state, setState] = useState<Status>({ status: 'working' });
  const [attempt, setAttempt] = useState(0);

  const retry = useCallback(() => {
    setState({ status: 'working' });
    setAttempt((n) => n + 1);
  }, []);

  useEffect(() => {
    if (!services) {
      setState({ status: 'failed', message: authUnavailableMessage });
      return;
    }
    let isCurrent = true;
    services.ensureRegistered().then(
      () => {
        if (isCurrent) onDone(safeReturnTo(returnTo));
      },
      (error: unknown) => {
        if (isCurrent) setState({ status: 'failed', message: failureMessage(error) });
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [services, returnTo, onDone, attempt]);

  return (
    <div className="mx-auto flex max-w-lg flex-col items-center py-10 text-center sm:py-16">
      <span className="grid size-14 place-items-center rounded-2xl bg-brand-soft text-brand">
        <CircleCheck aria-hidden="true" size={28} />
      </span>
      <h1 className="mt-6 text-3xl font-bold tracking-tight text-balance text-fg">
        Confirm your registration
      </h1>
      {state.status === 'working' ? (
        <p role="status" className="mt-4 flex items-center gap-2 text-fg-muted">
          <Spinner size="small" />
          Setting up your profile and workspace...
        </p>
      ) : (
        <div className="mt-6 w-full text-left">
          <FormAlert
            action={
              <div className="flex flex-wrap gap-3">
                <Button onPress={retry}>Try again</Button>
                <Button variant="ghost" onPress={() => void signOut()}>
                  Sign out
                </Button>
              </div>
            }
          >
            We could not finish setting up your account. {state.message}
          </FormAlert>
        </div>
      )}
    </div>
  );
}
