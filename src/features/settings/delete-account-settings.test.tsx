import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deleteAccount, type AccountDeletionPlan } from '#contract/endpoints/account.ts';
import {
  createFakeClient,
  createFakeServices,
  renderScreen,
  signedIn,
} from '../auth/screen-test-utils.tsx';
import { DeleteAccountSettings, deletionSummary } from './delete-account-settings.tsx';

afterEach(cleanup);

const zero = { clients: 0, projects: 0, files: 0, fileBytes: 0 };
const plan: AccountDeletionPlan = {
  email: 'ada@example.com',
  hasPassword: true,
  workspaces: [
    {
      workspaceId: 'w-shared',
      name: 'Studio',
      role: 'owner',
      fate: 'transfer',
      candidates: [
        { userId: 'u-admin', name: 'Abe Admin', email: 'abe@example.com', role: 'admin' },
        { userId: 'u-member', name: 'Cleo Member', email: 'cleo@example.com', role: 'member' },
      ],
      defaultNewOwnerId: 'u-admin',
      counts: zero,
    },
    {
      workspaceId: 'w-solo',
      name: 'Side gig',
      role: 'owner',
      fate: 'delete',
      candidates: [],
      defaultNewOwnerId: null,
      counts: { clients: 2, projects: 3, files: 1, fileBytes: 1_200_000 },
    },
    {
      workspaceId: 'w-other',
      name: 'Agency',
      role: 'member',
      fate: 'leave',
      candidates: [],
      defaultNewOwnerId: null,
      counts: zero,
    },
  ],
};

function wrongPassword() {
  return Object.assign(new Error('That is not the right password. Nothing was deleted.'), {
    status: 422,
    body: {
      error: {
        code: 'BUSINESS_RULE',
        message: 'That is not the right password. Nothing was deleted.',
        details: { reason: 'reauthentication_failed', field: 'password' },
      },
    },
  });
}

function setup(answers: { deleteResults?: (() => Promise<unknown>)[] } = {}) {
  const results = [...(answers.deleteResults ?? [])];
  const callEndpoint = vi.fn((endpoint: { operation: string }) =>
    endpoint.operation === 'get-account-deletion-plan'
      ? Promise.resolve({ plan })
      : (results.shift() ?? (() => Promise.resolve({ deleted: true })))(),
  );
  const onDeleted = vi.fn(() => Promise.resolve());
  renderScreen(<DeleteAccountSettings callEndpoint={callEndpoint} onDeleted={onDeleted} />, {
    auth: signedIn,
    services: createFakeServices(createFakeClient()),
  });
  return { callEndpoint, onDeleted };
}

describe('DeleteAccountSettings', () => {
  it('words what a deleted workspace takes with it', () => {
    expect(deletionSummary({ clients: 2, projects: 3, files: 1, fileBytes: 1_200_000 })).toBe(
      '3 projects, 2 clients and 1 file (1.2 MB)',
    );
    expect(deletionSummary(zero)).toBe('nothing in it yet');
  });

  it('shows each workspace’s fate, asks for the password and the typed word, then deletes', async () => {
    const { callEndpoint, onDeleted } = setup({
      deleteResults: [() => Promise.reject(wrongPassword())],
    });
    const u = userEvent.setup();
    await u.click(screen.getByRole('button', { name: 'Delete account…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    const fates = await within(dialog).findByRole('list', {
      name: 'What happens to your workspaces',
    });
    expect(fates.textContent).toContain(
      'Only you are in it: it is deleted with 3 projects, 2 clients and 1 file (1.2 MB).',
    );
    expect(fates.textContent).toContain('You leave it (you are a member)');
    // The chooser starts on the next admin; the user picks the member instead.
    const chooser = within(dialog).getByRole('button', { name: /New owner of Studio/ });
    expect(chooser.textContent).toContain('Abe Admin (admin)');
    await u.click(chooser);
    await u.click(await screen.findByRole('option', { name: 'Cleo Member (member)' }));

    // Nothing is sent until the password and the typed confirmation are there.
    await u.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    const password = within(dialog).getByLabelText('Your password');
    const typed = within(dialog).getByRole('textbox', { name: 'Type DELETE to confirm' });
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(typed.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(password));
    expect(callEndpoint).toHaveBeenCalledTimes(1);

    await u.type(password, 'wrong one');
    await u.type(typed, 'DELETE');
    await u.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    // A wrong password is shown on the field; nothing else happened.
    await waitFor(() =>
      expect(
        within(dialog).getByText('That is not the right password. Nothing was deleted.'),
      ).toBeTruthy(),
    );
    expect(onDeleted).not.toHaveBeenCalled();

    await u.clear(password);
    await u.type(password, 'right one');
    await u.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(onDeleted).toHaveBeenCalledTimes(1));
    expect(callEndpoint).toHaveBeenLastCalledWith(deleteAccount, {
      query: {},
      body: {
        password: 'right one',
        workspaces: [{ workspaceId: 'w-shared', newOwnerId: 'u-member' }],
      },
    });
  });

  it('cancels with Escape and gives focus back to the button', async () => {
    const { callEndpoint } = setup();
    const u = userEvent.setup();
    const opener = screen.getByRole('button', { name: 'Delete account…' });
    await u.click(opener);
    await screen.findByRole('list', { name: 'What happens to your workspaces' });
    await u.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
    expect(callEndpoint).toHaveBeenCalledTimes(1);
  });
});
