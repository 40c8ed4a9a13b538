import { RouterProvider } from '@tanstack/react-router';
import { createTestRouter } from '../test-router.tsx';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppDatabase } from '../../db/app-database.ts';
import { createClient } from '../../data/client-mutations.ts';
import {
  createTestDatabase,
  renderWithSync,
  USER_ID,
  WS,
} from '../projects/project-screen-test-utils.tsx';
import { ClientDetailScreen } from './client-detail-screen.tsx';

afterEach(cleanup);

/** The screen under a tiny router (it links back to /clients and navigates there on delete). */
function renderDetail(db: AppDatabase, clientId: string) {
  const router = createTestRouter(
    { '/clients': null, '/clients/$id': () => <ClientDetailScreen clientId={clientId} /> },
    `/clients/${clientId}`,
  );
  return renderWithSync(<RouterProvider router={router} />, db);
}

describe('ClientDetailScreen', { timeout: 30_000 }, () => {
  it('drops a field error once the stored value is back, though nothing needs saving', async () => {
    const db = await createTestDatabase();
    const client = await createClient(
      { db, userId: USER_ID },
      { workspaceId: WS, name: 'Acme', email: 'ana@acme.test' },
    );
    renderDetail(db, client.id);
    const user = userEvent.setup();

    const name = await screen.findByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.tab();
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');

    await user.click(name);
    await user.type(name, 'Acme{Enter}');
    await waitFor(() => expect(screen.queryByText('Name is required')).toBeNull());
    expect(name.getAttribute('aria-invalid')).toBeNull();

    const email = screen.getByRole('textbox', { name: 'Email' });
    await user.clear(email);
    await user.type(email, 'nope@@');
    await user.tab();
    expect(await screen.findByText('Enter a valid email address')).toBeTruthy();
    expect(email.getAttribute('aria-invalid')).toBe('true');

    await user.clear(email);
    await user.type(email, 'ana@acme.test');
    await user.tab();
    await waitFor(() => expect(screen.queryByText('Enter a valid email address')).toBeNull());
    expect(email.getAttribute('aria-invalid')).toBeNull();

    // Escape puts the stored text back without typing; leaving the field then drops the error.
    await user.clear(name);
    await user.tab();
    expect(await screen.findByText('Name is required')).toBeTruthy();
    await user.click(name);
    await user.keyboard('{Escape}');
    expect(name).toHaveProperty('value', 'Acme');
    await user.tab();
    await waitFor(() => expect(screen.queryByText('Name is required')).toBeNull());

    // Nothing was refused into the database, and putting the stored value back queued nothing.
    expect(await db.clients.get(client.id)).toMatchObject({ name: 'Acme', email: 'ana@acme.test' });
    expect((await db.outbox.toArray()).map((entry) => entry.operation)).toEqual(['create-client']);
  });
});
