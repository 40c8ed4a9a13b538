/**
 * Invitations, for owners and admins (Settings > Members): make one by email (the server mails
 * it) or as a link to copy, with its role, expiry and uses; list them with their status; revoke.
 * Only a hash of an invitation's token is kept on the server, so a link can be copied only right
 * after it is made; the list shows what each invitation is, not its link.
 */
import { Copy, Link2, Mail, RotateCw, Send } from 'lucide-react';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import * as v from 'valibot';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import {
  createWorkspaceInvite,
  createWorkspaceInviteInputSchema,
  DEFAULT_INVITE_DAYS,
  getWorkspaceInvites,
  revokeWorkspaceInvite,
  type InviteStatus,
  type WorkspaceInvite,
} from '#contract/endpoints/workspace-invite.ts';
import type { Plan } from '#contract/entities/plan.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { focusWhenReady } from '../../ui/focus-when-ready.ts';
import { Spinner } from '../../ui/spinner.tsx';
import { FormAlert } from '../auth/form-alert.tsx';
import { membersText, UpgradePlanLink } from '../billing/upgrade-plan-link.tsx';
import { apiErrorMessage } from '../settings/api-error-message.ts';
import { SettingsSection } from '../settings/settings-section.tsx';

export interface InvitesPanelProps {
  workspaceId: string;
  callEndpoint: CallEndpoint | null;
  online: boolean;
  /** Puts text on the clipboard; the browser's by default. */
  copyText?: (text: string) => Promise<void>;
  /** The workspace's plan when its member limit is reached: an invitation waits for an upgrade. */
  planFull?: Plan | null;
}

type Kind = 'link' | 'email';
type Uses = 'single' | 'multi';

const statusLabels: Record<InviteStatus, string> = {
  active: 'Active',
  expired: 'Expired',
  revoked: 'Revoked',
  used_up: 'Used',
};

const expiryOptions = [
  { id: '1', label: '1 day' },
  { id: '7', label: '7 days' },
  { id: '14', label: '14 days' },
  { id: '30', label: '30 days' },
] as const;

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

const browserCopy = (text: string) => navigator.clipboard.writeText(text);

type Loaded =
  | { status: 'loading' }
  | { status: 'ready'; invites: WorkspaceInvite[] }
  | { status: 'error'; message: string };

