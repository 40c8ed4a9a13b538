import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { ActivityEntry } from '#contract/endpoints/project-activity.ts';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LocalProject } from '../../db/app-database.ts';
import { createClient } from '../../data/client-mutations.ts';
import { createProject } from '../../data/project-mutations.ts';
import {
  createTestDatabase,
  renderWithSync,
  USER_ID,
  WS,
} from '../projects/project-screen-test-utils.tsx';
import { ProjectActivityScreen } from '../projects/project-activity-screen.tsx';
import { ActivityTab } from './activity-tab.tsx';
import { actorJoiner, actorWord, describeChange } from './activity-words.ts';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const project = { id: '0190a000-0000-7000-8000-0000000000aa', clientId: 'c1' } as LocalProject;

function entry(seq: number, patch: Partial<ActivityEntry>): ActivityEntry {
  return {
    seq,
    at: new Date().toISOString(),
    actorId: 'u1',
    actorName: 'Ada',
    actorKind: 'member',
    kind: 'task',
    entityId: `e${seq}`,
    label: 'Logo',
    op: 'update',
    changes: {},
    ...patch,
  };
}

const page1 = {
  activity: [
    entry(3, { changes: { title: { from: 'Logo', to: 'Logo v2' } }, label: 'Logo v2' }),
    entry(2, { changes: { priority: { from: 'none', to: 'high' } } }),
    entry(1, { op: 'create', kind: 'milestone', label: 'Design', at: '2025-01-15T10:00:00Z' }),
  ],
  nextBefore: 1,
};
const page2 = {
  activity: [entry(0, { op: 'create', kind: 'project', label: 'Website', actorName: '' })],
  nextBefore: null,
};

describe('activity words', () => {
  it('tells of a calendar event moved, its times in the reader’s own words', () => {
    const moved = entry(30, {
      kind: 'calendar-event',
      label: 'Design review',
      changes: {
        start: { from: '2026-05-04T13:00:00.000Z', to: '2026-05-06T13:00:00.000Z' },
      },
    });
    const when = (iso: string) =>
      new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    expect(describeChange(moved)).toBe(
      `changed start of event “Design review” from ${when('2026-05-04T13:00:00.000Z')} to ${when('2026-05-06T13:00:00.000Z')}`,
    );
  });

  it('tells of share links made, turned off and used, the download hanging on the link maker', () => {
    const link = { kind: 'file' as const, label: 'logo.png' };
    expect(
      describeChange(
        entry(20, {
          ...link,
          op: 'share',
          changes: {
            expiresAt: { from: null, to: '2026-12-01T12:00:00.000Z' },
            maxDownloads: { from: null, to: 3 },
            password: { from: null, to: true },
          },
        }),
      ),
    ).toMatch(
      /^made a share link to file “logo\.png” \(expires .+, up to 3 downloads, with a password\)$/,
    );
    expect(describeChange(entry(21, { ...link, op: 'unshare' }))).toBe(
      'turned off a share link to file “logo.png”',
    );
    const download = entry(22, {
      ...link,
      op: 'download',
      changes: { downloads: { from: 1, to: 2 }, maxDownloads: { from: 3, to: 3 } },
    });
    expect(`${actorWord(download)}${actorJoiner(download)}${describeChange(download)}`).toBe(
      'Ada’s share link: file “logo.png” downloaded (download 2 of 3)',
    );
  });

  it('names renames, choices with their words, and opaque fields', () => {
    expect(describeChange(page1.activity[0]!)).toBe('renamed task “Logo” to “Logo v2”');
    expect(describeChange(page1.activity[1]!)).toBe(
      'changed priority of task “Logo” from No priority to High',
    );
    expect(
      describeChange(
        entry(9, {
          kind: 'milestone',
          label: 'Design',
          changes: {
            status: { from: 'planned', to: 'approved' },
            position: { from: 'a', to: 'b' },
          },
        }),
      ),
    ).toBe('changed milestone “Design”: status from Planned to Approved and the order');
  });
});

