import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { AppDatabase } from '../../db/app-database.ts';
import {
  createTestDatabase,
  expectAccessible,
  renderWithSync,
  USER_ID,
  WS,
} from '../projects/project-screen-test-utils.tsx';
import { WorkspaceDetailsSettings } from './workspace-details-settings.tsx';

afterEach(cleanup);

async function withRole(role: 'owner' | 'member'): Promise<AppDatabase> {
  const db = await createTestDatabase();
  await db.members.put({
    id: USER_ID,
    workspaceId: WS,
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Test',
    profilePictureUrl: null,
    role,
    joinedAt: '2026-01-01T00:00:00.000Z',
  });
  return db;
}

function render(db: AppDatabase) {
  const call = vi.fn((_endpoint: unknown, input: { body: Record<string, unknown> }) =>
    Promise.resolve({ workspace: { id: WS, ...input.body } }),
  );
  const view = renderWithSync(
    <WorkspaceDetailsSettings callEndpoint={call as unknown as CallEndpoint} />,
    db,
  );
  return { ...view, call };
}

describe('WorkspaceDetailsSettings', () => {
  it('shows the device’s copy, sends only what changed, and asks for the saved row', async () => {
    const { call, handle } = render(await withRole('owner'));
    const reconnect = vi.spyOn(handle, 'reconnect');
    const name = await screen.findByRole<HTMLInputElement>('textbox', { name: /Workspace name/ });
    expect(name.value).toBe('Studio');
    const save = screen.getByRole('button', { name: 'Save details' });
    expect(save.hasAttribute('disabled')).toBe(true); // nothing changed yet

    const user = userEvent.setup();
    await user.clear(name);
    await user.type(name, 'Ada Studio');
    await user.type(screen.getByRole('textbox', { name: /Brand colour/ }), '#a0522d');
    await user.click(save);
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(
        expect.objectContaining({ operation: 'update-workspace-settings' }),
        {
          query: { workspaceId: WS },
          body: { name: 'Ada Studio', brandColor: '#a0522d' },
        },
      ),
    );
    expect(await screen.findByText('Workspace details saved')).toBeTruthy();
    expect(reconnect).toHaveBeenCalled();
    await expectAccessible();
  });

  it('refuses a blank name and a colour it cannot use in place, focused, sending nothing', async () => {
    const { call } = render(await withRole('owner'));
    const name = await screen.findByRole('textbox', { name: /Workspace name/ });
    const user = userEvent.setup();
    await user.clear(name);
    await user.type(screen.getByRole('textbox', { name: /Brand colour/ }), 'brown');
    await user.click(screen.getByRole('button', { name: 'Save details' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Use a colour like #A0522D')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(call).not.toHaveBeenCalled();
  });

  it('shows a member the details without letting them change them', async () => {
    render(await withRole('member'));
    expect(await screen.findByText(/Only the workspace’s owner and admins/)).toBeTruthy();
    const name = screen.getByRole('textbox', { name: /Workspace name/ });
    expect(name.hasAttribute('disabled')).toBe(true);
  });
});