export function InvitesPanel({
  workspaceId,
  callEndpoint,
  online,
  copyText = browserCopy,
  planFull = null,
}: InvitesPanelProps) {
  const [kind, setKind] = useState<Kind>('link');
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | undefined>();
  const [role, setRole] = useState<'member' | 'admin'>('member');
  const [days, setDays] = useState<string>(String(DEFAULT_INVITE_DAYS));
  const [uses, setUses] = useState<Uses>('single');
  const [creating, setCreating] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [made, setMade] = useState<{ url: string; email: string | null } | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [revoking, setRevoking] = useState<WorkspaceInvite | null>(null);
  const [revokeBusy, setRevokeBusy] = useState(false);

  const load = useCallback(async () => {
    if (!callEndpoint) return;
    try {
      const { invites } = await callEndpoint(getWorkspaceInvites, { query: { workspaceId } });
      setLoaded({ status: 'ready', invites });
    } catch (error) {
      setLoaded({ status: 'error', message: apiErrorMessage(error) });
    }
  }, [callEndpoint, workspaceId]);
  useEffect(() => {
    if (online) void load();
  }, [online, load]);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (!callEndpoint) return;
    const body = {
      email: kind === 'email' ? email : null,
      role,
      expiresInDays: Number(days),
      maxUses: kind === 'email' || uses === 'single' ? 1 : null,
    };
    const parsed = v.safeParse(createWorkspaceInviteInputSchema, body);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const onEmail = issue.path?.[0]?.key === 'email';
      setEmailError(onEmail ? issue.message : undefined);
      setFormError(onEmail ? null : issue.message);
      if (onEmail) focusWhenReady('input[name="invite-email"]');
      return;
    }
    setEmailError(undefined);
    setFormError(null);
    setCreating(true);
    setCopied(null);
    try {
      const result = await callEndpoint(createWorkspaceInvite, {
        query: { workspaceId },
        body,
      });
      setMade({ url: result.url, email: result.invite.email });
      setEmail('');
      // Onto the new link, selected for copying (the email field it came from is emptied).
      focusWhenReady('#invite-made-link');
      void load();
    } catch (error) {
      setFormError(apiErrorMessage(error));
      if (kind === 'email') focusWhenReady('input[name="invite-email"]');
    } finally {
      setCreating(false);
    }
  };

  const copy = async (url: string) => {
    try {
      await copyText(url);
      setCopied('Link copied. Send it to the person you are inviting.');
    } catch {
      setCopied('Could not copy: select the link and copy it yourself.');
    }
  };

  const revoke = async () => {
    if (!revoking || !callEndpoint) return;
    setRevokeBusy(true);
    try {
      await callEndpoint(revokeWorkspaceInvite, { query: { workspaceId, id: revoking.id } });
      // Its Revoke goes: onto the next open invitation's, else the one before's, else the list.
      const open =
        loaded.status === 'ready' ? loaded.invites.filter((i) => i.status === 'active') : [];
      const at = open.findIndex((invite) => invite.id === revoking.id);
      const next = open[at + 1] ?? open[at - 1];
      focusWhenReady(next ? `#${CSS.escape(revokeButtonId(next.id))}` : '#sent-invitations');
      await load();
    } catch (error) {
      setFormError(apiErrorMessage(error));
    } finally {
      setRevokeBusy(false);
      setRevoking(null);
    }
  };

  return (
    <SettingsSection
      title="Invitations"
      description="Invite someone by email, or make a link to send yourself. Links expire, and you can revoke one at any time."
      icon={<Send aria-hidden="true" size={20} />}
    >
      <div className="flex flex-col gap-6">
        <form
          aria-label="New invitation"
          onSubmit={(event) => void create(event)}
          className="flex flex-col gap-4"
          noValidate
        >
          {planFull ? (
            <FormAlert tone="info" action={<UpgradePlanLink />}>
              Your {planFull.name} plan allows {membersText(planFull.limits.members)}; upgrade to
              invite more. An invitation made now can be accepted once there is room.
            </FormAlert>
          ) : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              label="Invite by"
              options={[
                { id: 'link', label: 'Link to copy', icon: <Link2 aria-hidden="true" size={16} /> },
                { id: 'email', label: 'Email', icon: <Mail aria-hidden="true" size={16} /> },
              ]}
              value={kind}
              onChange={setKind}
            />
            <SelectField
              label="Role"
              options={[
                { id: 'member', label: 'Member' },
                { id: 'admin', label: 'Admin' },
              ]}
              value={role}
              onChange={setRole}
            />
            {kind === 'email' ? (
              <FormTextField
                label="Email address"
                type="email"
                autoComplete="off"
                name="invite-email"
                value={email}
                onChange={setEmail}
                error={emailError}
                className="sm:col-span-2"
              />
            ) : null}
            <SelectField
              label="Expires after"
              options={expiryOptions}
              value={days}
              onChange={setDays}
            />
            {kind === 'link' ? (
              <SelectField
                label="Uses"
                options={[
                  { id: 'single', label: 'One person' },
                  { id: 'multi', label: 'Anyone with the link' },
                ]}
                value={uses}
                onChange={setUses}
              />
            ) : null}
          </div>
          {!online ? (
            <FormAlert tone="info">Inviting needs the network. Connect and try again.</FormAlert>
          ) : null}
          {formError ? <FormAlert>{formError}</FormAlert> : null}
          <div>
            <Button type="submit" isPending={creating} isDisabled={!online || creating}>
              {kind === 'email' ? 'Send invitation' : 'Create link'}
            </Button>
          </div>
        </form>

        {made ? (
          <div className="flex flex-col gap-3 rounded-xl border border-border bg-surface-muted p-4">
            {made.email ? (
              <p role="status" className="text-sm text-fg">
                Invitation sent to <strong>{made.email}</strong>. You can also send them this link:
              </p>
            ) : (
              <p role="status" className="text-sm text-fg">
                Your invitation link is ready. It is shown only now: copy it.
              </p>
            )}
            <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
              <input
                id="invite-made-link"
                readOnly
                aria-label="Invitation link"
                value={made.url}
                onFocus={(event) => event.currentTarget.select()}
                className="min-h-11 w-full min-w-0 flex-1 rounded-lg border border-border-strong bg-surface px-3 font-mono text-sm text-fg sm:min-h-10"
              />
              <Button variant="secondary" onPress={() => void copy(made.url)}>
                <Copy aria-hidden="true" size={16} /> Copy link
              </Button>
            </div>
            {copied ? (
              <p role="status" className="text-sm text-fg-muted">
                {copied}
              </p>
            ) : null}
          </div>
        ) : null}

        <div className="flex flex-col gap-3">
          <h3 id="sent-invitations" tabIndex={-1} className="font-semibold text-fg outline-none">
            Sent invitations
          </h3>
          {loaded.status === 'loading' ? (
            <p role="status" className="flex items-center gap-2 text-fg-muted">
              <Spinner size="small" /> Loading invitations…
            </p>
          ) : loaded.status === 'error' ? (
            <FormAlert
              action={
                <Button variant="secondary" onPress={() => void load()} isDisabled={!online}>
                  <RotateCw aria-hidden="true" size={16} /> Try again
                </Button>
              }
            >
              {loaded.message}
            </FormAlert>
          ) : loaded.invites.length === 0 ? (
            <p className="text-sm text-fg-muted">No invitations yet.</p>
          ) : (
            <ul aria-label="Invitations" className="flex flex-col divide-y divide-border">
              {loaded.invites.map((invite) => (
                <InviteRow
                  key={invite.id}
                  invite={invite}
                  disabled={!online}
                  onRevoke={() => setRevoking(invite)}
                />
              ))}
            </ul>
          )}
        </div>
      </div>
      <ConfirmDialog
        isOpen={revoking !== null}
        title="Revoke this invitation?"
        confirmLabel="Revoke"
        isDestructive
        isPending={revokeBusy}
        onConfirm={() => void revoke()}
        onCancel={() => setRevoking(null)}
      >
        Its link stops working at once. People who already joined stay members.
      </ConfirmDialog>
    </SettingsSection>
  );
}

