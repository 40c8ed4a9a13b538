/**
 * /invite/<token>: what an invitation is (workspace, role, who sent it, until when) and, for a
 * signed-in user, Accept. A signed-out visitor signs up or signs in first; the way back here is
 * the auth pages' `returnTo`, which carries the token through sign-up's confirmation mail too.
 * An invitation that can no longer be used says why in the server's words; a workspace at its
 * plan's member limit says so, and that its owner can make room.
 */
import { MailCheck, TriangleAlert, UserPlus } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import {
  acceptWorkspaceInvite,
  previewWorkspaceInvite,
  type InvitePreview,
} from '#contract/endpoints/workspace-invite.ts';
import { getPlan, planLimitRefusalOf } from '#contract/entities/plan.ts';
import { Button } from '../../ui/button.tsx';
import { LinkButton } from '../../ui/link-button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { FormAlert } from '../auth/form-alert.tsx';
import { apiErrorMessage } from '../settings/api-error-message.ts';

export interface InviteScreenProps {
  token: string;
  callEndpoint: CallEndpoint;
  /** null: not signed in; loading: the session is not known yet. */
  viewer: { status: 'loading' } | { status: 'signed-out' } | { status: 'signed-in'; email: string };
  /** After joining (or finding the caller already in): open the workspace. */
  onJoined: (workspace: { workspaceId: string; workspaceName: string }) => void;
}

type Load =
  | { state: 'loading' }
  | { state: 'ready'; invite: InvitePreview }
  | { state: 'failed'; message: string; offline: boolean };

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeStyle: 'short' });

/**
 * A refusal for the inviting workspace's member limit, in words for the invitee: only the
 * workspace's owner or an admin can upgrade it. Null for any other failure.
 */
function memberLimitText(error: unknown, workspaceName: string | null): string | null {
  const { body } = (error ?? {}) as { body?: { error?: { details?: unknown } } | null };
  const refusal = planLimitRefusalOf(body?.error?.details);
  if (refusal?.limit !== 'members') return null;
  const allowance = `${refusal.max} ${refusal.max === 1 ? 'member' : 'members'}`;
  return `${workspaceName ?? 'This workspace'} is full: its ${getPlan(refusal.plan).name} plan allows ${allowance}. Ask the workspace owner to upgrade the plan, then accept again.`;
}

export function InviteScreen({ token, callEndpoint, viewer, onJoined }: InviteScreenProps) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [accepting, setAccepting] = useState(false);
  const [acceptError, setAcceptError] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const title = load.state === 'ready' ? `Join ${load.invite.workspaceName}` : 'Invitation';
  usePageTitle(title);

  const fetchInvite = async () => {
    setLoad({ state: 'loading' });
    try {
      const { invite } = await callEndpoint(previewWorkspaceInvite, { query: { token } });
      setLoad({ state: 'ready', invite });
    } catch (error) {
      const offline = (error as { status?: unknown }).status === 0;
      setLoad({ state: 'failed', message: apiErrorMessage(error), offline });
    }
  };

  useEffect(() => {
    void fetchInvite();
    // The token is the page's identity; a new token is a new page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  // The heading changes with what the page learns: keep the reader on it.
  useEffect(() => {
    if (load.state !== 'loading') headingRef.current?.focus();
  }, [load.state]);

  const accept = async () => {
    setAccepting(true);
    setAcceptError(null);
    try {
      const joined = await callEndpoint(acceptWorkspaceInvite, { query: {}, body: { token } });
      onJoined({ workspaceId: joined.workspaceId, workspaceName: joined.workspaceName });
    } catch (error) {
      setAcceptError(
        (error as { status?: unknown }).status === 0
          ? 'Accepting needs the network. Connect and try again.'
          : (memberLimitText(error, load.state === 'ready' ? load.invite.workspaceName : null) ??
              apiErrorMessage(error)),
      );
      setAccepting(false);
    }
  };

  const here = `/invite/${token}`;
  const withReturn = (path: string) => `${path}?returnTo=${encodeURIComponent(here)}`;

  if (load.state === 'loading') {
    return (
      <div role="status" className="flex flex-col items-center gap-4 py-12 text-fg-muted">
        <h1 className="sr-only">Invitation</h1>
        <Spinner />
        <p>Opening the invitation…</p>
      </div>
    );
  }

  if (load.state === 'failed') {
    return (
      <div className="flex flex-col gap-4">
        <h1 ref={headingRef} tabIndex={-1} className="text-2xl font-bold text-fg outline-none">
          This invitation can’t be opened
        </h1>
        <FormAlert
          action={
            load.offline ? (
              <Button variant="secondary" onPress={() => void fetchInvite()}>
                Try again
              </Button>
            ) : undefined
          }
        >
          {load.offline
            ? 'Opening an invitation needs the network. Connect and try again.'
            : load.message}
        </FormAlert>
      </div>
    );
  }

  const { invite } = load;
  const role = invite.role === 'admin' ? 'an admin' : 'a member';
  const usable = invite.status === 'active';

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <span className="grid size-12 place-items-center rounded-2xl bg-brand-soft text-brand">
          <UserPlus aria-hidden="true" size={24} />
        </span>
        <h1
          ref={headingRef}
          tabIndex={-1}
          className="text-2xl font-bold tracking-tight break-words text-fg outline-none sm:text-3xl"
        >
          Join {invite.workspaceName}
        </h1>
        <p className="text-fg-muted">
          {invite.inviterName || 'Someone'} invited you to work in{' '}
          <strong className="text-fg">{invite.workspaceName}</strong> on Satchel as {role}.
        </p>
        {invite.email ? (
          <p className="flex items-center gap-2 text-sm text-fg-muted">
            <MailCheck aria-hidden="true" size={16} /> For {invite.email}
          </p>
        ) : null}
        {usable ? (
          <p className="text-sm text-fg-muted">
            Valid until {dateFormat.format(new Date(invite.expiresAt))}.
          </p>
        ) : null}
      </div>

      {!usable ? (
        <FormAlert>
          <span className="inline-flex items-start gap-2">
            <TriangleAlert aria-hidden="true" size={16} className="mt-0.5 shrink-0" />
            {invite.reason}
          </span>
        </FormAlert>
      ) : viewer.status === 'loading' ? (
        <p role="status" className="flex items-center gap-2 text-fg-muted">
          <Spinner size="small" /> Checking your session…
        </p>
      ) : viewer.status === 'signed-out' ? (
        <div className="flex flex-col gap-3">
          <p className="text-fg">
            Create a free account to join, or sign in if you already have one. You come back here
            afterwards to accept.
          </p>
          <div className="flex flex-col gap-3 sm:flex-row">
            <LinkButton href={withReturn('/signup')}>Create an account</LinkButton>
            <LinkButton href={withReturn('/login')} variant="secondary">
              Sign in
            </LinkButton>
          </div>
        </div>
      ) : (
        <div className="flex flex-col gap-3">
          <p className="text-sm text-fg-muted">
            Signed in as <strong className="text-fg">{viewer.email}</strong>.
          </p>
          {acceptError ? <FormAlert>{acceptError}</FormAlert> : null}
          <div>
            <Button onPress={() => void accept()} isPending={accepting}>
              Accept and open {invite.workspaceName}
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
