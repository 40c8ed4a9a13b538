/**
 * Settings > Members: the workspace's people and their roles, and the invitations that bring new
 * ones in (src/features/members/invites-panel.tsx). What each role may do is the server's
 * (ARCHITECTURE.md, "Roles"); this screen only offers what the caller's role allows, and shows
 * the server's words when it refuses anyway. Membership is server state: everything here needs
 * the network, and offline the tab says so instead of offering what cannot work. The seats used
 * are shown against the plan's member limit; at the limit, inviting warns and links to upgrading
 * (the server refuses the acceptance, server/endpoints/plan-limits.ts).
 */
import { Crown, LogOut, RotateCw, UserMinus, Users } from 'lucide-react';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import {
  changeMemberRole,
  leaveWorkspace,
  removeMember,
  transferOwnership,
} from '#contract/endpoints/workspace-invite.ts';
import { getWorkspaceMembers } from '#contract/endpoints/workspace.ts';
import { getPlan, type Plan } from '#contract/entities/plan.ts';
import type { WorkspaceMember, WorkspaceRole } from '#contract/entities/workspace.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { useCallEndpoint } from '../activity/activity-timeline.tsx';
import { FormAlert } from '../auth/form-alert.tsx';
import { checkPlanLimit, onSubscriptionSaved } from '../billing/workspace-plan.ts';
import { InvitesPanel } from '../members/invites-panel.tsx';
import { useOptionalSync } from '../workspace/sync-context.tsx';
import { useWorkspaceState } from '../workspace/use-workspace.ts';
import { apiErrorMessage } from './api-error-message.ts';
import { SettingsSection } from './settings-section.tsx';

export interface MembersSettingsProps {
  /** The API client; the app's from the router context by default. */
  callEndpoint?: CallEndpoint;
  /** The workspace and the signed-in user; by default from the sync session. */
  workspaceId?: string;
  userId?: string;
  /** After leaving: the device pulls the workspace and drops it (scope_remove). */
  onLeft?: (workspaceId: string) => void;
}

export const OFFLINE_MEMBERS_TEXT =
  'Members and invitations need the network. Connect to see and change them.';

const roleLabels: Record<WorkspaceRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
};

function subscribeOnline(listener: () => void) {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}
const readOnline = () => globalThis.navigator?.onLine ?? true;

export function MembersSettings(props: MembersSettingsProps) {
  if (props.workspaceId && props.userId) {
    return <Members {...props} workspaceId={props.workspaceId} userId={props.userId} />;
  }
  return <FromSync {...props} />;
}

function FromSync(props: MembersSettingsProps) {
  const sync = useOptionalSync();
  if (!sync) return <Loading />;
  return <WithWorkspace {...props} />;
}

function WithWorkspace(props: MembersSettingsProps) {
  const state = useWorkspaceState();
  const sync = useOptionalSync();
  if (state.status !== 'ready' || !sync) return <Loading />;
  const onLeft =
    props.onLeft ??
    ((workspaceId: string) =>
      // A pull now: the server answers scope_remove and this device drops the workspace.
      sync.handle.invalidate({ workspaceId, seq: Number.MAX_SAFE_INTEGER }));
  return (
    <Members {...props} workspaceId={state.workspace.id} userId={sync.userId} onLeft={onLeft} />
  );
}

function Loading() {
  return (
    <p role="status" className="flex items-center gap-2 text-fg-muted">
      <Spinner size="small" /> Loading members…
    </p>
  );
}

type Loaded =
  | { status: 'loading' }
  | { status: 'ready'; members: WorkspaceMember[] }
  | { status: 'error'; message: string; offline: boolean };

type Pending =
  | { kind: 'remove'; member: WorkspaceMember }
  | { kind: 'transfer'; member: WorkspaceMember }
  | { kind: 'leave' };

function displayName(member: WorkspaceMember): string {
  return `${member.firstName} ${member.lastName}`.trim() || member.email;
}

