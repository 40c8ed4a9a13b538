import type { PortalChangeRequest, PortalMilestone } from '#contract/endpoints/client-portal.ts';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readPortalOutbox } from './portal-outbox.ts';
import type { PortalFileCopies } from './portal-file-copies.ts';
import { PortalProjectScreen } from './portal-project-screen.tsx';
import { portalSessionStorageKey, readPortalSession } from './portal-session.ts';
import { readPortalSnapshot, writePortalSnapshot } from './portal-snapshot.ts';
import { readPortalSavedPart, writePortalSavedPart } from './portal-saved-parts.ts';
import {
  apiError,
  fakeBrowserOnline,
  fakePortalApi,
  memoryStorage,
  portalChangeRequest,
} from './portal-test-api.ts';
import {
  sampleClientId,
  sampleFiles,
  sampleMilestones,
  sampleProject,
  sampleProjectId,
  sampleWorkspace,
  sampleWorkspaceId,
} from './portal-test-samples.ts';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** axe over what is rendered; colour contrast needs a real browser (the e2e and screenshot runs). */
async function expectNoAxeViolations() {
  const { violations } = await axe.run(
    // react-aria's live announcer keeps its messages in the body for a while: not the page's.
    { include: [document.body], exclude: [['[data-live-announcer]']] },
    { rules: { 'color-contrast': { enabled: false } } },
  );
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([]);
}

const projectId = sampleProjectId;
const clientId = sampleClientId;
const workspaceId = sampleWorkspaceId;
const project = sampleProject();
const milestones = sampleMilestones('in_progress');
const files = sampleFiles().slice(0, 1);
const workspace = sampleWorkspace();

const quoted = portalChangeRequest({
  id: '0192f3a0-0000-4000-8000-000000000c01',
  title: 'Add a gift card page',
  description: 'Customers keep asking for one.',
  desiredDate: '2026-04-15',
  status: 'quoted',
  costImpact: 50_000,
  currency: 'EUR',
  scheduleImpactDays: 5,
  answer: 'Two more screens and the payment setup.',
  createdAt: '2026-03-10T10:00:00.000Z',
});
const fresh = portalChangeRequest({
  id: '0192f3a0-0000-4000-8000-000000000c02',
  title: 'Bigger logo',
  createdAt: '2026-03-11T10:00:00.000Z',
});
const decided = portalChangeRequest({
  id: '0192f3a0-0000-4000-8000-000000000c03',
  title: 'Dark footer',
  status: 'quote_declined',
  costImpact: -2_000,
  scheduleImpactDays: 0,
  clientDecision: { decision: 'declined', at: '2026-03-09T12:00:00.000Z', comment: 'Not now' },
  source: 'member',
  createdAt: '2026-03-08T10:00:00.000Z',
});
const changeRequests: PortalChangeRequest[] = [fresh, quoted, decided];
const newRequestId = '0192f3a0-0000-4000-8000-000000000c99';

/** The answers of `loads` page loads. */
const online = (loads = 1) => {
  const times = <T,>(answer: () => T) => Array.from({ length: loads }, () => answer);
  return {
    'get-client-project': times(() => ({ project })),
    'get-project-milestones': times(() => ({ milestones })),
    'get-project-files': times(() => ({ files })),
    'get-workspace-settings': times(() => ({ workspace })),
    'get-change-requests': times(() => ({ changeRequests })),
  };
};

/** The same answer to each read a page load sends at once (the workspace's waits on the project). */
const everyRead = (answer: () => unknown) => ({
  'get-client-project': [answer],
  'get-project-milestones': [answer],
  'get-project-files': [answer],
  'get-change-requests': [answer],
});

const region = (name: string) => screen.getByRole('region', { name });
const itemOf = (list: HTMLElement, title: string) => {
  const item = within(list)
    .getAllByRole('listitem')
    .find((li) => li.querySelector('h3')?.textContent === title);
  if (!item) throw new Error(`no item ${title}`);
  return item;
};

/** File copies in memory, as Cache Storage would keep them (portal-file-copies.ts is tested apart). */
function memoryFileCopies(): PortalFileCopies & { bytes: Map<string, Blob> } {
  const bytes = new Map<string, Blob>();
  const key = (projectId: string, id: string, version: number) => `${projectId}/${id}/${version}`;
  return {
    bytes,
    kept: (pid) =>
      Promise.resolve(
        new Map(
          [...bytes.keys()]
            .filter((k) => k.startsWith(`${pid}/`))
            .map((k) => [k.split('/')[1] ?? '', Number(k.split('/')[2])]),
        ),
      ),
    keep: (pid, file, blob) => {
      bytes.set(key(pid, file.id, file.version), blob);
      return Promise.resolve();
    },
    open: (pid, file) => Promise.resolve(bytes.get(key(pid, file.id, file.version)) ?? null),
    forget: (pid) => {
      for (const k of [...bytes.keys()]) if (k.startsWith(`${pid}/`)) bytes.delete(k);
      return Promise.resolve();
    },
  };
}

