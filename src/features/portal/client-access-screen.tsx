/**
 * The portal's password gate (/client-access?projectId&clientId&redirect). A correct password
 * opens a server session (an httpOnly cookie) and the page's own `client_access_session`, then
 * goes back to the portal page it came from. The words of spec sections 5 and 8: a 401 is
 * "Invalid password", anything else "Authentication failed" (with why, when we know).
 */
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import {
  authenticatePortal,
  PORTAL_AUTH_FAILED,
  PORTAL_INVALID_PASSWORD,
  portalPath,
} from '#contract/endpoints/client-portal.ts';
import { idSchema } from '#contract/entities/ids.ts';
import { BookOpen, CloudOff, LockKeyhole } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import * as v from 'valibot';
import { Button } from '../../ui/button.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { focusFirstInvalid } from '../auth/field-errors.ts';
import { PasswordField } from '../auth/password-field.tsx';
import { formatFileDateTime } from '../files/file-format.ts';
import { readSubmitFailure } from '../marketing/form-errors.ts';
import { writePortalSession } from './portal-session.ts';

export interface ClientAccessScreenProps {
  projectId: string | undefined;
  clientId: string | undefined;
  /** Portal path to return to after a correct password. */
  redirect: string | undefined;
  callEndpoint: CallEndpoint;
  /** Goes to the portal page (a path of this app). */
  navigate: (path: string) => void;
  now?: () => number;
  storage?: Pick<Storage, 'setItem'> | undefined;
  /**
   * The project's copy kept on this device, offered when the device is offline (the password
   * cannot be checked then): read-only, as of when it was saved.
   */
  savedCopy?: { projectName: string; savedAt: number; open: () => void } | null;
}

export function ClientAccessScreen({
  projectId,
  clientId,
  redirect,
  callEndpoint,
  navigate,
  now = Date.now,
  storage = globalThis.localStorage,
  savedCopy = null,
}: ClientAccessScreenProps) {
  usePageTitle('Client access');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [failure, setFailure] = useState<{ title: string; detail: string | null } | null>(null);
  const [pending, setPending] = useState(false);
  const complete = projectId !== undefined && clientId !== undefined;
  const valid = complete && v.is(idSchema, projectId) && v.is(idSchema, clientId);

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    if (password === '') {
      setPasswordError('Enter the password you were given');
      focusFirstInvalid(formRef.current);
      return;
    }
    setPending(true);
    setFailure(null);
    setPasswordError(undefined);
    try {
      await callEndpoint(authenticatePortal, { query: {}, body: { projectId, password } });
      writePortalSession(storage, { projectId, clientId, lastActivity: now() });
      const home = portalPath(clientId, projectId);
      // Only ever back to this project's own portal page: the redirect comes from the address bar.
      navigate(redirect === home ? redirect : home);
    } catch (error) {
      const status = (error as { status?: unknown }).status;
      if (status === 401) {
        setPasswordError(PORTAL_INVALID_PASSWORD);
        focusFirstInvalid(formRef.current);
      } else {
        const read = readSubmitFailure(error);
        setFailure({
          title: PORTAL_AUTH_FAILED,
          detail:
            status === 0
              ? 'You seem to be offline. Connect to the internet and try again.'
              : read.isRateLimited
                ? read.message
                : status === 400
                  ? read.message
                  : 'Please try again in a moment.',
        });
      }
      setPending(false);
    }
  };

  return (
    <div className="mx-auto flex max-w-md flex-col gap-6">
      <div className="flex flex-col items-center gap-3 text-center">
        <span className="grid size-14 place-items-center rounded-2xl bg-brand/10 text-brand">
          <LockKeyhole aria-hidden="true" size={28} />
        </span>
        <h1
          ref={headingRef}
          tabIndex={-1}
          className="text-2xl font-bold tracking-tight text-fg outline-none"
        >
          Client access
        </h1>
        <p className="text-fg-muted">
          {valid
            ? 'Enter the password you were given to see your project’s progress, milestones and files.'
            : 'This portal link is incomplete. Open the link you were sent again, or ask for a new one.'}
        </p>
      </div>
      {valid && savedCopy ? (
        <section
          aria-labelledby="saved-copy-heading"
          className="flex flex-col items-start gap-3 rounded-2xl border border-border bg-surface p-5"
        >
          <h2
            id="saved-copy-heading"
            className="flex items-center gap-2 text-base font-semibold text-fg"
          >
            <CloudOff aria-hidden="true" size={18} className="shrink-0 text-fg-muted" />
            You’re offline
          </h2>
          <p className="text-fg-muted">
            Your password can be checked once you’re back online. Meanwhile, the copy of{' '}
            <span className="font-semibold text-fg">{savedCopy.projectName}</span> saved on this
            device can be read, as of{' '}
            {formatFileDateTime(new Date(savedCopy.savedAt).toISOString())}.
          </p>
          <Button variant="secondary" onPress={savedCopy.open}>
            <BookOpen aria-hidden="true" size={16} /> Read the saved copy
          </Button>
        </section>
      ) : null}
      {valid ? (
        <form
          ref={formRef}
          onSubmit={(event) => void submit(event)}
          noValidate
          className="flex flex-col gap-4 rounded-2xl border border-border bg-surface p-5"
        >
          <PasswordField
            label="Password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(value) => {
              setPassword(value);
              setPasswordError(undefined);
            }}
            error={passwordError}
          />
          {failure ? (
            <div role="alert" className="rounded-lg bg-danger/10 p-3 text-sm text-danger">
              <p className="font-semibold">{failure.title}</p>
              {failure.detail ? <p>{failure.detail}</p> : null}
            </div>
          ) : null}
          <Button type="submit" size="large" isPending={pending}>
            Open my project
          </Button>
          <p className="text-sm text-fg-muted">
            For your privacy you are signed out after 30 minutes without activity.
          </p>
        </form>
      ) : null}
    </div>
  );
}