function Members({
  workspaceId,
  userId,
  callEndpoint: override,
  onLeft,
}: MembersSettingsProps & { workspaceId: string; userId: string }) {
  const callEndpoint = useCallEndpoint(override);
  const online = useSyncExternalStore(subscribeOnline, readOnline, () => true);
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [left, setLeft] = useState(false);
  const [plan, setPlan] = useState<Plan | null>(null);

  const load = useCallback(async () => {
    if (!callEndpoint) return;
    try {
      const { members } = await callEndpoint(getWorkspaceMembers, { query: { workspaceId } });
      setLoaded({ status: 'ready', members });
    } catch (error) {
      const offline = (error as { status?: unknown }).status === 0;
      setLoaded({ status: 'error', message: apiErrorMessage(error), offline });
    }
  }, [callEndpoint, workspaceId]);
  useEffect(() => {
    if (online) void load();
  }, [online, load]);

  // Seats against the plan: the known plan, asked again of the server when it looks full.
  const memberCount = loaded.status === 'ready' ? loaded.members.length : null;
  useEffect(() => {
    if (memberCount === null) return;
    let live = true;
    void checkPlanLimit(
      callEndpoint,
      workspaceId,
      ({ limits }) => memberCount < limits.members,
    ).then((result) => {
      if (live) setPlan(result.plan);
    });
    return () => {
      live = false;
    };
  }, [callEndpoint, workspaceId, memberCount]);
  useEffect(
    () =>
      onSubscriptionSaved((data) => {
        if (data.workspaceId === workspaceId) setPlan(getPlan(data.plan));
      }),
    [workspaceId],
  );

  if (left) {
    return (
      <SettingsSection title="Members" icon={<Users aria-hidden="true" size={20} />}>
        <FormAlert tone="success">
          You left the workspace. Its data leaves this device at the next sync.
        </FormAlert>
      </SettingsSection>
    );
  }

  const offlineNow = !online || (loaded.status === 'error' && loaded.offline);
  const members = loaded.status === 'ready' ? loaded.members : [];
  const myRole = members.find((member) => member.id === userId)?.role ?? null;
  const canManage = myRole === 'owner' || myRole === 'admin';
  const planFull = plan && memberCount !== null && memberCount >= plan.limits.members ? plan : null;

  const run = async (
    action: () => Promise<{ members: WorkspaceMember[] } | void>,
    done?: string,
  ) => {
    if (!callEndpoint) return;
    setBusy(true);
    setActionError(null);
    setNotice(null);
    try {
      const result = await action();
      if (result) setLoaded({ status: 'ready', members: result.members });
      if (done) setNotice(done);
      setPending(null);
    } catch (error) {
      setActionError(apiErrorMessage(error));
      setPending(null);
    } finally {
      setBusy(false);
    }
  };

  const changeRole = (member: WorkspaceMember, role: 'admin' | 'member') =>
    void run(
      () =>
        callEndpoint!(changeMemberRole, {
          query: { workspaceId },
          body: { userId: member.id, role },
        }),
      `${displayName(member)} is now ${role === 'admin' ? 'an admin' : 'a member'}.`,
    );

  const confirm = () => {
    if (!pending || !callEndpoint) return;
    if (pending.kind === 'remove') {
      const name = displayName(pending.member);
      void run(
        () =>
          callEndpoint(removeMember, {
            query: { workspaceId },
            body: { userId: pending.member.id },
          }),
        `${name} was removed from the workspace.`,
      );
    } else if (pending.kind === 'transfer') {
      const name = displayName(pending.member);
      void run(
        () =>
          callEndpoint(transferOwnership, {
            query: { workspaceId },
            body: { userId: pending.member.id },
          }),
        `${name} now owns the workspace; you are an admin.`,
      );
    } else {
      void run(async () => {
        await callEndpoint(leaveWorkspace, { query: { workspaceId } });
        setLeft(true);
        onLeft?.(workspaceId);
      });
    }
  };

  return (
    <div className="flex flex-col gap-6">
      <SettingsSection
        title="Members"
        description="Everyone in this workspace and what they may do. Owners and admins invite people and manage roles; members work on clients and projects."
        icon={<Users aria-hidden="true" size={20} />}
      >
        <div className="flex flex-col gap-4">
          {offlineNow ? <FormAlert tone="info">{OFFLINE_MEMBERS_TEXT}</FormAlert> : null}
          {loaded.status === 'loading' && !offlineNow ? <Loading /> : null}
          {loaded.status === 'error' && !loaded.offline ? (
            <FormAlert
              action={
                <Button variant="secondary" onPress={() => void load()}>
                  <RotateCw aria-hidden="true" size={16} /> Try again
                </Button>
              }
            >
              {loaded.message}
            </FormAlert>
          ) : null}
          {actionError ? <FormAlert>{actionError}</FormAlert> : null}
          {notice ? <FormAlert tone="success">{notice}</FormAlert> : null}
          {members.length > 0 ? (
            <ul aria-label="Members" className="flex flex-col divide-y divide-border">
              {members.map((member) => (
                <MemberRow
                  key={member.id}
                  member={member}
                  isMe={member.id === userId}
                  myRole={myRole}
                  disabled={busy || !online}
                  onRole={(role) => changeRole(member, role)}
                  onRemove={() => setPending({ kind: 'remove', member })}
                  onTransfer={() => setPending({ kind: 'transfer', member })}
                />
              ))}
            </ul>
          ) : null}
          {plan && memberCount !== null && members.length > 0 ? (
            <p className="text-sm text-fg-muted">
              {memberCount} of {plan.limits.members} {plan.limits.members === 1 ? 'seat' : 'seats'}{' '}
              used on the {plan.name} plan.
            </p>
          ) : null}
          {myRole ? (
            <div className="flex flex-col gap-2 border-t border-border pt-4 sm:flex-row sm:items-center sm:justify-between">
              <p className="text-sm text-fg-muted">
                {myRole === 'owner'
                  ? 'As the owner you can leave once you have made someone else the owner.'
                  : 'Leaving removes this workspace and its data from your devices.'}
              </p>
              <Button
                variant="secondary"
                isDisabled={busy || !online || myRole === 'owner'}
                onPress={() => setPending({ kind: 'leave' })}
              >
                <LogOut aria-hidden="true" size={16} /> Leave workspace
              </Button>
            </div>
          ) : null}
        </div>
      </SettingsSection>
      {canManage ? (
        <InvitesPanel
          workspaceId={workspaceId}
          callEndpoint={callEndpoint}
          online={online}
          planFull={planFull}
        />
      ) : null}
      <ConfirmDialog
        isOpen={pending !== null}
        title={
          pending?.kind === 'remove'
            ? `Remove ${displayName(pending.member)}?`
            : pending?.kind === 'transfer'
              ? `Make ${displayName(pending.member)} the owner?`
              : 'Leave this workspace?'
        }
        confirmLabel={
          pending?.kind === 'remove'
            ? 'Remove'
            : pending?.kind === 'transfer'
              ? 'Transfer ownership'
              : 'Leave'
        }
        isDestructive={pending?.kind !== 'transfer'}
        isPending={busy}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      >
        {pending?.kind === 'remove'
          ? 'They lose access at once, and their devices drop the workspace’s data at their next sync. Their past work stays.'
          : pending?.kind === 'transfer'
            ? 'They become the owner, with billing and every right; you stay on as an admin. Only they can hand it back.'
            : 'You lose access at once and this device drops the workspace’s data. Someone has to invite you again to come back.'}
      </ConfirmDialog>
    </div>
  );
}

