import { describe, expect, it, vi } from 'vitest';
import { createPortalHistory } from './portal-history.ts';
import { accessPath, matchPortalPage } from './portal-location.ts';
import { portalInactivityLimitMs, writePortalSession } from './portal-session.ts';
import { memoryStorage } from './portal-test-api.ts';

const projectId = '0192f3a0-0000-7000-8000-0000000000aa';
const clientId = '0192f3a0-0000-7000-8000-0000000000bb';
const projectPath = `/client/${clientId}/project/${projectId}`;

describe('matchPortalPage', () => {
  it('reads the gate’s search values as the app’s route did', () => {
    expect(
      matchPortalPage({
        pathname: '/client-access',
        search: `?projectId=${projectId}&clientId=${clientId}&redirect=${encodeURIComponent(projectPath)}`,
      }),
    ).toEqual({ page: 'access', projectId, clientId, redirect: projectPath });
    // Repeated or overlong values are as good as missing.
    expect(
      matchPortalPage({
        pathname: '/client-access/',
        search: `?projectId=a&projectId=b&clientId=${'x'.repeat(2049)}`,
      }),
    ).toEqual({ page: 'access', projectId: undefined, clientId: undefined, redirect: undefined });
  });

  it('reads a project page’s ids, decoded and trimmed, and nothing else', () => {
    expect(matchPortalPage({ pathname: projectPath, search: '' })).toEqual({
      page: 'project',
      clientId,
      projectId,
    });
    expect(matchPortalPage({ pathname: '/client/c%201/project/p1/', search: '' })).toEqual({
      page: 'project',
      clientId: 'c 1',
      projectId: 'p1',
    });
    for (const pathname of [
      '/client/%20/project/p1',
      `/client/c1/project/${'p'.repeat(129)}`,
      '/client/%E0%A4%A/project/p1',
      '/client/c1',
      '/client/c1/project/p1/more',
      '/dashboard',
    ]) {
      expect(matchPortalPage({ pathname, search: '' }), pathname).toBeNull();
    }
  });

  it('writes the gate’s address for a project as the app’s router did', () => {
    expect(accessPath(clientId, projectId)).toBe(
      `/client-access?projectId=${projectId}&clientId=${clientId}&redirect=%2Fclient%2F${clientId}%2Fproject%2F${projectId}`,
    );
  });
});

function fakeWindow(path: string) {
  const url = new URL(path, 'https://satchel.test');
  const location = {
    get pathname() {
      return url.pathname;
    },
    get search() {
      return url.search;
    },
    get href() {
      return url.href;
    },
  };
  const history = {
    state: null,
    replaceState: vi.fn((_state: unknown, _unused: string, next: string) => {
      const to = new URL(next, url);
      url.pathname = to.pathname;
      url.search = to.search;
    }),
  };
  const target = new EventTarget();
  return { location, history, events: target as unknown as Window, target };
}

describe('createPortalHistory', () => {
  it('sends a project page without a live session for it to its gate, replacing the entry', () => {
    const win = fakeWindow(projectPath);
    const storage = memoryStorage();
    const history = createPortalHistory({ ...win, storage, now: () => 10_000_000 });
    expect(win.location.href).toBe(`https://satchel.test${accessPath(clientId, projectId)}`);
    expect(history.page()).toMatchObject({ page: 'access', projectId, clientId });

    // Another project's session, or one idle for 30 minutes, is no session for this page.
    writePortalSession(storage, { projectId: 'other', clientId, lastActivity: 10_000_000 });
    history.replace(projectPath);
    expect(history.page()).toMatchObject({ page: 'access' });
    writePortalSession(storage, {
      projectId,
      clientId,
      lastActivity: 10_000_000 - portalInactivityLimitMs,
    });
    history.replace(projectPath);
    expect(history.page()).toMatchObject({ page: 'access' });
  });

  it('shows a project page with a live session, and tells its listeners of every change', () => {
    const win = fakeWindow(accessPath(clientId, projectId));
    const storage = memoryStorage();
    const scrollTo = vi.fn();
    const history = createPortalHistory({ ...win, storage, now: () => 5_000, scrollTo });
    const listener = vi.fn();
    const stop = history.subscribe(listener);

    writePortalSession(storage, { projectId, clientId, lastActivity: 5_000 });
    history.replace(projectPath);
    expect(history.page()).toEqual({ page: 'project', clientId, projectId });
    expect(win.history.replaceState).toHaveBeenLastCalledWith(null, '', projectPath);
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    expect(listener).toHaveBeenCalledTimes(1);

    // Back or forward to another address is read again.
    win.history.replaceState(null, '', '/client-access');
    win.target.dispatchEvent(new Event('popstate'));
    expect(history.page()).toMatchObject({ page: 'access', projectId: undefined });
    expect(listener).toHaveBeenCalledTimes(2);
    stop();
    win.target.dispatchEvent(new Event('popstate'));
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
