import {
  getClientProject,
  getPortalChangeRequests,
  getPortalFiles,
  getPortalMilestones,
  getPortalWorkspaceSettings,
} from '#contract/endpoints/client-portal.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../api-client/call-endpoint.ts';
import { portalInitScript } from '../features/portal/portal-init-script.ts';
import {
  PORTAL_PREFETCH_GLOBAL,
  prefetchingFetch,
  type PrefetchStore,
} from '../features/portal/portal-prefetch.ts';
import { writePortalSession } from '../features/portal/portal-session.ts';

const projectId = '0192f3a0-0000-7000-8000-0000000000aa';
const clientId = '0192f3a0-0000-7000-8000-0000000000bb';
const workspaceId = '0192f3a0-0000-7000-8000-0000000000cc';

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  window.history.replaceState(null, '', '/');
  delete (window as unknown as Record<string, unknown>)[PORTAL_PREFETCH_GLOBAL];
});

/** Runs the page's init script on a project page with a live session; answers what it asked. */
async function initScriptRequests() {
  const asked: { url: string; accept: string | null }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      asked.push({ url, accept: new Headers(init.headers).get('Accept') });
      return Promise.resolve(json({ project: { workspaceId } }));
    }),
  );
  writePortalSession(localStorage, { projectId, clientId, lastActivity: Date.now() });
  window.history.replaceState(null, '', `/client/${clientId}/project/${projectId}`);
  const script = portalInitScript({ themeStorageKey: 'satchel-theme', gateTitle: 'Client access' });
  // The script's own text, as the page runs it: evaluating it is the point of this test.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  new Function(script)();
  await vi.waitFor(() => expect(asked).toHaveLength(5));
  return asked;
}

describe('the init script’s first answers', () => {
  it('asks for what the project page asks first, at the addresses the API client uses', async () => {
    const asked = await initScriptRequests();
    const store = (window as unknown as Record<string, PrefetchStore>)[PORTAL_PREFETCH_GLOBAL]!;

    const appAsked: string[] = [];
    const { callEndpoint } = createApiClient({
      baseUrl: '',
      fetch: (input) => {
        appAsked.push(typeof input === 'string' ? input : String((input as Request).url));
        return Promise.resolve(json({}));
      },
    });
    await Promise.allSettled([
      callEndpoint(getClientProject, { query: { id: projectId } }),
      callEndpoint(getPortalMilestones, { query: { projectId } }),
      callEndpoint(getPortalFiles, { query: { projectId } }),
      callEndpoint(getPortalChangeRequests, { query: { projectId } }),
      callEndpoint(getPortalWorkspaceSettings, { query: { workspaceId } }),
    ]);
    expect(asked.map((request) => request.url).sort()).toEqual(appAsked.sort());
    expect(Object.keys(store).sort()).toEqual(appAsked.sort());
    expect(asked.every((request) => request.accept === 'application/json')).toBe(true);
  });

  it('asks for nothing on the gate', () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    window.history.replaceState(null, '', `/client/${clientId}/project/${projectId}`);
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    new Function(portalInitScript({ themeStorageKey: 't', gateTitle: 'g' }))();
    expect(fetch).not.toHaveBeenCalled();
    expect((window as unknown as Record<string, unknown>)[PORTAL_PREFETCH_GLOBAL]).toBeUndefined();
  });
});

describe('the init script asks for nothing', () => {
  it('for a project id the API client would refuse without a request', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    writePortalSession(localStorage, {
      projectId: 'p-7',
      clientId: 'c-9',
      lastActivity: Date.now(),
    });
    window.history.replaceState(null, '', '/client/c-9/project/p-7');
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    new Function(portalInitScript({ themeStorageKey: 't', gateTitle: 'g' }))();
    expect(document.documentElement.getAttribute('data-portal-page')).toBe('project');
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('prefetchingFetch', () => {
  it('answers a GET from the store once, anything else from the network', async () => {
    const early = Promise.resolve(json({ from: 'early' }));
    const store: PrefetchStore = { '/api/x?a=1': early };
    const network = vi.fn((_input: RequestInfo | URL, _init?: RequestInit) =>
      Promise.resolve(json({ from: 'network' })),
    );
    const fetch = prefetchingFetch(network, store);
    expect(await fetch('/api/x?a=1', { method: 'GET' })).toBe(await early);
    await fetch('/api/x?a=1', { method: 'GET' });
    await fetch('/api/x?a=2');
    await fetch('/api/x?a=1', { method: 'POST' });
    expect(network.mock.calls.map(([url, init]) => [url, init?.method])).toEqual([
      ['/api/x?a=1', 'GET'],
      ['/api/x?a=2', undefined],
      ['/api/x?a=1', 'POST'],
    ]);
    // Without a store (no init script, or not a project page): the network.
    await prefetchingFetch(network, undefined)('/api/x?a=1');
    expect(network).toHaveBeenCalledTimes(4);
  });
});