function MemberRow({
  member,
  isMe,
  myRole,
  disabled,
  onRole,
  onRemove,
  onTransfer,
}: {
  member: WorkspaceMember;
  isMe: boolean;
  myRole: WorkspaceRole | null;
  disabled: boolean;
  onRole: (role: 'admin' | 'member') => void;
  onRemove: () => void;
  onTransfer: () => void;
}) {
  const name = displayName(member);
  const manageable = !isMe && member.role !== 'owner' && (myRole === 'owner' || myRole === 'admin');
  return (
    <li className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="flex items-center gap-2 font-medium text-fg">
          <span className="truncate">{name}</span>
          {isMe ? <span className="text-sm font-normal text-fg-muted">(you)</span> : null}
        </p>
        <p className="truncate text-sm text-fg-muted">{member.email}</p>
      </div>
      <div className="flex flex-wrap items-end gap-2">
        {manageable && member.role !== 'owner' ? (
          <SelectField
            label={`Role of ${name}`}
            isLabelHidden
            options={[
              { id: 'member', label: roleLabels.member },
              { id: 'admin', label: roleLabels.admin },
            ]}
            value={member.role}
            onChange={(role) => {
              if (role !== member.role) onRole(role);
            }}
            isDisabled={disabled}
            triggerClassName="w-32"
          />
        ) : (
          <span className="inline-flex min-h-10 items-center gap-1 rounded-full bg-surface-muted px-3 text-sm font-medium text-fg">
            {member.role === 'owner' ? <Crown aria-hidden="true" size={14} /> : null}
            {roleLabels[member.role]}
          </span>
        )}
        {manageable && myRole === 'owner' ? (
          <Button variant="secondary" isDisabled={disabled} onPress={onTransfer}>
            <Crown aria-hidden="true" size={16} /> Make owner
          </Button>
        ) : null}
        {manageable ? (
          <Button
            variant="ghost"
            isDisabled={disabled}
            onPress={onRemove}
            aria-label={`Remove ${name}`}
          >
            <UserMinus aria-hidden="true" size={16} /> Remove
          </Button>
        ) : null}
      </div>
    </li>
  );
}
