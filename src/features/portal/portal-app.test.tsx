import type { PortalProject, PortalWorkspace } from '#contract/endpoints/client-portal.ts';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createThemeController } from '../../ui/theme.ts';
import { createToaster } from '../../ui/toaster.ts';
import { PortalApp } from './portal-app.tsx';
import { holdCopySubmit, PORTAL_COPY_ID } from './portal-copy.ts';
import { createPortalHistory } from './portal-history.ts';
import { accessPath } from './portal-location.ts';
import { readPortalSession, writePortalSession } from './portal-session.ts';
import { writePortalSnapshot } from './portal-snapshot.ts';
import { paintProjectCopy, type ProjectCopyState } from './portal-project-copy.ts';
import { fakeBrowserOnline, fakePortalApi } from './portal-test-api.ts';

const projectId = '0192f3a0-0000-7000-8000-0000000000aa';
const clientId = '0192f3a0-0000-7000-8000-0000000000bb';
const workspaceId = '0192f3a0-0000-7000-8000-0000000000cc';
const projectPath = `/client/${clientId}/project/${projectId}`;

const project: PortalProject = {
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
};
const workspace: PortalWorkspace = {
  id: workspaceId,
  name: 'Studio Ada',
  logoUrl: null,
  brandColor: null,
  welcomeText: null,
  branding: 'satchel',
};
/** Answers for a few loads (StrictMode starts the page's effects twice). */
const times = <T,>(answer: () => T) => Array.from({ length: 6 }, () => answer);
const projectAnswers = () => ({
  'get-client-project': times(() => ({ project })),
  'get-project-milestones': times(() => ({ milestones: [] })),
  'get-project-files': times(() => ({ files: [] })),
  'get-workspace-settings': times(() => ({ workspace })),
  'get-change-requests': times(() => ({ changeRequests: [] })),
});

beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  document.getElementById(PORTAL_COPY_ID)?.remove();
  window.history.replaceState(null, '', '/');
  vi.restoreAllMocks();
});

function renderPortal(
  path: string,
  answers: Parameters<typeof fakePortalApi>[0],
  projectCopy?: ProjectCopyState,
) {
  window.history.replaceState(null, '', path);
  const api = fakePortalApi(answers);
  const history = createPortalHistory({
    location: window.location,
    history: window.history,
    events: window,
    storage: localStorage,
    now: Date.now,
  });
  render(
    <PortalApp
      history={history}
      callEndpoint={api.callEndpoint}
      themeController={createThemeController({
        document,
        storage: undefined,
        matchMedia: undefined,
      })}
      toaster={createToaster()}
      projectCopy={projectCopy}
    />,
  );
  return api;
}

