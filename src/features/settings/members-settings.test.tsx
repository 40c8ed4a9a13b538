import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { WorkspaceInvite } from '#contract/endpoints/workspace-invite.ts';
import type { PlanId } from '#contract/entities/plan.ts';
import type { WorkspaceMember, WorkspaceRole } from '#contract/entities/workspace.ts';
import { MembersSettings, OFFLINE_MEMBERS_TEXT } from './members-settings.tsx';

const WORKSPACE = '0192f3a0-0000-7000-8000-00000000000a';
const ADA = '0192f3a0-0000-7000-8000-0000000000a1';
const BOB = '0192f3a0-0000-7000-8000-0000000000b1';
const CAT = '0192f3a0-0000-7000-8000-0000000000c1';

afterEach(() => {
  cleanup();
  localStorage.clear();
  Object.defineProperty(navigator, 'onLine', { value: true, configurable: true });
});

const person = (id: string, firstName: string, role: WorkspaceRole): WorkspaceMember => ({
  id,
  email: `${firstName.toLowerCase()}@example.com`,
  firstName,
  lastName: 'Test',
  profilePictureUrl: null,
  role,
  joinedAt: '2026-11-01T10:00:00.000Z',
});

const invite = (over: Partial<WorkspaceInvite> = {}): WorkspaceInvite => ({
  id: '0192f3a0-0000-7000-8000-0000000000f1',
  workspaceId: WORKSPACE,
  email: null,
  role: 'member',
  maxUses: 1,
  useCount: 0,
  expiresAt: '2026-12-02T10:00:00.000Z',
  revokedAt: null,
  createdAt: '2026-11-25T10:00:00.000Z',
  createdBy: ADA,
  createdByName: 'Ada Test',
  status: 'active',
  ...over,
});

interface Fake {
  members: WorkspaceMember[];
  invites: WorkspaceInvite[];
  /** The workspace's plan as the server says it (Free by default). */
  plan?: PlanId;
  fail?: Partial<Record<string, { status: number; message: string }>>;
}

function fakeServer(state: Fake) {
  return vi.fn(
    (endpoint: { operation: string }, input: { query: any; body?: any }): Promise<unknown> => {
      const failure = state.fail?.[endpoint.operation];
      if (failure) return Promise.reject(Object.assign(new Error(failure.message), failure));
      switch (endpoint.operation) {
        case 'get-workspace-members':
          return Promise.resolve({ members: state.members });
        case 'get-workspace-invites':
          return Promise.resolve({ invites: state.invites });
        case 'get-subscription':
          return Promise.resolve({ workspaceId: WORKSPACE, plan: state.plan ?? 'free' });
        case 'create-workspace-invite': {
          const made = invite({
            id: '0192f3a0-0000-7000-8000-0000000000f2',
            email: input.body.email,
            role: input.body.role,
            maxUses: input.body.maxUses,
          });
          state.invites = [made, ...state.invites];
          return Promise.resolve({ invite: made, url: `http://app.test/invite/${'t'.repeat(43)}` });
        }
        case 'revoke-workspace-invite':
          state.invites = state.invites.map((item) =>
            item.id === input.query.id ? { ...item, status: 'revoked' as const } : item,
          );
          return Promise.resolve({ invite: state.invites[0] });
        case 'change-member-role':
          state.members = state.members.map((member) =>
            member.id === input.body.userId ? { ...member, role: input.body.role } : member,
          );
          return Promise.resolve({ members: state.members });
        case 'remove-member':
          state.members = state.members.filter((member) => member.id !== input.body.userId);
          return Promise.resolve({ members: state.members });
        case 'transfer-ownership':
          state.members = state.members.map((member) =>
            member.id === input.body.userId
              ? { ...member, role: 'owner' as const }
              : member.role === 'owner'
                ? { ...member, role: 'admin' as const }
                : member,
          );
          return Promise.resolve({ members: state.members });
        case 'leave-workspace':
          return Promise.resolve({ left: true });
        default:
          return Promise.reject(new Error(`unexpected ${endpoint.operation}`));
      }
    },
  );
}

function renderMembers(server: ReturnType<typeof fakeServer>, userId = ADA, onLeft = vi.fn()) {
  render(
    <MembersSettings
      workspaceId={WORKSPACE}
      userId={userId}
      callEndpoint={server as unknown as CallEndpoint}
      onLeft={onLeft}
    />,
  );
  return onLeft;
}

async function expectAccessible() {
  const results = await axe.run(
    { include: [document.body], exclude: ['[data-live-announcer]'] },
    {
      runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
      rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
    },
  );
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
}