describe('client portal lines', () => {
  const client = { actorKind: 'client' as const, actorId: 'client-1', actorName: 'Dana Reyes' };
  const milestone = { kind: 'milestone' as const, label: 'Design' };
  const portal = { kind: 'project' as const, label: 'Website', op: 'portal' as const };
  const line = (item: ActivityEntry) =>
    `${actorWord(item)}${actorJoiner(item)}${describeChange(item)}`;

  it('tells a client’s approval and a request for changes with its comment', () => {
    expect(
      line(
        entry(30, {
          ...client,
          ...milestone,
          op: 'sign-off',
          changes: {
            decision: { from: null, to: 'approved' },
            comment: { from: null, to: null },
          },
        }),
      ),
    ).toBe('Dana Reyes approved milestone “Design” in the client portal');
    expect(
      line(
        entry(31, {
          ...client,
          ...milestone,
          op: 'sign-off',
          changes: {
            decision: { from: 'approved', to: 'changes_requested' },
            comment: { from: null, to: 'Bigger logo, please' },
          },
        }),
      ),
    ).toBe(
      'Dana Reyes asked for changes to milestone “Design” in the client portal: “Bigger logo, please”',
    );
  });

  it('tells the portal turned on with a password, the password changed, the portal off', () => {
    expect(
      line(
        entry(32, {
          ...portal,
          changes: {
            enabled: { from: false, to: true },
            password: { from: false, to: true },
          },
        }),
      ),
    ).toBe('Ada turned the client portal on and set the portal password');
    expect(line(entry(33, { ...portal, changes: { password: { from: true, to: true } } }))).toBe(
      'Ada changed the portal password',
    );
    expect(line(entry(34, { ...portal, changes: { enabled: { from: true, to: false } } }))).toBe(
      'Ada turned the client portal off',
    );
  });

  it('tells a milestone or file hidden from the portal or shown again', () => {
    const hide = { visibleToClient: { from: true, to: false } };
    expect(describeChange(entry(41, { ...milestone, changes: hide }))).toBe(
      'hid milestone “Design” from the client portal',
    );
    expect(
      describeChange(
        entry(42, {
          kind: 'file',
          label: 'logo.png',
          changes: { visibleToClient: { from: false, to: true } },
        }),
      ),
    ).toBe('showed file “logo.png” in the client portal');
    expect(
      describeChange(
        entry(43, {
          ...milestone,
          changes: { status: { from: 'planned', to: 'in_progress' }, ...hide },
        }),
      ),
    ).toBe(
      'changed status of milestone “Design” from Planned to In progress, and hid it from the client portal',
    );
  });

  it('tells a change request the client sent apart from one a member created', () => {
    const request = {
      kind: 'change-request' as const,
      label: 'Bigger logo',
      op: 'create' as const,
    };
    expect(line(entry(35, { ...client, ...request }))).toBe(
      'Dana Reyes sent change request “Bigger logo” from the client portal',
    );
    expect(line(entry(36, request))).toBe('Ada created change request “Bigger logo”');
    // A client whose name is gone is still "the client", not an unknown member.
    expect(actorWord(entry(37, { ...client, actorName: ' ' }))).toBe('The client');
  });

  it('marks the client’s lines with a Client tag, and only theirs', async () => {
    const callEndpoint = vi.fn(() =>
      Promise.resolve({
        activity: [
          entry(40, {
            ...client,
            kind: 'change-request',
            label: 'Bigger logo',
            op: 'create',
          }),
          entry(39, {
            ...client,
            ...milestone,
            op: 'sign-off',
            changes: { decision: { from: null, to: 'approved' } },
          }),
          entry(38, { ...portal, changes: { enabled: { from: false, to: true } } }),
        ],
        nextBefore: null,
      }),
    );
    render(
      <ActivityTab project={project} callEndpoint={callEndpoint as unknown as CallEndpoint} />,
    );
    const request = (await screen.findByText(/sent change request “Bigger logo”/)).closest('li')!;
    const signOff = screen.getByText(/approved milestone “Design”/).closest('li')!;
    const turnedOn = screen.getByText(/turned the client portal on/).closest('li')!;
    // What a screen reader reads: the tag's brackets are there for it only.
    expect(request.querySelector('p')?.textContent).toBe(
      'Dana Reyes (Client) sent change request “Bigger logo” from the client portal',
    );
    expect(signOff.querySelector('p')?.textContent).toBe(
      'Dana Reyes (Client) approved milestone “Design” in the client portal',
    );
    expect(within(signOff).getByText('Client')).toBeTruthy();
    expect(within(turnedOn).queryByText('Client')).toBeNull();
    expect(turnedOn.querySelector('p')?.textContent).toBe('Ada turned the client portal on');
  });
});