describe('PortalApp', () => {
  it('takes the place of a project’s static copy: up to date at once, the rest a moment later, a press on the copy pressed again', async () => {
    writePortalSession(localStorage, { projectId, clientId, lastActivity: Date.now() });
    const snapshot = {
      savedAt: Date.now(),
      project,
      milestones: [],
      files: [],
      workspace,
      changeRequests: [],
    };
    writePortalSnapshot(localStorage, snapshot);
    // The page's copy, painted from the same answers (mount-portal.tsx), with a press held on it.
    const copy = document.createElement('div');
    copy.id = PORTAL_COPY_ID;
    copy.innerHTML = '<main><div data-portal-copy="project"></div></main>';
    document.body.append(copy);
    holdCopySubmit(copy);
    paintProjectCopy(document, { snapshot, state: 'fresh' });
    const leave = [...copy.querySelectorAll('button')].find(
      (button) => button.textContent === 'Leave portal',
    )!;
    leave.click();

    const api = renderPortal(
      projectPath,
      { ...projectAnswers(), 'sign-out': [() => ({ signedOut: true })] },
      'fresh',
    );
    // The live page's first frame is the copy's: up to date, not checking for updates.
    expect(screen.getByRole('heading', { level: 1, name: 'Shop front' })).toBeDefined();
    expect(screen.getByText('Up to date')).toBeDefined();
    expect(document.getElementById(PORTAL_COPY_ID)).toBeNull();
    // Its first commit is the top of the page: the sections below the milestones come next.
    expect(screen.queryByRole('region', { name: 'Files' })).toBeNull();
    // Leave portal, pressed on the copy, is pressed on the live page once it is there.
    await waitFor(() => expect(window.location.pathname).toBe('/client-access'));
    expect(api.calls.map((call) => call.operation)).toContain('sign-out');
  });

  it('a portal link without a session shows its gate; the password opens the project', async () => {
    const user = userEvent.setup();
    const api = renderPortal(projectPath, {
      authenticate: [() => ({ authenticated: true })],
      ...projectAnswers(),
    });
    expect(window.location.pathname + window.location.search).toBe(accessPath(clientId, projectId));
    const gate = screen.getByRole('heading', { level: 1, name: 'Client access' });
    await waitFor(() => expect(document.activeElement).toBe(gate));
    expect(screen.getByText('Client portal')).toBeDefined();

    await user.type(screen.getByLabelText('Password'), 'blue lagoon 42');
    await user.click(screen.getByRole('button', { name: 'Open my project' }));
    await waitFor(() => expect(window.location.pathname).toBe(projectPath));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Shop front' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(readPortalSession(localStorage)).toMatchObject({ projectId, clientId });
    expect(api.calls.map((call) => call.operation)).toContain('get-client-project');
    // The page is named after the project, as on the app's route.
    expect(document.title).toBe('Shop front — Satchel');
  });

  it('a project page with a live session opens at once, and goes to its gate when it ends', async () => {
    writePortalSession(localStorage, { projectId, clientId, lastActivity: Date.now() });
    let refused = false;
    renderPortal(projectPath, {
      ...projectAnswers(),
      'get-client-project': times(() => {
        if (refused) throw Object.assign(new Error('no'), { status: 401, body: null });
        return { project };
      }),
    });
    expect(screen.getByText(/Opening your project/)).toBeDefined();
    await screen.findByRole('heading', { level: 1, name: 'Shop front' });
    // The member changed the password: the next load is refused.
    refused = true;
    await act(async () => {
      window.dispatchEvent(new Event('online'));
      await Promise.resolve();
    });
    await screen.findByRole('heading', { level: 1, name: 'Client access' });
    expect(window.location.pathname + window.location.search).toBe(accessPath(clientId, projectId));
    expect(readPortalSession(localStorage)).toBeNull();
  });

  it('takes over the static copy: what was typed in it, the field and a held submit', async () => {
    window.history.replaceState(null, '', accessPath(clientId, projectId));
    const copy = document.createElement('div');
    copy.id = PORTAL_COPY_ID;
    copy.innerHTML =
      '<main id="main"><div><input name="password" type="password"><button type="submit">Open my project</button></div></main>';
    document.body.append(copy);
    holdCopySubmit(copy);
    const field = copy.querySelector('input')!;
    field.focus();
    field.value = 'typed early';
    copy.querySelector('button')!.click();

    const api = renderPortal(accessPath(clientId, projectId), {
      authenticate: [() => ({ authenticated: true })],
      ...projectAnswers(),
    });
    expect(document.getElementById(PORTAL_COPY_ID)).toBeNull();
    await waitFor(() => expect(window.location.pathname).toBe(projectPath));
    expect(api.calls[0]).toEqual({
      operation: 'authenticate',
      input: { query: {}, body: { projectId, password: 'typed early' } },
    });
  });

  it('offline, with the session ended, the gate offers the kept copy, read-only', async () => {
    const user = userEvent.setup();
    const online = fakeBrowserOnline(false);
    writePortalSnapshot(localStorage, {
      savedAt: Date.parse('2026-03-12T09:30:00.000Z'),
      project,
      milestones: [],
      files: [],
      workspace,
      changeRequests: [],
    });
    const api = renderPortal(projectPath, {});
    expect(screen.getByRole('heading', { level: 1, name: 'Client access' })).toBeDefined();
    const offer = screen.getByRole('region', { name: 'You’re offline' });
    expect(offer.textContent).toContain('Shop front');
    await user.click(screen.getByRole('button', { name: 'Read the saved copy' }));

    const heading = await screen.findByRole('heading', { level: 1, name: 'Shop front' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByText(/You’re offline and signed out: reading the copy saved/)).toBeDefined();
    // Nothing to ask for or send without a session.
    expect(screen.queryByRole('button', { name: 'Ask for a change' })).toBeNull();
    expect(api.calls).toEqual([]);
    expect(window.location.pathname).toBe('/client-access');

    // Back to the password: by the button, or when the network is back.
    await user.click(screen.getByRole('button', { name: 'Enter password' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Client access' })).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Read the saved copy' }));
    await screen.findByRole('heading', { level: 1, name: 'Shop front' });
    act(() => online.set(true));
    expect(screen.getByRole('heading', { level: 1, name: 'Client access' })).toBeDefined();
    expect(screen.queryByRole('region', { name: 'You’re offline' })).toBeNull();
    expect(api.calls).toEqual([]);
  });

  it('offers no copy kept for another client, nor online', () => {
    fakeBrowserOnline(false);
    writePortalSnapshot(localStorage, {
      savedAt: Date.now(),
      project: { ...project, clientId: '0192f3a0-0000-7000-8000-0000000000ee' },
      milestones: [],
      files: [],
      workspace,
      changeRequests: [],
    });
    renderPortal(projectPath, {});
    expect(screen.queryByRole('button', { name: 'Read the saved copy' })).toBeNull();
  });

  it('says so for a portal address it cannot read', () => {
    renderPortal('/client/%20/project/p1', {});
    expect(
      screen.getByRole('heading', { level: 1, name: 'This portal link is not valid' }),
    ).toBeDefined();
  });
});
