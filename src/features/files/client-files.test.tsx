import { RouterProvider } from '@tanstack/react-router';
import { createTestRouter } from '../test-router.tsx';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppDatabase } from '../../db/app-database.ts';
import { createProject } from '../../data/project-mutations.ts';
import { ClientDetailScreen } from '../clients/client-detail-screen.tsx';
import { WS } from '../projects/project-screen-test-utils.tsx';
import {
  fakeFilesApi,
  filesTestDatabases,
  fileRow,
  renderWithFiles,
  seedProject,
} from './files-test-utils.tsx';

const newDatabase = filesTestDatabases();
const createObjectURL = vi.fn((_blob: Blob) => `blob:test/${crypto.randomUUID()}`);
beforeAll(() => {
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = vi.fn();
  // The router restores scroll on navigation; jsdom has no scrolling.
  window.scrollTo = vi.fn();
});

function renderClient(
  db: AppDatabase,
  clientId: string,
  api: ReturnType<typeof fakeFilesApi>['api'],
) {
  const router = createTestRouter(
    {
      '/clients/$id': () => <ClientDetailScreen clientId={clientId} />,
      '/projects/$projectId/$clientId': null,
    },
    `/clients/${clientId}`,
  );
  return renderWithFiles(<RouterProvider router={router} />, db, api);
}

describe('Client detail: files', { timeout: 30_000 }, () => {
  it('lists the files of every project of the client, and downloads a kept one offline', async () => {
    const db = await newDatabase();
    const { ctx, client, project } = await seedProject(db);
    const second = await createProject(ctx, {
      workspaceId: WS,
      clientId: client.id,
      name: 'Brand book',
      startDate: '2026-03-01',
      currency: 'EUR',
    });
    const brief = fileRow(project.id, { name: 'brief.txt', size: 2_458 });
    const logo = fileRow(second.id, { name: 'logo.png', type: 'image/png' }, 2);
    await db.files.bulkPut([brief, logo]);
    await db.fileCopies.put({
      fileId: brief.id,
      version: 1,
      workspaceId: WS,
      projectId: project.id,
      size: 5,
      type: 'text/plain',
      blob: new Blob(['hello'], { type: 'text/plain' }),
      keptAt: '2026-03-02T00:00:00.000Z',
    });
    const { api, network, getDownloadLink } = fakeFilesApi();
    renderClient(db, client.id, api);

    const list = await screen.findByRole('list', { name: 'Files of Acme' });
    const items = within(list).getAllByRole('listitem');
    // Newest first: the logo's second version is the latest change.
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('logo.png'),
      expect.stringContaining('brief.txt'),
    ]);
    expect(items[1]?.textContent).toContain('Website · 2.4 KB');
    expect(items[1]?.textContent).toContain('Kept offline');
    expect(within(list).getByRole('link', { name: 'Brand book' }).getAttribute('href')).toBe(
      `/projects/${second.id}/${client.id}?tab=files`,
    );

    network.set(false);
    await waitFor(() =>
      expect(
        within(list).getByRole('button', { name: 'Download logo.png' }).hasAttribute('disabled'),
      ).toBe(true),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await userEvent.setup().click(within(list).getByRole('button', { name: 'Download brief.txt' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    click.mockRestore();
    expect(await createObjectURL.mock.calls.at(-1)?.[0].text()).toBe('hello');
    expect(getDownloadLink).not.toHaveBeenCalled();
  });

  it('says when the client has no files yet', async () => {
    const db = await newDatabase();
    const { client } = await seedProject(db);
    renderClient(db, client.id, fakeFilesApi().api);
    expect(await screen.findByText("No files in Acme's projects yet.")).toBeTruthy();
  });
});