const team = () => [
  person(ADA, 'Ada', 'owner'),
  person(BOB, 'Bob', 'admin'),
  person(CAT, 'Cat', 'member'),
];

describe('MembersSettings', () => {
  it('lists members with their roles; the owner changes a role, removes after confirming', async () => {
    const server = fakeServer({ members: team(), invites: [invite()] });
    renderMembers(server);
    const list = await screen.findByRole('list', { name: 'Members' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('Ada Test(you)'),
      expect.stringContaining('Bob Test'),
      expect.stringContaining('Cat Test'),
    ]);
    expect(within(rows[0]!).getByText('Owner')).toBeTruthy();
    await screen.findByRole('list', { name: 'Invitations' });
    await expectAccessible();

    // Cat becomes an admin.
    await userEvent.click(within(rows[2]!).getByRole('button', { name: /Role of Cat Test/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Admin' }));
    await screen.findByText('Cat Test is now an admin.');
    expect(server).toHaveBeenCalledWith(
      expect.objectContaining({ operation: 'change-member-role' }),
      {
        query: { workspaceId: WORKSPACE },
        body: { userId: CAT, role: 'admin' },
      },
    );

    // Removing asks first; Cancel leaves Bob in.
    await userEvent.click(screen.getByRole('button', { name: 'Remove Bob Test' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove Bob Test?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(server).not.toHaveBeenCalledWith(
      expect.objectContaining({ operation: 'remove-member' }),
      expect.anything(),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Remove Bob Test' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }),
    );
    await screen.findByText('Bob Test was removed from the workspace.');
    expect(screen.queryByText('bob@example.com')).toBeNull();
  });

  it('keeps the owner in: Leave is disabled for them and nobody can remove or demote them', async () => {
    renderMembers(fakeServer({ members: team(), invites: [] }));
    await screen.findByRole('list', { name: 'Members' });
    expect(screen.getByRole('button', { name: /Leave workspace/ }).hasAttribute('disabled')).toBe(
      true,
    );
    expect(screen.getByText(/leave once you have made someone else the owner/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remove Ada Test' })).toBeNull();
  });

  it('transfers ownership after confirming', async () => {
    const server = fakeServer({ members: team(), invites: [] });
    renderMembers(server);
    await screen.findByRole('list', { name: 'Members' });
    const bob = screen.getAllByRole('listitem').find((row) => row.textContent?.includes('Bob'))!;
    await userEvent.click(within(bob).getByRole('button', { name: /Make owner/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Make Bob Test the owner?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Transfer ownership' }));
    await screen.findByText('Bob Test now owns the workspace; you are an admin.');
  });

  it('shows a member no management, lets them leave, and tells the device to drop the data', async () => {
    const server = fakeServer({ members: team(), invites: [] });
    const onLeft = renderMembers(server, CAT);
    await screen.findByRole('list', { name: 'Members' });
    expect(screen.queryByRole('button', { name: /Remove/ })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Invitations' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: /Leave workspace/ }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Leave' }),
    );
    await screen.findByText(/You left the workspace/);
    expect(onLeft).toHaveBeenCalledWith(WORKSPACE);
    expect(server).not.toHaveBeenCalledWith(
      expect.objectContaining({ operation: 'get-workspace-invites' }),
      expect.anything(),
    );
  });

  it("shows the server's refusal in words", async () => {
    const server = fakeServer({
      members: [
        person(ADA, 'Ada', 'admin'),
        person(BOB, 'Bob', 'owner'),
        person(CAT, 'Cat', 'member'),
      ],
      invites: [],
      fail: {
        'remove-member': { status: 422, message: 'That person is not a member of this workspace.' },
      },
    });
    renderMembers(server);
    await screen.findByRole('list', { name: 'Members' });
    expect(screen.queryByRole('button', { name: 'Remove Bob Test' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Make owner/ })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Remove Cat Test' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }),
    );
    expect((await screen.findByRole('alert')).textContent).toContain(
      'That person is not a member of this workspace.',
    );
  });

  it('makes a link invitation to copy and an email one, lists and revokes', async () => {
    const server = fakeServer({ members: team(), invites: [invite({ email: 'old@example.com' })] });
    renderMembers(server);
    const form = await screen.findByRole('form', { name: 'New invitation' });
    await userEvent.click(within(form).getByRole('button', { name: /Uses/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Anyone with the link' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Create link' }));
    const link = await screen.findByRole<HTMLInputElement>('textbox', {
      name: 'Invitation link',
    });
    expect(link.value).toBe(`http://app.test/invite/${'t'.repeat(43)}`);
    // Focus is on the new link, ready to copy.
    await waitFor(() => expect(document.activeElement).toBe(link));
    expect(server).toHaveBeenCalledWith(
      expect.objectContaining({ operation: 'create-workspace-invite' }),
      {
        query: { workspaceId: WORKSPACE },
        body: { email: null, role: 'member', expiresInDays: 7, maxUses: null },
      },
    );
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await userEvent.click(screen.getByRole('button', { name: /Copy link/ }));
    await screen.findByText(/Link copied/);
    expect(writeText).toHaveBeenCalledWith(link.value);

    // Email: a bad address is caught before the network.
    await userEvent.click(within(form).getByRole('button', { name: /Invite by/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Email' }));
    await userEvent.type(within(form).getByRole('textbox', { name: 'Email address' }), 'nope');
    await userEvent.click(within(form).getByRole('button', { name: 'Send invitation' }));
    expect(await within(form).findByText(/Enter an email address/)).toBeTruthy();
    await waitFor(() =>
      expect(document.activeElement).toBe(
        within(form).getByRole('textbox', { name: 'Email address' }),
      ),
    );
    await userEvent.clear(within(form).getByRole('textbox', { name: 'Email address' }));
    await userEvent.type(
      within(form).getByRole('textbox', { name: 'Email address' }),
      'dan@example.com',
    );
    await userEvent.click(within(form).getByRole('button', { name: 'Send invitation' }));
    await screen.findByText('dan@example.com', { selector: 'strong' });

    const list = screen.getByRole('list', { name: 'Invitations' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));
    await userEvent.click(
      within(list).getByRole('button', { name: 'Revoke invitation: old@example.com, member' }),
    );
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Revoke' }),
    );
    await waitFor(() => expect(within(list).getByText('Revoked')).toBeTruthy());
    // Its Revoke is gone: focus is on another open invitation's.
    await waitFor(() =>
      expect(document.activeElement?.getAttribute('aria-label')).toMatch(/^Revoke invitation: /),
    );
    await expectAccessible();
  });

  it('shows the seats used and, at the plan’s member limit, warns before inviting with a way to upgrade', async () => {
    const server = fakeServer({ members: [person(ADA, 'Ada', 'owner')], invites: [] });
    renderMembers(server);
    expect(await screen.findByText('1 of 1 seat used on the Free plan.')).toBeTruthy();
    const form = screen.getByRole('form', { name: 'New invitation' });
    const warning = await within(form).findByText(
      /Your Free plan allows 1 member; upgrade to invite more\./,
    );
    const upgrade = within(form).getByRole('link', { name: 'Upgrade plan' });
    expect(upgrade.getAttribute('href')).toBe('/settings?tab=billing');
    expect(warning.closest('[role="status"]')?.contains(upgrade)).toBe(true);
    await screen.findByText('No invitations yet.');
    await expectAccessible();
    // The warning comes before the fields, and its link is reached from the keyboard.
    upgrade.focus();
    expect(document.activeElement).toBe(upgrade);
    await userEvent.tab();
    expect(document.activeElement).toBe(within(form).getByRole('button', { name: /Invite by/ }));
  });

  it('does not warn while the plan has room', async () => {
    const server = fakeServer({ members: [person(ADA, 'Ada', 'owner')], invites: [], plan: 'pro' });
    renderMembers(server);
    // The device knew Free (full at one member): it asked the server, which says Pro.
    expect(await screen.findByText('1 of 2 seats used on the Pro plan.')).toBeTruthy();
    expect(screen.queryByText(/upgrade to invite more/)).toBeNull();
    expect(screen.queryByRole('link', { name: 'Upgrade plan' })).toBeNull();
  });

  it('says the tab needs the network when offline, and offers nothing', async () => {
    Object.defineProperty(navigator, 'onLine', { value: false, configurable: true });
    const server = fakeServer({ members: team(), invites: [] });
    renderMembers(server);
    expect(await screen.findByText(OFFLINE_MEMBERS_TEXT)).toBeTruthy();
    expect(server).not.toHaveBeenCalled();
    // The server unreachable while the browser thinks it is online reads the same.
    cleanup();
    Object.defineProperty(navigator, 'onLine', { value: true, configurable: true });
    renderMembers(
      fakeServer({
        members: [],
        invites: [],
        fail: { 'get-workspace-members': { status: 0, message: 'Failed to fetch' } },
      }),
    );
    expect(await screen.findByText(OFFLINE_MEMBERS_TEXT)).toBeTruthy();
  });
});