function InviteRow({
  invite,
  disabled,
  onRevoke,
}: {
  invite: WorkspaceInvite;
  disabled: boolean;
  onRevoke: () => void;
}) {
  const who = invite.email ?? 'Link';
  const uses =
    invite.maxUses === null
      ? `${invite.useCount} joined`
      : `${invite.useCount} of ${invite.maxUses} used`;
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="truncate font-medium text-fg">
          {who} · {invite.role === 'admin' ? 'Admin' : 'Member'}
        </p>
        <p className="text-sm text-fg-muted">
          <span
            className={
              invite.status === 'active' ? 'font-medium text-success' : 'font-medium text-fg'
            }
          >
            {statusLabels[invite.status]}
          </span>
          {' · '}
          {uses} · {invite.status === 'expired' ? 'expired' : 'expires'}{' '}
          {dateFormat.format(new Date(invite.expiresAt))}
          {invite.createdByName ? ` · by ${invite.createdByName}` : ''}
        </p>
      </div>
      {invite.status === 'active' ? (
        <Button
          id={revokeButtonId(invite.id)}
          variant="secondary"
          isDisabled={disabled}
          onPress={onRevoke}
          aria-label={`Revoke invitation: ${who}, ${invite.role}`}
        >
          Revoke
        </Button>
      ) : null}
    </li>
  );
}

const revokeButtonId = (id: string) => `invite-${id}-revoke`;
