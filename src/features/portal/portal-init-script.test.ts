import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { portalInitScript } from './portal-init-script.ts';
import { createPortalHistory } from './portal-history.ts';
import { accessPath } from './portal-location.ts';
import { portalInactivityLimitMs, writePortalSession } from './portal-session.ts';

const projectId = '0192f3a0-0000-7000-8000-0000000000aa';
const clientId = '0192f3a0-0000-7000-8000-0000000000bb';
const projectPath = `/client/${clientId}/project/${projectId}`;
const NOW = 1_700_000_000_000;

const script = portalInitScript({
  themeStorageKey: 'satchel-theme',
  gateTitle: 'Client access — Satchel',
});

/** Runs the init script at `path` and answers what it chose, with the address it left. */
function runAt(path: string) {
  window.history.replaceState(null, '', path);
  document.title = 'Your project — Satchel';
  // The script's own text, as the page runs it: evaluating it is the point of this test.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  new Function(script)();
  return {
    page: document.documentElement.getAttribute('data-portal-page'),
    address: window.location.pathname + window.location.search,
    title: document.title,
  };
}

/** What the portal's own history makes of the same address and storage. */
function historyAt(path: string) {
  window.history.replaceState(null, '', path);
  const history = createPortalHistory({
    location: window.location,
    history: window.history,
    events: window,
    storage: localStorage,
    now: Date.now,
  });
  return {
    page: history.page()?.page ?? null,
    address: window.location.pathname + window.location.search,
  };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  localStorage.clear();
  // A project page asks for its first answers (portal-prefetch.test.ts): never sent here.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => new Promise(() => undefined)),
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.documentElement.removeAttribute('data-portal-page');
  window.history.replaceState(null, '', '/');
});

describe('portalInitScript', () => {
  it('shows a project page with a live session for it, as the portal does', () => {
    writePortalSession(localStorage, { projectId, clientId, lastActivity: NOW - 60_000 });
    expect(runAt(projectPath)).toEqual({
      page: 'project',
      address: projectPath,
      title: 'Your project — Satchel',
    });
    expect(historyAt(projectPath)).toEqual({ page: 'project', address: projectPath });
  });

  it('turns a project page without a live session into its gate, as the portal does', () => {
    for (const session of [
      null,
      { projectId: 'another', clientId, lastActivity: NOW },
      { projectId, clientId: 'another', lastActivity: NOW },
      { projectId, clientId, lastActivity: NOW - portalInactivityLimitMs },
      { projectId, clientId, lastActivity: NOW + 120_000 },
    ]) {
      localStorage.clear();
      if (session) writePortalSession(localStorage, session);
      const label = JSON.stringify(session);
      expect(runAt(projectPath), label).toEqual({
        page: 'gate',
        address: accessPath(clientId, projectId),
        title: 'Client access — Satchel',
      });
      expect(historyAt(projectPath), label).toEqual({
        page: 'access',
        address: accessPath(clientId, projectId),
      });
    }
    localStorage.setItem('client_access_session', '{not json');
    expect(runAt(projectPath).page).toBe('gate');
  });

  it('marks a gate without two ids of the right shape, and an id it cannot read', () => {
    expect(runAt(accessPath(clientId, projectId)).page).toBe('gate');
    expect(runAt('/client-access').page).toBe('gate-incomplete');
    expect(runAt(`/client-access?projectId=${projectId}&clientId=abc`).page).toBe(
      'gate-incomplete',
    );
    expect(runAt('/client/%20/project/p1')).toMatchObject({
      page: 'invalid',
      address: '/client/%20/project/p1',
    });
    expect(historyAt('/client/%20/project/p1').page).toBeNull();
  });

  it('applies the stored colour theme before the first paint', () => {
    localStorage.setItem('satchel-theme', 'dark');
    runAt(projectPath);
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    localStorage.setItem('satchel-theme', 'light');
    runAt(projectPath);
    expect(document.documentElement.classList.contains('light')).toBe(true);
  });
});
