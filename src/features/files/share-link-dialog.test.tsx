import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { FileShareLink } from '#contract/endpoints/file-share-link.ts';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WorkspaceSubscription } from '#contract/endpoints/subscription.ts';
import { saveSubscription } from '../billing/workspace-plan.ts';
import { fileRow } from './files-test-utils.tsx';
import { downloadsWords, linkState, ShareLinkDialog } from './share-link-dialog.tsx';

afterEach(cleanup);
afterEach(() => localStorage.clear());

const file = {
  ...fileRow('p-1', { name: 'logo.png', type: 'image/png' }),
  id: crypto.randomUUID(),
};
const hour = 3_600_000;

function link(overrides: Partial<FileShareLink> = {}): FileShareLink {
  return {
    id: crypto.randomUUID(),
    fileId: file.id,
    projectId: 'p-1',
    url: `https://app.example/shared/${'t'.repeat(43)}`,
    createdAt: new Date(Date.now() - hour).toISOString(),
    createdBy: 'u-1',
    createdByName: 'Ada',
    expiresAt: new Date(Date.now() + 24 * hour).toISOString(),
    maxDownloads: null,
    downloadCount: 0,
    lastDownloadedAt: null,
    hasPassword: false,
    revokedAt: null,
    ...overrides,
  };
}

/** A fake API edge: answers each operation from `handlers`, recording the calls. */
function fakeApi(handlers: Record<string, (input: any) => unknown>) {
  const calls: { operation: string; input: any }[] = [];
  const callEndpoint = vi.fn((endpoint: { operation: string }, input: unknown) => {
    calls.push({ operation: endpoint.operation, input });
    const handler = handlers[endpoint.operation];
    // Answered later, as the network would; a handler's throw is a rejection.
    return Promise.resolve().then(() => {
      if (!handler) throw new Error(`unexpected ${endpoint.operation}`);
      return handler(input);
    });
  });
  return { callEndpoint: callEndpoint as unknown as CallEndpoint, calls };
}

describe('share link words', () => {
  it('says which links still work and how much they were used', () => {
    const now = Date.now();
    expect(linkState(link(), now)).toBe('active');
    expect(linkState(link({ revokedAt: new Date().toISOString() }), now)).toBe('revoked');
    expect(linkState(link({ expiresAt: new Date(now - 1).toISOString() }), now)).toBe('expired');
    expect(linkState(link({ maxDownloads: 2, downloadCount: 2 }), now)).toBe('used-up');
    expect(downloadsWords(link({ downloadCount: 1 }))).toBe('1 download');
    expect(downloadsWords(link({ downloadCount: 2, maxDownloads: 5 }))).toBe('2 downloads of 5');
  });
});

/** The device's saved plan for the file's workspace (what Settings > Billing leaves behind). */
const knownPlan = (plan: 'free' | 'pro') =>
  saveSubscription({ workspaceId: file.workspaceId, plan } as WorkspaceSubscription);

const planRefusal = Object.assign(new Error('refused'), {
  status: 422,
  body: {
    error: {
      code: 'BUSINESS_RULE',
      message:
        'The Free plan does not include share links. Share the file with your client in the client portal, or upgrade for expiring links.',
      details: { limit: 'shareLinks', plan: 'free', upgradePath: '/settings?tab=billing' },
      requestId: 'r',
    },
  },
});

