// The live chat's chunk is not precached: offline and not on the device, its import fails. The
// page then shows the chat saved on the device, read-only, and asks for the live chat again once
// the browser is back online.
import type { PortalChatMessage } from '#contract/endpoints/portal-chat.ts';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { PortalProjectScreen } from './portal-project-screen.tsx';
import { portalSessionStorageKey } from './portal-session.ts';
import { writePortalSnapshot } from './portal-snapshot.ts';
import { writePortalSavedPart } from './portal-saved-parts.ts';
import { apiError, fakeBrowserOnline, fakePortalApi, memoryStorage } from './portal-test-api.ts';

let chatCodeThere = false;
vi.mock('./portal-chat.tsx', () => {
  if (!chatCodeThere) throw new TypeError('Failed to fetch dynamically imported module');
  return { PortalChat: () => <p>The live chat</p> };
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const projectId = '0192f3a0-0000-7000-8000-0000000000aa';
const clientId = '0192f3a0-0000-7000-8000-0000000000bb';
const workspaceId = '0192f3a0-0000-7000-8000-0000000000cc';
const savedAt = Date.parse('2026-03-12T09:30:00.000Z');
const saved: PortalChatMessage = {
  id: '0192f3a0-0000-4000-8000-000000000e02',
  text: 'The sketches are in Files',
  authorKind: 'member',
  authorName: 'Ada',
  seq: 4,
  createdAt: '2026-03-12T09:00:00.000Z',
  editedAt: null,
};

it('offline without the live chat’s code, shows the saved messages read-only', async () => {
  const browser = fakeBrowserOnline(false);
  const storage = memoryStorage();
  storage.setItem(
    portalSessionStorageKey,
    JSON.stringify({ projectId, clientId, lastActivity: Date.now() }),
  );
  writePortalSnapshot(storage, {
    savedAt,
    project: {
      id: projectId,
      clientId,
      workspaceId,
      clientName: 'Acme Bakery',
      name: 'Shop front',
      description: null,
      status: 'active',
      startDate: null,
      dueDate: null,
      updatedAt: '2026-03-02T10:00:00.000Z',
    },
    milestones: [],
    files: [],
    workspace: {
      id: workspaceId,
      name: 'Studio Ada',
      logoUrl: null,
      brandColor: null,
      welcomeText: null,
      branding: 'satchel',
    },
    changeRequests: [],
  });
  writePortalSavedPart(storage, projectId, 'chat', { savedAt, messages: [saved], hasOlder: false });
  const offline = () => Promise.reject(apiError(0, 'Failed to fetch'));
  const api = fakePortalApi({
    'get-client-project': [offline],
    'get-project-milestones': [offline],
    'get-project-files': [offline],
    'get-change-requests': [offline],
  });
  render(
    <main>
      <PortalProjectScreen
        projectId={projectId}
        clientId={clientId}
        callEndpoint={api.callEndpoint}
        toGate={vi.fn()}
        storage={storage}
      />
    </main>,
  );
  const chat = await screen.findByRole('region', { name: 'Messages' });
  expect(within(chat).getByText('The sketches are in Files')).toBeTruthy();
  expect(within(chat).getByText(/the messages saved on this device, as of/)).toBeTruthy();
  expect(within(chat).getByText(/Writing to the team needs a connection/)).toBeTruthy();
  expect(within(chat).queryByRole('textbox')).toBeNull();

  // Back online, the live chat is asked for again.
  chatCodeThere = true;
  vi.resetModules();
  act(() => browser.set(true));
  expect(await screen.findByText('The live chat')).toBeTruthy();
});
