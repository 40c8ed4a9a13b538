import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { formatDate } from '../milestones/milestone-format.ts';
import { ClientPortalDemoScreen } from './client-portal-demo-screen.tsx';
import { PRERENDERED_ID } from './prerendered-handover.ts';

/** axe over the page; colour contrast needs a real browser (the e2e and screenshot runs). */
async function expectNoAxeViolations() {
  const { violations } = await axe.run(
    { include: [document.body], exclude: [['[data-live-announcer]']] },
    { rules: { 'color-contrast': { enabled: false } } },
  );
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([]);
}

const region = (name: string) => screen.getByRole('region', { name });
const itemOf = (list: HTMLElement, title: string) => {
  const item = within(list)
    .getAllByRole('listitem')
    .find((li) => li.querySelector('h3')?.textContent === title);
  if (!item) throw new Error(`no item ${title}`);
  return item;
};
const progress = () =>
  screen.getByRole('progressbar', { name: 'Milestones approved' }).getAttribute('aria-valuetext');

let fetchSpy: ReturnType<typeof vi.fn>;
let addListener: MockInstance<typeof window.addEventListener>;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  fetchSpy = vi.fn(() => Promise.reject(new Error('no network in the demo')));
  vi.stubGlobal('fetch', fetchSpy);
  addListener = vi.spyOn(window, 'addEventListener');
});