describe('ShareLinkDialog', () => {
  beforeEach(() => knownPlan('pro'));

  it('lists the links, creates one with a cap and password, copies it and moves focus to it', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const old = link({ revokedAt: new Date().toISOString(), downloadCount: 4 });
    const made = link({ maxDownloads: 3, hasPassword: true });
    const { callEndpoint, calls } = fakeApi({
      'get-file-share-links': () => ({ links: [old] }),
      'create-file-share-link': () => ({ link: made }),
    });
    render(<ShareLinkDialog file={file} online callEndpoint={callEndpoint} onClose={vi.fn()} />);
    expect(
      await screen.findByRole('listitem', { name: 'Turned off link, 4 downloads' }),
    ).toBeTruthy();

    await user.type(screen.getByRole('textbox', { name: 'Download limit' }), '3');
    await user.type(screen.getByLabelText('Password (optional)'), 'blue whale');
    await user.click(screen.getByRole('button', { name: 'Create link' }));

    const row = await screen.findByRole('listitem', { name: 'Active link, 0 downloads of 3' });
    expect(calls.find((call) => call.operation === 'create-file-share-link')?.input).toEqual({
      query: {},
      body: { fileId: file.id, expiryMinutes: 10_080, maxDownloads: 3, password: 'blue whale' },
    });
    expect(writeText).toHaveBeenCalledWith(made.url);
    await waitFor(() => expect(document.activeElement).toBe(row));
    expect(screen.getByRole('status').textContent).toBe('Link created and copied.');
    expect(within(row).getByText('Password')).toBeTruthy();
  });

  it('refuses a download limit of 0 beside the field without asking the server', async () => {
    const user = userEvent.setup();
    const { callEndpoint, calls } = fakeApi({ 'get-file-share-links': () => ({ links: [] }) });
    render(<ShareLinkDialog file={file} online callEndpoint={callEndpoint} onClose={vi.fn()} />);
    await screen.findByText(/No links yet/);
    await user.type(screen.getByRole('textbox', { name: 'Download limit' }), '0');
    await user.click(screen.getByRole('button', { name: 'Create link' }));
    expect(await screen.findByText('Allow at least 1 download')).toBeTruthy();
    expect(calls.map((call) => call.operation)).toEqual(['get-file-share-links']);
  });

  it('turns a link off after a confirmation, and keeps focus on that link', async () => {
    const user = userEvent.setup();
    const live = link({ downloadCount: 1 });
    const { callEndpoint, calls } = fakeApi({
      'get-file-share-links': () => ({ links: [live] }),
      'revoke-file-share-link': () => ({
        link: { ...live, revokedAt: new Date().toISOString() },
      }),
    });
    render(<ShareLinkDialog file={file} online callEndpoint={callEndpoint} onClose={vi.fn()} />);
    const row = await screen.findByRole('listitem', { name: 'Active link, 1 download' });
    await user.click(within(row).getByRole('button', { name: 'Turn off…' }));
    expect(calls.some((call) => call.operation === 'revoke-file-share-link')).toBe(false);
    await user.click(within(row).getByRole('button', { name: 'Turn off' }));
    const after = await screen.findByRole('listitem', { name: 'Turned off link, 1 download' });
    expect(calls.at(-1)?.input).toEqual({ query: { id: live.id } });
    await waitFor(() => expect(document.activeElement).toBe(after));
    expect(within(after).queryByRole('button', { name: 'Copy link' })).toBeNull();
  });

  it('offline, says links need a connection and asks nothing', () => {
    const { callEndpoint, calls } = fakeApi({});
    render(
      <ShareLinkDialog file={file} online={false} callEndpoint={callEndpoint} onClose={vi.fn()} />,
    );
    expect(screen.getByText(/You’re offline\. Share links live on the server/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create link' })).toBeNull();
    expect(calls).toEqual([]);
  });

  it('shows the server’s refusal of a load with Try again', async () => {
    const user = userEvent.setup();
    let fail = true;
    const { callEndpoint } = fakeApi({
      'get-file-share-links': () => {
        if (fail) {
          fail = false;
          throw Object.assign(new Error('No such file.'), {
            status: 404,
            body: { error: { code: 'NOT_FOUND', message: 'No such file.', requestId: 'r' } },
          });
        }
        return { links: [] };
      },
    });
    render(<ShareLinkDialog file={file} online callEndpoint={callEndpoint} onClose={vi.fn()} />);
    expect((await screen.findByRole('alert')).textContent).toContain('No such file.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/No links yet/)).toBeTruthy();
  });

  it('on Free (the server asked, the device knew no plan), offers the portal and the upgrade instead of the form; links stay listed', async () => {
    localStorage.clear();
    const onClose = vi.fn();
    const old = link({ downloadCount: 2 });
    const { callEndpoint, calls } = fakeApi({
      'get-file-share-links': () => ({ links: [old] }),
      'get-subscription': ({ query }) => ({ workspaceId: query.workspaceId, plan: 'free' }),
    });
    render(<ShareLinkDialog file={file} online callEndpoint={callEndpoint} onClose={onClose} />);
    expect(await screen.findByText(/The Free plan does not include share links/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create link' })).toBeNull();
    expect(screen.getByRole('link', { name: 'See plans and upgrade' }).getAttribute('href')).toBe(
      '/settings?tab=billing',
    );
    expect(await screen.findByRole('listitem', { name: 'Active link, 2 downloads' })).toBeTruthy();
    expect(calls.map((call) => call.operation).sort()).toEqual([
      'get-file-share-links',
      'get-subscription',
    ]);
  });

  it('a plan bought on another device lifts the refusal: the server is asked before refusing', async () => {
    knownPlan('free');
    const { callEndpoint } = fakeApi({
      'get-file-share-links': () => ({ links: [] }),
      'get-subscription': ({ query }) => ({ workspaceId: query.workspaceId, plan: 'pro' }),
    });
    render(<ShareLinkDialog file={file} online callEndpoint={callEndpoint} onClose={vi.fn()} />);
    await screen.findByText(/No links yet/);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create link' })).toBeTruthy());
    expect(screen.queryByText(/does not include share links/)).toBeNull();
  });

  it('the server’s plan refusal of a new link swaps the form for the upgrade', async () => {
    const user = userEvent.setup();
    const { callEndpoint } = fakeApi({
      'get-file-share-links': () => ({ links: [] }),
      'create-file-share-link': () => {
        throw planRefusal;
      },
    });
    render(<ShareLinkDialog file={file} online callEndpoint={callEndpoint} onClose={vi.fn()} />);
    await screen.findByText(/No links yet/);
    await user.click(screen.getByRole('button', { name: 'Create link' }));
    expect(await screen.findByText(/The Free plan does not include share links/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create link' })).toBeNull();
    expect(screen.getByRole('link', { name: 'See plans and upgrade' })).toBeTruthy();
  });
});
