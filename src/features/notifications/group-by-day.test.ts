import { describe, expect, it } from 'vitest';
import type { Notification } from '#contract/entities/notification.ts';
import { groupByDay } from './group-by-day.ts';

const at = (id: string, date: Date): Notification => ({
  id,
  type: 'test',
  title: id,
  body: '',
  link: null,
  isRead: false,
  createdAt: date.toISOString(),
  actor: null,
  workspaceId: null,
  projectId: null,
});

describe('groupByDay', () => {
  it('groups newest-first notifications into Today, Yesterday and dated days', () => {
    const now = new Date(2025, 5, 18, 9, 30);
    const groups = groupByDay(
      [
        at('a', new Date(2025, 5, 18, 8, 0)),
        at('b', new Date(2025, 5, 18, 0, 5)),
        at('c', new Date(2025, 5, 17, 23, 59)),
        at('d', new Date(2025, 5, 12, 12, 0)),
        at('e', new Date(2024, 11, 31, 12, 0)),
      ],
      now,
      'en-US',
    );
    expect(groups.map((g) => [g.label, g.notifications.map((n) => n.id)])).toEqual([
      ['Today', ['a', 'b']],
      ['Yesterday', ['c']],
      ['Thursday, June 12', ['d']],
      ['December 31, 2024', ['e']],
    ]);
  });
});