afterEach(() => {
  // Whatever the test did, the demo sent nothing and kept nothing in the browser.
  expect(fetchSpy).not.toHaveBeenCalled();
  expect(localStorage.length).toBe(0);
  expect(sessionStorage.length).toBe(0);
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderDemo() {
  const saveFile = vi.fn();
  const user = userEvent.setup();
  // The public layout puts the page in <main>.
  render(
    <main>
      <ClientPortalDemoScreen saveFile={saveFile} />
    </main>,
  );
  return { user, saveFile };
}

describe('ClientPortalDemoScreen', () => {
  it('shows the real portal on the sample project inside the page, which keeps its h1, title and focus', async () => {
    renderDemo();
    const project = await screen.findByRole('heading', { level: 2, name: 'Website redesign' });
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual([
      'Client portal demo',
    ]);
    const panel = region('Sample portal, running in your browser');
    expect(panel.contains(project)).toBe(true);
    expect(within(panel).getByText(/Shared by/).textContent).toBe(
      'Shared by Studio North with Maya’s Bakery',
    );
    await waitFor(() => expect(within(panel).getByText('Up to date')).toBeTruthy());
    expect(progress()).toBe('1 of 4');
    expect(within(region('Files')).getByText('Homepage design v3.pdf')).toBeTruthy();
    // The member's hidden milestone and file are not shown.
    expect(screen.queryByText('Internal QA pass')).toBeNull();
    expect(screen.queryByText('Cost notes.txt')).toBeNull();
    // The marketing page around it stays.
    expect(screen.getByRole('heading', { name: 'What you control' })).toBeTruthy();
    expect(
      screen.getByRole('heading', { name: 'Give your clients a portal of their own' }),
    ).toBeTruthy();
    expect(document.title).toBe('Client portal demo — Satchel');
    // Opening the demo does not pull focus (and the page's scroll) into the portal.
    expect(document.activeElement).toBe(document.body);
    // No portal session is watched: no activity listeners, so no way to the password gate.
    expect(addListener.mock.calls.map(([type]) => type)).not.toContain('mousemove');
    await expectNoAxeViolations();
  });

  it('approves a milestone, asks for a change and accepts the quote, all on the page', async () => {
    const { user } = renderDemo();
    await screen.findByRole('heading', { level: 2, name: 'Website redesign' });

    const homepage = itemOf(region('Milestones'), 'Homepage and menu pages');
    await user.click(within(homepage).getByRole('button', { name: /^Approve / }));
    await user.click(within(homepage).getByRole('button', { name: 'Yes, approve' }));
    await waitFor(() => expect(homepage.textContent).toContain('Approved by Maya’s Bakery on'));
    expect(progress()).toBe('2 of 4');
    expect(within(homepage).queryByRole('button', { name: /^Approve / })).toBeNull();

    const requests = region('Change requests');
    await user.click(within(requests).getByRole('button', { name: 'Ask for a change' }));
    await user.type(
      within(requests).getByRole('textbox', { name: /What would you like to change/ }),
      'A page for wedding cakes',
    );
    await user.click(within(requests).getByRole('button', { name: 'Send request' }));
    const asked = await waitFor(() => itemOf(requests, 'A page for wedding cakes'));
    expect(asked.textContent).toContain('New');
    expect(asked.textContent).toContain('Asked by you on');
    await waitFor(() => expect(document.activeElement).toBe(asked));

    const gallery = itemOf(requests, 'Add a photo gallery page');
    expect(gallery.textContent).toContain('+$450.00');
    await user.click(within(gallery).getByRole('button', { name: 'Accept quote' }));
    await user.type(within(gallery).getByRole('textbox', { name: 'Comment (optional)' }), 'Yes!');
    await user.click(within(gallery).getByRole('button', { name: 'Accept quote' }));
    await waitFor(() => expect(gallery.textContent).toContain('You accepted the quote'));
    expect(gallery.textContent).toContain('Accepted by client');
    expect(gallery.textContent).toContain('“Yes!”');
    expect(within(gallery).queryByRole('button', { name: 'Accept quote' })).toBeNull();
    await expectNoAxeViolations();
  });

  it('downloads a sample file made in the browser, then opens it from the copy on the “device”', async () => {
    const { user, saveFile } = renderDemo();
    await screen.findByRole('heading', { level: 2, name: 'Website redesign' });
    const files = region('Files');
    await user.click(within(files).getByRole('button', { name: 'Download Menu copy.txt' }));
    await waitFor(() => expect(saveFile).toHaveBeenCalledTimes(1));
    const [bytes, name] = saveFile.mock.calls[0] as [Blob, string];
    expect(name).toBe('Menu copy.txt');
    expect(await bytes.text()).toContain('Maya’s Bakery: menu copy');
    expect(await within(files).findByText('On this device')).toBeTruthy();
  });

  it('dates the sample from the day of the prerendered copy it takes over, and Reset from today', async () => {
    const copy = document.createElement('div');
    copy.id = PRERENDERED_ID;
    copy.innerHTML = '<section data-demo-day="2026-03-10"></section>';
    document.body.append(copy);
    try {
      const { user } = renderDemo();
      // The sample project started 45 days before its day.
      expect(
        await screen.findByText(new RegExp(`Started ${formatDate('2026-01-24')}`)),
      ).toBeTruthy();
      await user.click(screen.getByRole('button', { name: 'Reset demo' }));
      expect(screen.queryByText(new RegExp(`Started ${formatDate('2026-01-24')}`))).toBeNull();
    } finally {
      copy.remove();
    }
  });

  it('Reset demo puts the sample project back as it was', async () => {
    const { user } = renderDemo();
    await screen.findByRole('heading', { level: 2, name: 'Website redesign' });
    const gallery = itemOf(region('Change requests'), 'Add a photo gallery page');
    await user.click(within(gallery).getByRole('button', { name: 'Decline quote' }));
    await user.click(within(gallery).getByRole('button', { name: 'Decline quote' }));
    await waitFor(() => expect(gallery.textContent).toContain('You declined the quote'));

    const reset = screen.getByRole('button', { name: 'Reset demo' });
    await user.click(reset);
    expect(screen.getByText('The demo was reset: the sample project is as it was.')).toBeTruthy();
    const again = itemOf(region('Change requests'), 'Add a photo gallery page');
    expect(again.textContent).not.toContain('You declined the quote');
    expect(within(again).getByRole('button', { name: 'Accept quote' })).toBeTruthy();
    expect(document.activeElement).toBe(reset);
  });

  it('Leave portal says what the client would see, and the portal opens again', async () => {
    const { user } = renderDemo();
    await screen.findByRole('heading', { level: 2, name: 'Website redesign' });
    await user.click(screen.getByRole('button', { name: 'Leave portal' }));
    const left = await screen.findByRole('heading', { name: 'You left the portal' });
    await waitFor(() => expect(document.activeElement).toBe(left));
    expect(screen.getByText(/would now see the password page again/)).toBeTruthy();
    await expectNoAxeViolations();
    await user.click(screen.getByRole('button', { name: 'Open the sample portal again' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Website redesign' })).toBeTruthy();
  });
});
