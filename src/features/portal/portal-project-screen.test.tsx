import type {
  PortalFile,
  PortalMilestone,
  PortalProject,
  PortalWorkspace,
} from '#contract/endpoints/client-portal.ts';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PortalProjectScreen } from './portal-project-screen.tsx';
import { portalSessionStorageKey, readPortalSession } from './portal-session.ts';
import { readPortalSnapshot, writePortalSnapshot } from './portal-snapshot.ts';
import { apiError, fakePortalApi, memoryStorage } from './portal-test-api.ts';

afterEach(cleanup);

const projectId = '0192f3a0-0000-7000-8000-0000000000aa';
const clientId = '0192f3a0-0000-7000-8000-0000000000bb';
const workspaceId = '0192f3a0-0000-7000-8000-0000000000cc';

const project: PortalProject = {
  id: projectId,
  clientId,
  workspaceId,
  clientName: 'Acme Bakery',
  name: 'Shop front',
  description: null,
  status: 'active',
  startDate: '2026-03-01',
  dueDate: '2026-04-30',
  updatedAt: '2026-03-02T10:00:00.000Z',
};
const milestones: PortalMilestone[] = [
  {
    id: 'm1',
    title: 'Sketches',
    description: null,
    dueDate: '2026-03-10',
    amount: 120_000,
    currency: 'EUR',
    status: 'approved',
    position: 'a0',
    signOff: {
      decision: 'approved',
      by: 'Acme Bakery',
      at: '2026-03-11T09:00:00.000Z',
      comment: null,
    },
  },
  {
    id: 'm2',
    title: 'Final art',
    description: 'Print-ready files.',
    dueDate: null,
    amount: null,
    currency: 'EUR',
    status: 'in_progress',
    position: 'a1',
    signOff: null,
  },
];
const files: PortalFile[] = [
  {
    id: 'f1',
    name: 'handover.pdf',
    folder: 'Final',
    size: 2_048,
    type: 'application/pdf',
    blobName: '0192f3a0-0000-7000-8000-0000000000dd',
    version: 2,
    updatedAt: '2026-03-12T09:00:00.000Z',
  },
];
const workspace: PortalWorkspace = {
  id: workspaceId,
  name: 'Studio Ada',
  logoUrl: null,
  brandColor: null,
  welcomeText: 'Welcome! Everything for your shop front is here.',
  branding: 'satchel',
};

const online = () => ({
  'get-client-project': [() => ({ project })],
  'get-project-milestones': [() => ({ milestones })],
  'get-project-files': [() => ({ files })],
  'get-workspace-settings': [() => ({ workspace })],
});

function renderPortal(answers: Parameters<typeof fakePortalApi>[0], storage = memoryStorage()) {
  storage.setItem(
    portalSessionStorageKey,
    JSON.stringify({ projectId, clientId, lastActivity: Date.now() }),
  );
  const api = fakePortalApi(answers);
  const toGate = vi.fn();
  const startDownload = vi.fn();
  render(
    <PortalProjectScreen
      projectId={projectId}
      clientId={clientId}
      callEndpoint={api.callEndpoint}
      toGate={toGate}
      startDownload={startDownload}
      storage={storage}
    />,
  );
  return { ...api, toGate, startDownload, storage };
}