function renderPortal(
  answers: Parameters<typeof fakePortalApi>[0],
  storage = memoryStorage(),
  files: {
    fileCopies?: PortalFileCopies;
    fetchFile?: (url: string) => Promise<Blob>;
  } = {},
) {
  storage.setItem(
    portalSessionStorageKey,
    JSON.stringify({ projectId, clientId, lastActivity: Date.now() }),
  );
  const api = fakePortalApi(answers);
  const toGate = vi.fn();
  const startDownload = vi.fn();
  const saveFile = vi.fn();
  // The portal layout puts the page in <main>.
  render(
    <main>
      <PortalProjectScreen
        projectId={projectId}
        clientId={clientId}
        callEndpoint={api.callEndpoint}
        toGate={toGate}
        startDownload={startDownload}
        storage={storage}
        newId={() => newRequestId}
        fileCopies={files.fileCopies ?? memoryFileCopies()}
        fetchFile={files.fetchFile ?? (() => Promise.reject(new TypeError('Failed to fetch')))}
        saveFile={saveFile}
      />
    </main>,
  );
  return { ...api, toGate, startDownload, saveFile, storage };
}

/** Invoices and chat as an earlier visit kept them. */
function saveInvoicesAndChat(storage: Storage) {
  const savedAt = Date.parse('2026-03-12T09:30:00.000Z');
  writePortalSavedPart(storage, projectId, 'invoices', {
    savedAt,
    answer: {
      invoices: [
        {
          id: '0192f3a0-0000-4000-8000-000000000e01',
          number: 3,
          title: 'Sketches',
          currency: 'EUR',
          issueDate: '2026-03-11',
          dueDate: '2026-04-10',
          lines: [
            {
              id: 'l1',
              description: 'Sketches',
              quantity: 1,
              unitPrice: 120_000,
              taxRate: 0,
              discountPercent: 0,
            },
          ],
          notes: null,
          total: 120_000,
          paid: 0,
          due: 120_000,
          state: 'sent',
          payable: true,
        },
      ],
      paymentInstructions: null,
    },
  });
  writePortalSavedPart(storage, projectId, 'chat', {
    savedAt,
    messages: [
      {
        id: '0192f3a0-0000-4000-8000-000000000e02',
        text: 'The sketches are in Files',
        authorKind: 'member',
        authorName: 'Ada',
        seq: 4,
        createdAt: '2026-03-12T09:00:00.000Z',
        editedAt: null,
      },
    ],
    hasOlder: false,
  });
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
    expect(readPortalSnapshot(portal.storage, projectId)?.changeRequests).toEqual(changeRequests);
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

  it('keeps a file it opened on the device and opens that copy again without a new link', async () => {
    const user = userEvent.setup();
    const copies = memoryFileCopies();
    const fetched: string[] = [];
    const portal = renderPortal(
      {
        ...online(),
        'generate-sas-url': [() => ({ sasUrl: 'http://x/files/d/b?sig=1', expiresAt: '' })],
      },
      memoryStorage(),
      {
        fileCopies: copies,
        fetchFile: (url) => {
          fetched.push(url);
          return Promise.resolve(new Blob(['%PDF handover']));
        },
      },
    );
    const button = await screen.findByRole('button', { name: 'Download handover.pdf' });
    await user.click(button);
    await waitFor(() => expect(portal.saveFile).toHaveBeenCalledTimes(1));
    expect(portal.saveFile.mock.calls[0]?.[1]).toBe('handover.pdf');
    expect(fetched).toEqual(['http://x/files/d/b?sig=1']);
    expect(portal.startDownload).not.toHaveBeenCalled();
    expect(await screen.findByText('On this device')).toBeTruthy();

    const links = portal.calls.filter((c) => c.operation === 'generate-sas-url').length;
    await user.click(button);
    await waitFor(() => expect(portal.saveFile).toHaveBeenCalledTimes(2));
    expect(await (portal.saveFile.mock.calls[1]?.[0] as Blob).text()).toBe('%PDF handover');
    expect(portal.calls.filter((c) => c.operation === 'generate-sas-url')).toHaveLength(links);

    await user.click(screen.getByRole('button', { name: 'Leave portal' }));
    await waitFor(() => expect(portal.toGate).toHaveBeenCalled());
    expect(copies.bytes.size).toBe(0);
  });

  it('Keep offline keeps a copy without downloading it, and focus stays in the row', async () => {
    const user = userEvent.setup();
    const copies = memoryFileCopies();
    const portal = renderPortal(
      {
        ...online(),
        'generate-sas-url': [() => ({ sasUrl: 'http://x/files/d/b?sig=1', expiresAt: '' })],
      },
      memoryStorage(),
      { fileCopies: copies, fetchFile: () => Promise.resolve(new Blob(['%PDF handover'])) },
    );
    await user.click(
      await screen.findByRole('button', { name: 'Keep handover.pdf on this device' }),
    );
    expect(await screen.findByText('On this device')).toBeTruthy();
    expect(copies.bytes.size).toBe(1);
    expect(portal.saveFile).not.toHaveBeenCalled();
    expect(portal.startDownload).not.toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Keep handover.pdf on this device' })).toBeNull();
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('button', { name: 'Download handover.pdf' }),
      ),
    );
  });

  it("names a change request's attachments the client can see, each a download", async () => {
    const user = userEvent.setup();
    const withFiles = portalChangeRequest({
      id: '0192f3a0-0000-4000-8000-000000000c05',
      title: 'Use this photo',
      attachmentFileIds: [files[0]!.id, '0192f3a0-0000-7000-8000-00000000dead'],
      createdAt: '2026-03-13T10:00:00.000Z',
    });
    const portal = renderPortal({
      ...online(),
      'get-change-requests': [() => ({ changeRequests: [withFiles] })],
      'generate-sas-url': [() => ({ sasUrl: 'http://x/files/d/b?sig=2', expiresAt: '' })],
    });
    const item = await waitFor(() => itemOf(region('Change requests'), 'Use this photo'));
    const attachments = within(item).getByRole('list', { name: 'Attachments' });
    expect(within(attachments).getAllByRole('listitem')).toHaveLength(1);
    await user.click(within(attachments).getByRole('button', { name: 'Download handover.pdf' }));
    await waitFor(() =>
      expect(portal.startDownload).toHaveBeenCalledWith('http://x/files/d/b?sig=2'),
    );
  });

  it('offline, shows what the client last saw, as of when', async () => {
    const storage = memoryStorage();
    writePortalSnapshot(storage, {
      savedAt: Date.parse('2026-03-12T09:30:00.000Z'),
      project,
      milestones,
      files,
      workspace,
      changeRequests,
    });
    const offline = () => Promise.reject(apiError(0, 'Failed to fetch'));
    renderPortal(everyRead(offline), storage);
    expect(screen.getByRole('heading', { level: 1, name: 'Shop front' })).toBeTruthy();
    await waitFor(() => expect(screen.getByText(/You’re offline\./)).toBeTruthy());
    expect(screen.getByText(/Showing your project as of/)).toBeTruthy();
    expect(screen.getByText('handover.pdf')).toBeTruthy();
    // The change requests the client last saw are part of the copy; answering needs a connection.
    const requests = region('Change requests');
    expect(within(requests).getByText('Add a gift card page')).toBeTruthy();
    expect(
      within(itemOf(requests, 'Add a gift card page'))
        .getByRole('button', { name: /Accept quote/ })
        .hasAttribute('disabled'),
    ).toBe(true);
    expect(within(requests).getByText(/answering a quote needs a connection/)).toBeTruthy();
    expect(
      within(itemOf(region('Milestones'), 'Final art'))
        .getByRole('button', { name: /Approve/ })
        .hasAttribute('disabled'),
    ).toBe(true);
    expect(screen.getByText('You’re offline: sign-off needs a connection')).toBeTruthy();
  });

  it('reads a copy saved before change requests were kept as having none', () => {
    const storage = memoryStorage();
    storage.setItem(
      `satchel-portal-snapshot:${projectId}`,
      JSON.stringify({ savedAt: 1, project, milestones, files, workspace }),
    );
    expect(readPortalSnapshot(storage, projectId)?.changeRequests).toEqual([]);
  });

  it('offline with nothing saved yet says so, with Try again', async () => {
    const user = userEvent.setup();
    const offline = () => Promise.reject(apiError(0, 'Failed to fetch'));
    renderPortal({
      'get-client-project': [offline, () => ({ project })],
      'get-project-milestones': [offline, () => ({ milestones })],
      'get-project-files': [offline, () => ({ files })],
      'get-workspace-settings': [() => ({ workspace })],
      'get-change-requests': [offline, () => ({ changeRequests })],
    });
    expect(await screen.findByRole('heading', { name: 'You’re offline' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Shop front' })).toBeTruthy();
  });

  it('a 401 (the session ended on the server) goes back to the gate and forgets the session', async () => {
    const portal = renderPortal(
      everyRead(() => Promise.reject(apiError(401, 'Your portal session has ended.'))),
    );
    await waitFor(() => expect(portal.toGate).toHaveBeenCalled());
    expect(readPortalSession(portal.storage)).toBeNull();
  });

  it('Leave portal signs out, forgets the saved copy (invoices and chat too) and goes to the gate', async () => {
    const user = userEvent.setup();
    const storage = memoryStorage();
    saveInvoicesAndChat(storage);
    const portal = renderPortal(
      { ...online(), 'sign-out': [() => ({ signedOut: true })] },
      storage,
    );
    await user.click(await screen.findByRole('button', { name: 'Leave portal' }));
    await waitFor(() => expect(portal.toGate).toHaveBeenCalled());
    expect(readPortalSnapshot(portal.storage, projectId)).toBeNull();
    expect(readPortalSavedPart(portal.storage, projectId, 'invoices')).toBeNull();
    expect(readPortalSavedPart(portal.storage, projectId, 'chat')).toBeNull();
    expect(readPortalSession(portal.storage)).toBeNull();
  });

  it('the saved copy read without a session shows the invoices and the chat, nothing sent', async () => {
    const storage = memoryStorage();
    writePortalSnapshot(storage, {
      savedAt: Date.parse('2026-03-12T09:30:00.000Z'),
      project,
      milestones,
      files,
      workspace,
      changeRequests,
    });
    saveInvoicesAndChat(storage);
    const api = fakePortalApi({});
    const toSignIn = vi.fn();
    render(
      <main>
        <PortalProjectScreen
          projectId={projectId}
          clientId={clientId}
          callEndpoint={api.callEndpoint}
          toGate={vi.fn()}
          storage={storage}
          fileCopies={memoryFileCopies()}
          readOnly={{ toSignIn }}
        />
      </main>,
    );
    const invoices = region('Invoices');
    expect(within(invoices).getByText('INV-0003 · Sketches')).toBeTruthy();
    expect(
      within(invoices)
        .getByRole('button', { name: 'Pay €1,200.00 by card' })
        .hasAttribute('disabled'),
    ).toBe(true);
    expect(within(invoices).getByText(/paying needs a connection/)).toBeTruthy();
    const chat = region('Messages');
    expect(within(chat).getByText('The sketches are in Files')).toBeTruthy();
    expect(within(chat).getByText(/the messages saved on this device, as of/)).toBeTruthy();
    expect(within(chat).queryByRole('textbox')).toBeNull();
    expect(api.calls).toEqual([]);
    await expectNoAxeViolations();
  });

  it('empty projects say what will appear', async () => {
    renderPortal({
      'get-client-project': [() => ({ project })],
      'get-project-milestones': [() => ({ milestones: [] })],
      'get-project-files': [() => ({ files: [] })],
      'get-workspace-settings': [() => ({ workspace: { ...workspace, welcomeText: null } })],
      'get-change-requests': [() => ({ changeRequests: [] })],
    });
    expect(await screen.findByText(/No milestones yet/)).toBeTruthy();
    expect(screen.getByText(/No change requests yet/)).toBeTruthy();
    expect(screen.getByText(/No files shared yet/)).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});

describe('PortalProjectScreen: an open page stays current', () => {
  it('asks the server again every minute while shown and online, and not while hidden', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const visibility = vi.spyOn(document, 'visibilityState', 'get');
    try {
      visibility.mockReturnValue('visible');
      const portal = renderPortal(online());
      await screen.findByRole('heading', { level: 1, name: 'Shop front' });
      const loads = () =>
        portal.calls.filter((c) => c.operation === 'get-project-milestones').length;
      expect(loads()).toBe(1);
      await act(async () => {
        vi.advanceTimersByTime(61_000);
        await Promise.resolve();
      });
      await waitFor(() => expect(loads()).toBe(2));

      visibility.mockReturnValue('hidden');
      await act(async () => {
        vi.advanceTimersByTime(5 * 61_000);
        await Promise.resolve();
      });
      expect(loads()).toBe(2);
      // Shown again after longer: at once.
      visibility.mockReturnValue('visible');
      await act(async () => {
        document.dispatchEvent(new Event('visibilitychange'));
        await Promise.resolve();
      });
      await waitFor(() => expect(loads()).toBe(3));
    } finally {
      visibility.mockRestore();
      vi.useRealTimers();
    }
  });
});

describe('PortalProjectScreen: milestone sign-off', () => {
  const approvedFinal: PortalMilestone = {
    ...milestones[1]!,
    status: 'approved',
    signOff: {
      decision: 'approved',
      by: 'Acme Bakery',
      at: '2026-03-13T09:00:00.000Z',
      comment: null,
    },
  };

  it('Approve asks first, sends the decision, shows the record and keeps focus on the milestone', async () => {
    const user = userEvent.setup();
    const portal = renderPortal({
      ...online(),
      'sign-off-milestone': [() => ({ milestone: approvedFinal })],
    });
    await screen.findByRole('heading', { level: 1, name: 'Shop front' });
    // An approved milestone offers nothing more.
    expect(within(itemOf(region('Milestones'), 'Sketches')).queryByRole('button')).toBeNull();
    const final = itemOf(region('Milestones'), 'Final art');
    await user.click(within(final).getByRole('button', { name: /^Approve / }));
    expect(final.textContent).toContain(
      'Approve Final art? Your approval is recorded with the date.',
    );
    const confirm = within(final).getByRole('button', { name: 'Yes, approve' });
    expect(document.activeElement).toBe(confirm);
    await expectNoAxeViolations();
    await user.keyboard('{Enter}');

    await waitFor(() => expect(final.textContent).toContain('Approved by Acme Bakery on'));
    expect(portal.calls.find((c) => c.operation === 'sign-off-milestone')?.input).toEqual({
      query: {},
      body: { projectId, milestoneId: 'm2', decision: 'approved' },
    });
    expect(within(final).queryByRole('button', { name: /^Approve / })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(final));
    expect(
      screen
        .getByRole('progressbar', { name: 'Milestones approved' })
        .getAttribute('aria-valuetext'),
    ).toBe('2 of 2');
    // The offline copy has the answer too.
    expect(readPortalSnapshot(portal.storage, projectId)?.milestones[1]).toEqual(approvedFinal);
  });

  it('shows no sign-off the milestone has moved on from, and names the milestone on each button', async () => {
    renderPortal({
      ...online(),
      'get-project-milestones': [
        () => ({ milestones: [{ ...approvedFinal, status: 'in_progress' as const }] }),
      ],
    });
    await screen.findByRole('heading', { level: 1, name: 'Shop front' });
    const final = itemOf(region('Milestones'), 'Final art');
    // Moved back to In progress by a member: the old approval is not the client's word on it now.
    expect(final.textContent).not.toContain('Approved by');
    expect(within(final).getByRole('button', { name: 'Approve Final art' })).toBeTruthy();
    expect(
      within(final).getByRole('button', { name: 'Ask for changes to Final art' }),
    ).toBeTruthy();
  });

  it('Ask for changes needs a comment, then sends it and shows the request', async () => {
    const user = userEvent.setup();
    const comment = 'Use the darker green from the sign.';
    const portal = renderPortal({
      ...online(),
      'sign-off-milestone': [
        () => ({
          milestone: {
            ...milestones[1]!,
            status: 'changes_requested',
            signOff: {
              decision: 'changes_requested',
              by: 'Acme Bakery',
              at: '2026-03-13T09:00:00.000Z',
              comment,
            },
          },
        }),
      ],
    });
    await screen.findByRole('heading', { level: 1, name: 'Shop front' });
    const final = itemOf(region('Milestones'), 'Final art');
    await user.click(within(final).getByRole('button', { name: /^Ask for changes / }));
    const field = within(final).getByRole('textbox', { name: 'What should change?' });
    expect(document.activeElement).toBe(field);

    await user.click(within(final).getByRole('button', { name: 'Send request for changes' }));
    expect(within(final).getByText('Say what should change')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(portal.calls.some((c) => c.operation === 'sign-off-milestone')).toBe(false);
    await expectNoAxeViolations();

    await user.type(field, `  ${comment} `);
    await user.click(within(final).getByRole('button', { name: 'Send request for changes' }));
    await waitFor(() => expect(final.textContent).toContain(`Changes requested on`));
    expect(final.textContent).toContain(`“${comment}”`);
    expect(portal.calls.find((c) => c.operation === 'sign-off-milestone')?.input).toEqual({
      query: {},
      body: { projectId, milestoneId: 'm2', decision: 'changes_requested', comment },
    });
    // Not approved yet: the client can still approve or ask again.
    expect(within(final).getByRole('button', { name: /^Approve / })).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(final));
  });

  it('Cancel or Escape puts focus back on the button that opened the step', async () => {
    const user = userEvent.setup();
    renderPortal(online());
    await screen.findByRole('heading', { level: 1, name: 'Shop front' });
    const final = itemOf(region('Milestones'), 'Final art');
    await user.click(within(final).getByRole('button', { name: /^Ask for changes / }));
    await user.click(within(final).getByRole('button', { name: 'Cancel' }));
    expect(document.activeElement).toBe(
      within(final).getByRole('button', { name: /^Ask for changes / }),
    );
    // Escape leaves a step too, from the keyboard.
    await user.keyboard('{Enter}');
    expect(document.activeElement?.tagName).toBe('TEXTAREA');
    await user.keyboard('{Escape}');
    await waitFor(() =>
      expect(document.activeElement).toBe(
        within(final).getByRole('button', { name: /^Ask for changes / }),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Ask for a change' }));
    await user.keyboard('{Escape}');
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Ask for a change' })),
    );
  });

  it('shows the server’s refusal next to the milestone', async () => {
    const user = userEvent.setup();
    renderPortal({
      ...online(2),
      'sign-off-milestone': [
        () => Promise.reject(apiError(409, 'This milestone was already signed off.')),
      ],
    });
    await screen.findByRole('heading', { level: 1, name: 'Shop front' });
    const final = itemOf(region('Milestones'), 'Final art');
    await user.click(within(final).getByRole('button', { name: /^Approve / }));
    await user.click(within(final).getByRole('button', { name: 'Yes, approve' }));
    expect((await within(final).findByRole('alert')).textContent).toBe(
      'This milestone was already signed off.',
    );
  });

  it('offline, the sign-off buttons are disabled and say why', async () => {
    const network = fakeBrowserOnline(true);
    renderPortal(online());
    await screen.findByRole('heading', { level: 1, name: 'Shop front' });
    const final = itemOf(region('Milestones'), 'Final art');
    expect(
      within(final)
        .getByRole('button', { name: /^Approve / })
        .hasAttribute('disabled'),
    ).toBe(false);
    network.set(false);
    await waitFor(() =>
      expect(
        within(final)
          .getByRole('button', { name: /^Approve / })
          .hasAttribute('disabled'),
      ).toBe(true),
    );
    expect(
      within(final)
        .getByRole('button', { name: /^Ask for changes / })
        .hasAttribute('disabled'),
    ).toBe(true);
    expect(within(final).getByText('You’re offline: sign-off needs a connection')).toBeTruthy();
    // The page says what it shows is a copy, not "Up to date".
    expect(screen.getByText(/You’re offline\. Showing your project as of/)).toBeTruthy();
    await expectNoAxeViolations();
  });
});

describe('PortalProjectScreen: change requests', () => {
  it('lists them newest first with the quote, the answer and the client’s own decision', async () => {
    renderPortal(online());
    await screen.findByRole('heading', { level: 1, name: 'Shop front' });
    const list = region('Change requests');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('h3')?.textContent),
    ).toEqual(['Bigger logo', 'Add a gift card page', 'Dark footer']);
    const gift = itemOf(list, 'Add a gift card page');
    expect(gift.textContent).toContain('Quote sent');
    expect(gift.textContent).toContain('+€500.00');
    expect(gift.textContent).toContain('+5 days');
    expect(gift.textContent).toContain('Two more screens and the payment setup.');
    expect(within(gift).getByRole('button', { name: 'Accept quote' })).toBeTruthy();
    const footer = itemOf(list, 'Dark footer');
    expect(footer.textContent).toContain('Quote declined');
    expect(footer.textContent).toContain('Added by Studio Ada on');
    expect(footer.textContent).toContain('The quote');
    expect(footer.textContent).toContain('−€20.00');
    expect(footer.textContent).toContain('No change');
    expect(footer.textContent).toMatch(/You declined the quote on .*: “Not now”/);
    expect(within(footer).queryByRole('button')).toBeNull();
    expect(within(itemOf(list, 'Bigger logo')).queryByRole('button')).toBeNull();
    await expectNoAxeViolations();
  });

  it('Ask for a change checks the title, sends the request and focuses it in the list', async () => {
    const user = userEvent.setup();
    const created = portalChangeRequest({
      id: newRequestId,
      title: 'Opening hours banner',
      description: 'For the holidays.',
      desiredDate: '2026-12-01',
      createdAt: '2026-03-14T10:00:00.000Z',
    });
    const portal = renderPortal({
      ...online(),
      'create-change-request': [() => ({ changeRequest: created })],
    });
    await screen.findByRole('heading', { level: 1, name: 'Shop front' });
    await user.click(screen.getByRole('button', { name: 'Ask for a change' }));
    const title = screen.getByRole('textbox', { name: /What would you like to change/ });
    expect(document.activeElement).toBe(title);

    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(screen.getByText('Title is required')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(title));

    await user.type(title, 'x'.repeat(201));
    expect(screen.getByText('201 of 200 characters')).toBeTruthy();
    expect(screen.getByText('Title must be at most 200 characters')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(portal.calls.some((c) => c.operation === 'create-change-request')).toBe(false);
    await expectNoAxeViolations();

    await user.clear(title);
    await user.type(title, 'Opening hours banner');
    await user.type(
      screen.getByRole('textbox', { name: 'Details (optional)' }),
      'For the holidays.',
    );
    await user.type(screen.getByLabelText('Wanted by (optional)'), '2026-12-01');
    await user.click(screen.getByRole('button', { name: 'Send request' }));

    await waitFor(() =>
      expect(portal.calls.find((c) => c.operation === 'create-change-request')?.input).toEqual({
        query: {},
        body: {
          id: newRequestId,
          projectId,
          title: 'Opening hours banner',
          description: 'For the holidays.',
          desiredDate: '2026-12-01',
        },
      }),
    );
    const list = region('Change requests');
    const item = await waitFor(() => itemOf(list, 'Opening hours banner'));
    await waitFor(() => expect(document.activeElement).toBe(item));
    expect(within(list).getAllByRole('listitem')[0]).toBe(item);
    expect(screen.queryByRole('textbox', { name: /What would you like to change/ })).toBeNull();
    expect(readPortalSnapshot(portal.storage, projectId)?.changeRequests[0]).toEqual(created);
  });

  it('a refused request keeps the form and says why beside the field', async () => {
    const user = userEvent.setup();
    renderPortal({
      ...online(),
      'create-change-request': [
        () =>
          Promise.reject(
            Object.assign(apiError(400, 'Invalid input.'), {
              body: {
                error: {
                  code: 'VALIDATION_FAILED',
                  message: 'Invalid input.',
                  details: [{ path: 'body.desiredDate', message: 'Use a date like 2026-03-31' }],
                  requestId: 'r',
                },
              },
            }),
          ),
      ],
    });
    await screen.findByRole('heading', { level: 1, name: 'Shop front' });
    await user.click(screen.getByRole('button', { name: 'Ask for a change' }));
    await user.type(screen.getByRole('textbox', { name: /What would you like/ }), 'Menu page');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('Use a date like 2026-03-31')).toBeTruthy();
    expect(
      screen.getByRole<HTMLInputElement>('textbox', { name: /What would you like/ }).value,
    ).toBe('Menu page');
  });

  it('Accept quote sends the decision and shows the new status, focus on the request', async () => {
    const user = userEvent.setup();
    const portal = renderPortal({
      ...online(),
      'decide-change-request': [
        () => ({
          changeRequest: {
            ...quoted,
            status: 'accepted',
            clientDecision: { decision: 'accepted', at: '2026-03-14T09:00:00.000Z', comment: null },
          },
        }),
      ],
    });
    await screen.findByRole('heading', { level: 1, name: 'Shop front' });
    const gift = itemOf(region('Change requests'), 'Add a gift card page');
    await user.click(within(gift).getByRole('button', { name: 'Accept quote' }));
    expect(gift.textContent).toContain('Accept the quote for Add a gift card page?');
    expect(document.activeElement).toBe(
      within(gift).getByRole('textbox', { name: 'Comment (optional)' }),
    );
    await user.click(within(gift).getByRole('button', { name: 'Accept quote' }));
    await waitFor(() => expect(gift.textContent).toContain('Accepted by client'));
    expect(gift.textContent).toContain('You accepted the quote on');
    expect(portal.calls.find((c) => c.operation === 'decide-change-request')?.input).toEqual({
      query: {},
      body: { id: quoted.id, projectId, decision: 'accepted' },
    });
    expect(within(gift).queryByRole('button', { name: 'Accept quote' })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(gift));
  });

  it('Decline quote sends the optional comment; a 409 says why and reloads', async () => {
    const user = userEvent.setup();
    const portal = renderPortal({
      ...online(2),
      'decide-change-request': [
        () => Promise.reject(apiError(409, 'This quote is no longer waiting for an answer.')),
        () => ({
          changeRequest: {
            ...quoted,
            status: 'quote_declined',
            clientDecision: {
              decision: 'declined',
              at: '2026-03-14T09:00:00.000Z',
              comment: 'Too much for now',
            },
          },
        }),
      ],
    });
    await screen.findByRole('heading', { level: 1, name: 'Shop front' });
    const gift = itemOf(region('Change requests'), 'Add a gift card page');
    await user.click(within(gift).getByRole('button', { name: 'Decline quote' }));
    await user.type(
      within(gift).getByRole('textbox', { name: 'Comment (optional)' }),
      'Too much for now',
    );
    await user.click(within(gift).getByRole('button', { name: 'Decline quote' }));
    expect((await within(gift).findByRole('alert')).textContent).toBe(
      'This quote is no longer waiting for an answer.',
    );
    await waitFor(() =>
      expect(portal.calls.filter((c) => c.operation === 'get-client-project')).toHaveLength(2),
    );

    await user.click(within(gift).getByRole('button', { name: 'Decline quote' }));
    await waitFor(() => expect(gift.textContent).toContain('You declined the quote on'));
    expect(
      portal.calls.filter((c) => c.operation === 'decide-change-request').map((c) => c.input),
    ).toEqual([
      {
        query: {},
        body: { id: quoted.id, projectId, decision: 'declined', comment: 'Too much for now' },
      },
      {
        query: {},
        body: { id: quoted.id, projectId, decision: 'declined', comment: 'Too much for now' },
      },
    ]);
  });
});

describe('PortalProjectScreen: change requests asked for offline', () => {
  it('are kept on the device, shown as waiting, and sent when the browser is back online', async () => {
    const user = userEvent.setup();
    const network = fakeBrowserOnline(true);
    const created = portalChangeRequest({
      id: newRequestId,
      title: 'Menu page',
      createdAt: '2026-03-14T10:00:00.000Z',
    });
    const portal = renderPortal({
      'get-client-project': [() => ({ project }), () => ({ project })],
      'get-project-milestones': [() => ({ milestones }), () => ({ milestones })],
      'get-project-files': [() => ({ files }), () => ({ files })],
      'get-workspace-settings': [() => ({ workspace }), () => ({ workspace })],
      'get-change-requests': [
        () => ({ changeRequests }),
        () => ({ changeRequests: [created, ...changeRequests] }),
      ],
      'create-change-request': [() => ({ changeRequest: created })],
    });
    await screen.findByRole('heading', { level: 1, name: 'Shop front' });
    await waitFor(() => expect(screen.getByText('Up to date')).toBeTruthy());
    network.set(false);

    await user.click(screen.getByRole('button', { name: 'Ask for a change' }));
    expect(screen.getByText(/your request is kept on this device/)).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: /What would you like/ }), 'Menu page');
    await user.click(screen.getByRole('button', { name: 'Send request' }));

    const list = region('Change requests');
    const item = await waitFor(() => itemOf(list, 'Menu page'));
    expect(item.textContent).toContain('Waiting to send: it will be sent when you’re back online');
    await waitFor(() => expect(document.activeElement).toBe(item));
    expect(portal.calls.some((c) => c.operation === 'create-change-request')).toBe(false);
    expect(readPortalOutbox(portal.storage, projectId).map((e) => e.body)).toEqual([
      { id: newRequestId, projectId, title: 'Menu page' },
    ]);
    await expectNoAxeViolations();

    network.set(true);
    await waitFor(() => expect(item.textContent).toContain('New'));
    expect(item.textContent).not.toContain('Waiting to send');
    expect(portal.calls.filter((c) => c.operation === 'create-change-request')).toEqual([
      {
        operation: 'create-change-request',
        input: { query: {}, body: { id: newRequestId, projectId, title: 'Menu page' } },
      },
    ]);
    expect(readPortalOutbox(portal.storage, projectId)).toEqual([]);
    // The same element: focus stayed on the request while it was sent.
    expect(itemOf(list, 'Menu page')).toBe(item);
    await waitFor(() =>
      expect(
        readPortalSnapshot(portal.storage, projectId)?.changeRequests.map((r) => r.id),
      ).toContain(newRequestId),
    );
  });

  it('a network failure while sending keeps the request too', async () => {
    const user = userEvent.setup();
    fakeBrowserOnline(true);
    const portal = renderPortal({
      ...online(),
      'create-change-request': [() => Promise.reject(apiError(0, 'Failed to fetch'))],
    });
    await screen.findByRole('heading', { level: 1, name: 'Shop front' });
    await user.click(screen.getByRole('button', { name: 'Ask for a change' }));
    await user.type(screen.getByRole('textbox', { name: /What would you like/ }), 'Menu page');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    const item = await waitFor(() => itemOf(region('Change requests'), 'Menu page'));
    expect(item.textContent).toContain('Waiting to send');
    expect(readPortalOutbox(portal.storage, projectId)).toHaveLength(1);
  });

  it('are sent when the page opens again; a 4xx shows the server’s words and Remove', async () => {
    const user = userEvent.setup();
    fakeBrowserOnline(true);
    const storage = memoryStorage();
    storage.setItem(
      `satchel-portal-outbox:${projectId}`,
      JSON.stringify([
        {
          body: { id: newRequestId, projectId, title: 'Menu page' },
          queuedAt: Date.parse('2026-03-14T10:00:00.000Z'),
          refused: null,
        },
      ]),
    );
    const portal = renderPortal(
      {
        ...online(2),
        'create-change-request': [
          () => Promise.reject(apiError(422, 'Change requests are closed for this project.')),
        ],
      },
      storage,
    );
    await screen.findByRole('heading', { level: 1, name: 'Shop front' });
    const list = region('Change requests');
    const item = itemOf(list, 'Menu page');
    expect(within(list).getAllByRole('listitem')[0]).toBe(item);
    await waitFor(() =>
      expect(item.textContent).toContain(
        'This request was not accepted: Change requests are closed for this project.',
      ),
    );
    expect(item.textContent).toContain('Not sent');
    expect(readPortalOutbox(storage, projectId)[0]?.refused?.status).toBe(422);
    await expectNoAxeViolations();

    // Back online again: the page reloads, but a refused request is not sent again.
    window.dispatchEvent(new Event('online'));
    await waitFor(() =>
      expect(portal.calls.filter((c) => c.operation === 'get-change-requests')).toHaveLength(2),
    );
    await waitFor(() => expect(screen.getByText('Up to date')).toBeTruthy());
    expect(portal.calls.filter((c) => c.operation === 'create-change-request')).toHaveLength(1);

    await user.click(within(item).getByRole('button', { name: 'Remove Menu page' }));
    expect(within(list).queryByText('Menu page')).toBeNull();
    expect(readPortalOutbox(storage, projectId)).toEqual([]);
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('heading', { level: 2, name: 'Change requests' }),
      ),
    );
  });
});
