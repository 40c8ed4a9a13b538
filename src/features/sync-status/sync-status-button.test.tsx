import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClientSyncStatus } from '../../sync/sync-client.ts';
import { ToastProvider } from '../../ui/toast-provider.tsx';
import { createToaster } from '../../ui/toaster.ts';
import {
  createFakeSyncHandle,
  createTestDatabase,
} from '../projects/project-screen-test-utils.tsx';
import { SyncProvider } from '../workspace/sync-context.tsx';
import { SyncStatusButton } from './sync-status-button.tsx';

afterEach(cleanup);

/** The button under a fake sync handle that reports `patch` over an idle status. */
async function renderWithStatus(patch: Partial<ClientSyncStatus>) {
  const db = await createTestDatabase();
  const base = createFakeSyncHandle(db);
  const status: ClientSyncStatus = { ...base.getStatus(), ...patch };
  const reconnect = vi.fn();
  const handle = { ...base, getStatus: () => status, reconnect };
  render(
    <ToastProvider toaster={createToaster()}>
      <SyncProvider handle={handle} userId="u1">
        <SyncStatusButton />
      </SyncProvider>
    </ToastProvider>,
  );
  return { reconnect };
}

describe('SyncStatusButton', () => {
  it('offline, says so in words with how many changes are waiting, also on a phone', async () => {
    await renderWithStatus({ state: 'offline', waiting: 3, lastSyncedAt: null });
    const button = screen.getByRole('button', { name: 'Sync: Offline — 3 changes waiting' });
    // The count is on the button itself, not only in the text hidden on narrow screens.
    expect(within(button).getByText('3')).toBeTruthy();
    expect(within(button).getByText('Offline — 3 changes waiting')).toBeTruthy();
  });

  it('offline with nothing waiting says that', async () => {
    await renderWithStatus({ state: 'offline', waiting: 0 });
    expect(screen.getByRole('button', { name: 'Sync: Offline — no changes waiting' })).toBeTruthy();
  });

  it('offline, the details offer no Sync now that cannot work, and say why', async () => {
    await renderWithStatus({ state: 'offline', waiting: 1, lastSyncedAt: null });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^Sync: / }));
    const dialog = await screen.findByRole('dialog', { name: 'Sync' });
    expect(within(dialog).queryByText(/Not synced on this device yet/)).toBeNull();
    expect(within(dialog).getByText(/You're offline/)).toBeTruthy();
    const syncNow = within(dialog).getByRole('button', { name: 'Sync now' });
    expect(syncNow).toHaveProperty('disabled', true);
    const reason = document.getElementById(syncNow.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toMatch(/back online/);
  });

  it('online with changes waiting, Sync now asks the engine to sync', async () => {
    const { reconnect } = await renderWithStatus({ state: 'idle', waiting: 2 });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sync: 2 changes waiting' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sync' });
    await user.click(within(dialog).getByRole('button', { name: 'Sync now' }));
    expect(reconnect).toHaveBeenCalledTimes(1);
  });
});
