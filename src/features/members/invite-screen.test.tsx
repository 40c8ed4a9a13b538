import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { InvitePreview } from '#contract/endpoints/workspace-invite.ts';
import { InviteScreen, type InviteScreenProps } from './invite-screen.tsx';

const TOKEN = 'a'.repeat(43);
const WORKSPACE = '0192f3a0-0000-7000-8000-00000000000a';

afterEach(cleanup);

const preview = (over: Partial<InvitePreview> = {}): InvitePreview => ({
  workspaceName: 'Studio North',
  role: 'member',
  inviterName: 'Ada Lovelace',
  email: null,
  expiresAt: '2026-12-02T10:00:00.000Z',
  status: 'active',
  reason: null,
  ...over,
});

function fakeServer(
  answer: InvitePreview | { status: number; message: string },
  accept: () => Promise<unknown> = () =>
    Promise.resolve({ workspaceId: WORKSPACE, workspaceName: 'Studio North', role: 'member' }),
) {
  return vi.fn((endpoint: { operation: string }): Promise<unknown> => {
    if (endpoint.operation === 'preview-workspace-invite') {
      return 'workspaceName' in answer
        ? Promise.resolve({ invite: answer })
        : Promise.reject(Object.assign(new Error(answer.message), answer));
    }
    if (endpoint.operation === 'accept-workspace-invite') return accept();
    return Promise.reject(new Error(`unexpected ${endpoint.operation}`));
  });
}

function renderInvite(
  server: ReturnType<typeof fakeServer>,
  viewer: InviteScreenProps['viewer'],
  onJoined = vi.fn(),
) {
  render(
    <InviteScreen
      token={TOKEN}
      callEndpoint={server as unknown as CallEndpoint}
      viewer={viewer}
      onJoined={onJoined}
    />,
  );
  return onJoined;
}

async function expectAccessible() {
  // react-aria's live announcer outlives the test that made it; it is no part of this screen.
  const results = await axe.run(
    { include: [document.body], exclude: ['[data-live-announcer]'] },
    {
      runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
      rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
    },
  );
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
}

describe('InviteScreen', () => {
  it('shows a signed-out visitor what the invitation is, and the way in that comes back here', async () => {
    renderInvite(fakeServer(preview()), { status: 'signed-out' });
    const heading = await screen.findByRole('heading', { level: 1, name: 'Join Studio North' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByText(/Ada Lovelace invited you to work in/).textContent).toContain(
      'as a member',
    );
    const back = encodeURIComponent(`/invite/${TOKEN}`);
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe(
      `/signup?returnTo=${back}`,
    );
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      `/login?returnTo=${back}`,
    );
    expect(screen.queryByRole('button', { name: /Accept/ })).toBeNull();
    await expectAccessible();
  });

  it('accepts for a signed-in user and opens the workspace', async () => {
    const server = fakeServer(preview({ role: 'admin' }));
    const onJoined = renderInvite(server, { status: 'signed-in', email: 'bob@example.com' });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Accept and open Studio North' }),
    );
    await waitFor(() =>
      expect(onJoined).toHaveBeenCalledWith({
        workspaceId: WORKSPACE,
        workspaceName: 'Studio North',
      }),
    );
    expect(server).toHaveBeenCalledWith(
      expect.objectContaining({ operation: 'accept-workspace-invite' }),
      { query: {}, body: { token: TOKEN } },
    );
  });

  it("shows the server's refusal of an acceptance (already a member, the plan full)", async () => {
    const server = fakeServer(preview(), () =>
      Promise.reject(
        Object.assign(new Error('You are already in this workspace (as member).'), { status: 409 }),
      ),
    );
    const onJoined = renderInvite(server, { status: 'signed-in', email: 'bob@example.com' });
    await userEvent.click(await screen.findByRole('button', { name: /Accept/ }));
    expect((await screen.findByRole('alert')).textContent).toContain('already in this workspace');
    expect(onJoined).not.toHaveBeenCalled();
  });

  it('says the workspace is full on its plan and that its owner can make room', async () => {
    const server = fakeServer(preview(), () =>
      Promise.reject(
        Object.assign(
          new Error(
            'The Free plan includes 1 member, the owner included. Upgrade for room for more people.',
          ),
          {
            status: 422,
            body: {
              error: {
                code: 'BUSINESS_RULE',
                message:
                  'The Free plan includes 1 member, the owner included. Upgrade for room for more people.',
                details: {
                  limit: 'members',
                  plan: 'free',
                  max: 1,
                  upgradePath: '/settings?tab=billing',
                },
                requestId: 'r1',
              },
            },
          },
        ),
      ),
    );
    const onJoined = renderInvite(server, { status: 'signed-in', email: 'bob@example.com' });
    await userEvent.click(await screen.findByRole('button', { name: /Accept/ }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Studio North is full: its Free plan allows 1 member. Ask the workspace owner to upgrade the plan, then accept again.',
    );
    // Not theirs to upgrade: no way to the billing of a workspace they are not in.
    expect(screen.queryByRole('link', { name: /upgrade/i })).toBeNull();
    expect(onJoined).not.toHaveBeenCalled();
    await expectAccessible();
  });

  it('says why an invitation no longer works and offers nothing', async () => {
    renderInvite(
      fakeServer(
        preview({
          status: 'revoked',
          reason: 'This invitation was withdrawn. Ask the person who sent it for a new one.',
        }),
      ),
      { status: 'signed-in', email: 'bob@example.com' },
    );
    expect((await screen.findByRole('alert')).textContent).toContain('withdrawn');
    expect(screen.queryByRole('button', { name: /Accept/ })).toBeNull();
  });

  it('answers an unknown link, and offline, in words', async () => {
    renderInvite(
      fakeServer({
        status: 404,
        message: 'This invite link is not valid. Check that you have all of it.',
      }),
      { status: 'signed-out' },
    );
    await screen.findByRole('heading', { level: 1, name: 'This invitation can’t be opened' });
    expect(screen.getByRole('alert').textContent).toContain('not valid');
    cleanup();
    renderInvite(fakeServer({ status: 0, message: 'Failed to fetch' }), { status: 'signed-out' });
    expect((await screen.findByRole('alert')).textContent).toContain('needs the network');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
