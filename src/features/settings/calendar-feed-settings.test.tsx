import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import {
  createCalendarFeed,
  getCalendarFeed,
  revokeCalendarFeed,
} from '#contract/endpoints/calendar.ts';
import { CalendarFeedSettings } from './calendar-feed-settings.tsx';

afterEach(cleanup);

const TOKEN = 'A'.repeat(43);

function fakeServer() {
  let feed: { createdAt: string; lastUsedAt: string | null } | null = null;
  return vi.fn((endpoint: { operation: string }) => {
    if (endpoint.operation === getCalendarFeed.operation) return Promise.resolve({ feed });
    if (endpoint.operation === createCalendarFeed.operation) {
      feed = { createdAt: '2026-03-01T10:00:00.000Z', lastUsedAt: null };
      return Promise.resolve({ feed, token: TOKEN, url: `/api/calendar.ics?token=${TOKEN}` });
    }
    if (endpoint.operation === revokeCalendarFeed.operation) {
      const revoked = feed !== null;
      feed = null;
      return Promise.resolve({ revoked });
    }
    return Promise.reject(new Error(`unexpected ${endpoint.operation}`));
  });
}

async function expectAccessible() {
  // react-aria's live announcer is no part of this section.
  const results = await axe.run(
    { include: [document.body], exclude: ['[data-live-announcer]'] },
    {
      runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
      rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
    },
  );
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
}

describe('CalendarFeedSettings', () => {
  it('makes a URL shown once with Copy, makes a new one after asking, and turns it off', async () => {
    const callEndpoint = fakeServer();
    render(<CalendarFeedSettings callEndpoint={callEndpoint as unknown as CallEndpoint} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Make a calendar URL' }));
    const field = await screen.findByRole<HTMLInputElement>('textbox', { name: 'Calendar URL' });
    expect(field.value).toBe(`${window.location.origin}/api/calendar.ics?token=${TOKEN}`);
    expect(screen.getByText(/Shown only now/)).toBeTruthy();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(field.value);
    await expectAccessible();

    await user.click(screen.getByRole('button', { name: 'New URL' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Make a new calendar URL?' });
    await user.click(within(ask).getByRole('button', { name: 'Make new URL' }));
    await waitFor(() =>
      expect(callEndpoint.mock.calls.filter(([e]) => e === createCalendarFeed)).toHaveLength(2),
    );

    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    const off = await screen.findByRole('alertdialog', { name: 'Turn the calendar feed off?' });
    await user.click(within(off).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('You have no calendar feed.')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Calendar URL' })).toBeNull();
    expect(callEndpoint).toHaveBeenCalledWith(revokeCalendarFeed, { query: {} });
  });

  it('after a reload says the URL was shown when made, and offline that it needs the server', async () => {
    const made = vi.fn(() =>
      Promise.resolve({ feed: { createdAt: '2026-03-01T10:00:00.000Z', lastUsedAt: null } }),
    );
    render(<CalendarFeedSettings callEndpoint={made as unknown as CallEndpoint} />);
    expect(await screen.findByText(/Its URL was shown when it was made/)).toBeTruthy();
    expect(screen.getByText(/no calendar app has read it yet/)).toBeTruthy();
    cleanup();
    const offline = vi.fn(() => Promise.reject(Object.assign(new Error('offline'), { status: 0 })));
    render(<CalendarFeedSettings callEndpoint={offline as unknown as CallEndpoint} />);
    expect(await screen.findByText(/needs a connection to the server/)).toBeTruthy();
  });
});