describe('ActivityTab', () => {
  it('renders the server’s answer grouped by day and pages with Load older', async () => {
    const callEndpoint = vi.fn((_endpoint: unknown, input: { query: Record<string, unknown> }) =>
      Promise.resolve(input.query.before === undefined ? page1 : page2),
    );
    const user = userEvent.setup();
    render(
      <ActivityTab project={project} callEndpoint={callEndpoint as unknown as CallEndpoint} />,
    );

    expect(await screen.findByText(/renamed task “Logo” to “Logo v2”/)).toBeTruthy();
    expect(screen.getAllByText('Ada')).toHaveLength(3);
    expect(
      screen.getByText(/changed priority of task “Logo” from No priority to High/),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Today' })).toBeTruthy();
    expect(screen.getByText(/created milestone “Design”/)).toBeTruthy();
    expect(callEndpoint.mock.calls[0]?.[1]).toEqual({ query: { projectId: project.id } });

    await user.click(screen.getByRole('button', { name: 'Load older' }));
    expect(await screen.findByText(/created project “Website”/)).toBeTruthy();
    expect(screen.getByText('Deleted user')).toBeTruthy();
    expect(callEndpoint.mock.calls[1]?.[1]).toEqual({
      query: { projectId: project.id, before: '1' },
    });
    expect(screen.queryByRole('button', { name: 'Load older' })).toBeNull();
    expect(screen.getByText('That is the start of the history.')).toBeTruthy();
  });

  it('says offline that activity needs a connection, and keeps what was loaded', async () => {
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const callEndpoint = vi.fn(() => Promise.resolve(page1));
    render(
      <ActivityTab project={project} callEndpoint={callEndpoint as unknown as CallEndpoint} />,
    );
    expect(await screen.findByText('Activity needs a connection.')).toBeTruthy();
    expect(callEndpoint).not.toHaveBeenCalled();

    online.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    expect(await screen.findByText(/renamed task “Logo” to “Logo v2”/)).toBeTruthy();

    // The connection drops while paging: the page stays, the notice says why.
    online.mockReturnValue(false);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Load older' }));
    expect(await screen.findByText('Activity needs a connection.')).toBeTruthy();
    expect(screen.getByText(/renamed task “Logo” to “Logo v2”/)).toBeTruthy();
  });

  it('shows a server error with Retry', async () => {
    const callEndpoint = vi
      .fn()
      .mockRejectedValueOnce(Object.assign(new Error('Something went wrong!'), { status: 500 }))
      .mockResolvedValue(page1);
    const user = userEvent.setup();
    render(
      <ActivityTab project={project} callEndpoint={callEndpoint as unknown as CallEndpoint} />,
    );
    expect(await screen.findByText('The activity could not be loaded.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByText(/renamed task/)).toBeTruthy());
  });
});

describe('ProjectActivityScreen', () => {
  it('shows the timeline full page under an h1 naming the project, focused on arrival', async () => {
    const db = await createTestDatabase();
    const ctx = { db, userId: USER_ID };
    const client = await createClient(ctx, { workspaceId: WS, name: 'Acme' });
    const created = await createProject(ctx, {
      workspaceId: WS,
      clientId: client.id,
      name: 'Website',
    });
    const callEndpoint = vi.fn(() => Promise.resolve(page1));
    renderWithSync(
      <ProjectActivityScreen projectId={created.id} callEndpoint={callEndpoint} />,
      db,
    );
    const heading = await screen.findByRole('heading', { level: 1, name: 'Activity: Website' });
    expect(await screen.findByText(/renamed task “Logo” to “Logo v2”/)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Today' })).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });
});
