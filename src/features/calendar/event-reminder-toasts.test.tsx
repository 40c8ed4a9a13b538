import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { calendarEventWrites } from '../../data/calendar.ts';
import {
  createTestDatabase,
  renderWithSync,
  USER_ID,
  WS,
} from '../projects/project-screen-test-utils.tsx';
import { EventReminderToasts } from './event-reminder-toasts.tsx';

beforeEach(() => localStorage.clear());
afterEach(cleanup);

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

describe('EventReminderToasts', () => {
  it('reminds once of an event whose reminder is due, and opens the calendar at its day', async () => {
    const db = await createTestDatabase();
    const ctx = { db, userId: USER_ID };
    const start = inMinutes(10);
    await calendarEventWrites.create(ctx, {
      workspaceId: WS,
      title: 'Kick-off',
      start,
      end: inMinutes(40),
      reminderMinutes: 15,
    });
    // Not due yet (an hour away, reminder 15 minutes before), and none: no toast for either.
    await calendarEventWrites.create(ctx, {
      workspaceId: WS,
      title: 'Later',
      start: inMinutes(60),
      end: inMinutes(90),
      reminderMinutes: 15,
    });
    const openDay = vi.fn();
    const first = renderWithSync(<EventReminderToasts openDay={openDay} />, db);
    expect(await screen.findByText('“Kick-off” starts in 10 minutes.')).toBeTruthy();
    expect(screen.queryByText(/Later/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Open calendar' }));
    expect(openDay).toHaveBeenCalledWith(start.slice(0, 10));
    first.unmount();

    // The same device again (a reload): already shown, not again.
    renderWithSync(<EventReminderToasts openDay={openDay} />, db);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByText(/Kick-off/)).toBeNull();
  });

  it('wakes at the next reminder’s moment', async () => {
    const db = await createTestDatabase();
    // Starts in 1 minute and 1.2 seconds, reminder 1 minute before: due in about 1.2 s.
    const start = new Date(Date.now() + 61_200).toISOString();
    await calendarEventWrites.create(
      { db, userId: USER_ID },
      { workspaceId: WS, title: 'Stand-up', start, end: inMinutes(20), reminderMinutes: 1 },
    );
    renderWithSync(<EventReminderToasts openDay={vi.fn()} />, db);
    expect(screen.queryByText(/Stand-up/)).toBeNull();
    await waitFor(() => expect(screen.getByText('“Stand-up” starts in 1 minute.')).toBeTruthy(), {
      timeout: 5_000,
    });
  });
});