describe('PortalProjectScreen', () => {
  it('shows the project, progress, milestones, files and welcome text, and keeps a copy on the device', async () => {
    const portal = renderPortal(online());
    const heading = await screen.findByRole('heading', { level: 1, name: 'Shop front' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByText('Studio Ada')).toBeTruthy();
    expect(screen.getByText(/Welcome! Everything/)).toBeTruthy();
    expect(
      screen
        .getByRole('progressbar', { name: 'Milestones approved' })
        .getAttribute('aria-valuetext'),
    ).toBe('1 of 2');
    const milestoneItems = within(screen.getByRole('region', { name: 'Milestones' })).getAllByRole(
      'listitem',
    );
    expect(milestoneItems.map((item) => item.querySelector('h3')?.textContent)).toEqual([
      'Sketches',
      'Final art',
    ]);
    expect(milestoneItems[0]?.textContent).toContain('Approved by Acme Bakery');
    expect(milestoneItems[0]?.textContent).toContain('€1,200.00');
    expect(screen.getByText('handover.pdf')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Up to date')).toBeTruthy());
    expect(readPortalSnapshot(portal.storage, projectId)?.files).toEqual(files);
    expect(portal.calls.find((c) => c.operation === 'get-workspace-settings')?.input).toEqual({
      query: { workspaceId },
    });
  });

  it('downloads a file through a fresh signed link', async () => {
    const user = userEvent.setup();
    const portal = renderPortal({
      ...online(),
      'generate-sas-url': [() => ({ sasUrl: 'http://x/files/d/b?sig=1', expiresAt: '' })],
    });
    await user.click(await screen.findByRole('button', { name: 'Download handover.pdf' }));
    await waitFor(() =>
      expect(portal.startDownload).toHaveBeenCalledWith('http://x/files/d/b?sig=1'),
    );
    expect(portal.calls.at(-1)?.input).toEqual({
      query: {
        blobName: files[0]?.blobName,
        projectId,
        expiryMinutes: '10',
        downloadFileName: 'handover.pdf',
      },
    });
  });

  it('offline, shows what the client last saw, as of when', async () => {
    const storage = memoryStorage();
    writePortalSnapshot(storage, {
      savedAt: Date.parse('2026-03-12T09:30:00.000Z'),
      project,
      milestones,
      files,
      workspace,
    });
    const offline = () => Promise.reject(apiError(0, 'Failed to fetch'));
    renderPortal({ 'get-client-project': [offline] }, storage);
    expect(screen.getByRole('heading', { level: 1, name: 'Shop front' })).toBeTruthy();
    await waitFor(() => expect(screen.getByText(/You’re offline\./)).toBeTruthy());
    expect(screen.getByText(/Showing your project as of/)).toBeTruthy();
    expect(screen.getByText('handover.pdf')).toBeTruthy();
  });

  it('offline with nothing saved yet says so, with Try again', async () => {
    const user = userEvent.setup();
    const offline = () => Promise.reject(apiError(0, 'Failed to fetch'));
    renderPortal({
      'get-client-project': [offline, () => ({ project })],
      ...{
        'get-project-milestones': [() => ({ milestones })],
        'get-project-files': [() => ({ files })],
        'get-workspace-settings': [() => ({ workspace })],
      },
    });
    expect(await screen.findByRole('heading', { name: 'You’re offline' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Shop front' })).toBeTruthy();
  });

  it('a 401 (the session ended on the server) goes back to the gate and forgets the session', async () => {
    const portal = renderPortal({
      'get-client-project': [() => Promise.reject(apiError(401, 'Your portal session has ended.'))],
    });
    await waitFor(() => expect(portal.toGate).toHaveBeenCalled());
    expect(readPortalSession(portal.storage)).toBeNull();
  });

  it('Leave portal signs out, forgets the saved copy and goes to the gate', async () => {
    const user = userEvent.setup();
    const portal = renderPortal({ ...online(), 'sign-out': [() => ({ signedOut: true })] });
    await user.click(await screen.findByRole('button', { name: 'Leave portal' }));
    await waitFor(() => expect(portal.toGate).toHaveBeenCalled());
    expect(readPortalSnapshot(portal.storage, projectId)).toBeNull();
    expect(readPortalSession(portal.storage)).toBeNull();
  });

  it('empty projects say what will appear', async () => {
    renderPortal({
      'get-client-project': [() => ({ project })],
      'get-project-milestones': [() => ({ milestones: [] })],
      'get-project-files': [() => ({ files: [] })],
      'get-workspace-settings': [() => ({ workspace: { ...workspace, welcomeText: null } })],
    });
    expect(await screen.findByText(/No milestones yet/)).toBeTruthy();
    expect(screen.getByText(/No files shared yet/)).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
