import { describe, expect, it } from 'vitest';
import { createAppDatabase, type AppDatabase } from '../db/app-database.ts';
import {
  CHAT_PAGE,
  CHAT_WINDOW_MAX,
  chatRangeAround,
  nextChatRange,
  readChatWindow,
  shareLists,
  shareRows,
  type ChatRange,
  type ChatWindow,
} from './chat.ts';
import { chatMessageRow } from './chat-test-fakes.ts';

const WS = '0190a000-0000-7000-8000-000000000001';
const ME = 'u1';
const BOB = 'u2';

const message = (seq: number, extra: { createdBy?: string; _deleted?: boolean } = {}) =>
  chatMessageRow('p', seq, { workspaceId: WS, createdBy: extra.createdBy ?? BOB, ...extra });

function database(): AppDatabase {
  return createAppDatabase(ME, { name: `test-${crypto.randomUUID()}` });
}

/** A window of ordered messages `from`..`to` (seq = position in the chat), as nextChatRange sees it. */
function windowOf(
  range: ChatRange,
  from: number,
  to: number,
  beyond: { hasOlder: boolean; newer: number },
): ChatWindow {
  const messages = [];
  for (let seq = from; seq <= to; seq++) messages.push(message(seq));
  return { range, messages, ...beyond };
}

const seqs = (window: ChatWindow) => window.messages.map((row) => row.seq);
const run = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describe('nextChatRange', () => {
  const newest = (size: number): ChatRange => ({ edge: 'newest', size });

  it('has the bounds the issue asks for', () => {
    expect([CHAT_PAGE, CHAT_WINDOW_MAX]).toEqual([50, 250]);
  });

  it('grows the newest window by a page upwards while under the bound, and stops at the oldest', () => {
    const first = windowOf(newest(50), 951, 1000, { hasOlder: true, newer: 0 });
    expect(nextChatRange(first, 'older')).toEqual({ edge: 'newest', size: 100 });
    const full = windowOf(newest(250), 751, 1000, { hasOlder: true, newer: 0 });
    expect(nextChatRange(full, 'older', 50, 300)).toEqual({ edge: 'newest', size: 300 });
    // The whole chat is shown: nothing older, nothing newer.
    const all = windowOf(newest(50), 1, 40, { hasOlder: false, newer: 0 });
    expect(nextChatRange(all, 'older')).toBeNull();
    expect(nextChatRange(all, 'newer')).toBeNull();
    const empty: ChatWindow = { range: newest(50), messages: [], hasOlder: false, newer: 0 };
    expect(nextChatRange(empty, 'older')).toBeNull();
  });

  it('a page up past the bound drops as many from the bottom, keeping the older end', () => {
    // 250 shown (751..1000): keep the oldest 200 (751..950), read 50 more above them.
    const full = windowOf(newest(250), 751, 1000, { hasOlder: true, newer: 0 });
    expect(nextChatRange(full, 'older')).toEqual({ edge: 'before', seq: 950, size: 250 });
    // Further up: the same step from a window that no longer ends at the newest.
    const up = windowOf({ edge: 'before', seq: 950, size: 250 }, 701, 950, {
      hasOlder: true,
      newer: 50,
    });
    expect(nextChatRange(up, 'older')).toEqual({ edge: 'before', seq: 900, size: 250 });
    // A short window away from the newest (a reply's jump) grows up to the bound.
    const short = windowOf({ edge: 'after', seq: 401, size: 100 }, 401, 500, {
      hasOlder: true,
      newer: 500,
    });
    expect(nextChatRange(short, 'older')).toEqual({ edge: 'before', seq: 500, size: 150 });
    // At the oldest: nothing.
    const top = windowOf({ edge: 'before', seq: 250, size: 250 }, 1, 250, {
      hasOlder: false,
      newer: 750,
    });
    expect(nextChatRange(top, 'older')).toBeNull();
  });

  it('a page down drops as many from the top, and one that reaches the newest is the newest again', () => {
    // 250 shown (501..750), 250 newer: drop 501..550, keep 551..750, read 50 below.
    const middle = windowOf({ edge: 'before', seq: 750, size: 250 }, 501, 750, {
      hasOlder: true,
      newer: 250,
    });
    expect(nextChatRange(middle, 'newer')).toEqual({ edge: 'after', seq: 551, size: 250 });
    // 30 newer left: the window becomes the newest 200 + 30, following new messages again.
    const near = windowOf({ edge: 'after', seq: 721, size: 250 }, 721, 970, {
      hasOlder: true,
      newer: 30,
    });
    expect(nextChatRange(near, 'newer')).toEqual({ edge: 'newest', size: 230 });
    // A short window keeps all it has.
    const short = windowOf({ edge: 'after', seq: 401, size: 100 }, 401, 500, {
      hasOlder: true,
      newer: 500,
    });
    expect(nextChatRange(short, 'newer')).toEqual({ edge: 'after', seq: 401, size: 150 });
    const atNewest = windowOf(newest(250), 751, 1000, { hasOlder: true, newer: 0 });
    expect(nextChatRange(atNewest, 'newer')).toBeNull();
  });

  it('never makes a range over the bound, up and down through 1,000 messages', () => {
    // Simulated: the window as readChatWindow would give it for each range over seqs 1..1000.
    const TOTAL = 1000;
    const windowFor = (range: ChatRange): ChatWindow => {
      let from: number;
      let to: number;
      if (range.edge === 'newest') [from, to] = [TOTAL - range.size + 1, TOTAL];
      else if (range.edge === 'before') [from, to] = [range.seq - range.size + 1, range.seq];
      else [from, to] = [range.seq, range.seq + range.size - 1];
      from = Math.max(1, from);
      to = Math.min(TOTAL, to);
      return windowOf(range, from, to, { hasOlder: from > 1, newer: TOTAL - to });
    };
    let window = windowFor({ edge: 'newest', size: CHAT_PAGE });
    let steps = 0;
    for (let next = nextChatRange(window, 'older'); next; next = nextChatRange(window, 'older')) {
      const before = window;
      window = windowFor(next);
      steps += 1;
      expect(window.messages.length).toBeLessThanOrEqual(CHAT_WINDOW_MAX);
      // Each step reads older messages and keeps the top of the one before.
      expect(window.messages[0]!.seq).toBeLessThan(before.messages[0]!.seq);
      expect(seqs(window)).toContain(before.messages[0]!.seq);
    }
    expect(window.messages[0]?.seq).toBe(1);
    expect(steps).toBe(19);
    for (let next = nextChatRange(window, 'newer'); next; next = nextChatRange(window, 'newer')) {
      const before = window;
      window = windowFor(next);
      expect(window.messages.length).toBeLessThanOrEqual(CHAT_WINDOW_MAX);
      expect(seqs(window)).toContain(before.messages.at(-1)!.seq);
    }
    expect(window.range.edge).toBe('newest');
    expect(window.messages.at(-1)?.seq).toBe(TOTAL);
  });
});

describe('readChatWindow', () => {
  it('reads each kind of range with what lies beyond it, and the unsent only at the newest', async () => {
    const db = database();
    const rows = [];
    for (let seq = 1; seq <= 300; seq++) rows.push(message(seq, { _deleted: seq === 120 }));
    await db.chatMessages.bulkPut([...rows, message(0, { createdBy: ME })]);

    const newest = await readChatWindow(db, 'p', { edge: 'newest', size: 50 });
    expect(seqs(newest)).toEqual([...run(251, 50), 0]);
    expect(newest).toMatchObject({ hasOlder: true, newer: 0 });
    // A number is the newest that many, as before.
    expect(seqs(await readChatWindow(db, 'p', 50))).toEqual(seqs(newest));

    const range: ChatRange = { edge: 'before', seq: 150, size: 40 };
    const before = await readChatWindow(db, 'p', range);
    expect(before.range).toBe(range);
    // 120 is gone on this device: skipped, and the window still holds 40.
    expect(seqs(before)).toEqual([...run(110, 10), ...run(121, 30)]);
    // Newer ones are counted up to a page and one more: enough to plan a step down.
    expect(before).toMatchObject({ hasOlder: true, newer: CHAT_PAGE + 1 });

    const after = await readChatWindow(db, 'p', { edge: 'after', seq: 1, size: 30 });
    expect(seqs(after)).toEqual(run(1, 30));
    expect(after).toMatchObject({ hasOlder: false, newer: CHAT_PAGE + 1 });

    // An `after` range that meets the end ends at the newest: the unsent follow.
    const end = await readChatWindow(db, 'p', { edge: 'after', seq: 281, size: 50 });
    expect(seqs(end)).toEqual([...run(281, 20), 0]);
    expect(end).toMatchObject({ hasOlder: true, newer: 0 });
    // Counted exactly near the end (the removed one left out).
    await db.chatMessages.put(message(301, { _deleted: true }));
    expect((await readChatWindow(db, 'p', { edge: 'before', seq: 290, size: 10 })).newer).toBe(10);
  });

  it('reads a window deep in 10,000 messages without reading the rest', async () => {
    const db = database();
    await db.chatMessages.bulkPut(Array.from({ length: 10_000 }, (_, i) => message(i + 1)));
    const window = await readChatWindow(db, 'p', { edge: 'before', seq: 5_000, size: 250 });
    expect(seqs(window)).toEqual(run(4_751, 250));
    expect(window).toMatchObject({ hasOlder: true, newer: CHAT_PAGE + 1 });
  });
});

describe('chatRangeAround', () => {
  it('reads from half a page before the message, or says the device does not have it', async () => {
    const db = database();
    const rows = Array.from({ length: 300 }, (_, i) => message(i + 1));
    await db.chatMessages.bulkPut([...rows, message(0, { createdBy: ME })]);
    const target = rows[99]!;
    const range = await chatRangeAround(db, 'p', target.id);
    expect(range).toEqual({ edge: 'after', seq: 75, size: CHAT_PAGE });
    expect(seqs(await readChatWindow(db, 'p', range!))).toContain(100);
    expect(await chatRangeAround(db, 'p', rows[0]!.id)).toEqual({
      edge: 'after',
      seq: 1,
      size: CHAT_PAGE,
    });
    expect(await chatRangeAround(db, 'p', 'not-here')).toBeNull();
    expect(await chatRangeAround(db, 'other-project', target.id)).toBeNull();
  });
});

describe('shareRows and shareLists', () => {
  it('keep the objects of rows that did not change, and take the new ones of those that did', () => {
    const cache = new Map<string, ReturnType<typeof message>>();
    const first = shareRows(cache, [message(1), message(2)]);
    const again = shareRows(
      cache,
      first.map((row) => structuredClone(row)),
    );
    expect(again[0]).toBe(first[0]);
    expect(again[1]).toBe(first[1]);
    const edited = shareRows(cache, [
      structuredClone(first[0]!),
      { ...structuredClone(first[1]!), text: 'Edited', mentions: ['u3'] },
    ]);
    expect(edited[0]).toBe(first[0]);
    expect(edited[1]).not.toBe(first[1]);
    expect(edited[1]?.text).toBe('Edited');
    // Only the rows of the last read stay in the cache.
    shareRows(cache, [edited[1]!]);
    expect([...cache.keys()]).toEqual([first[1]!.id]);

    const lists = new Map();
    const reactions = shareLists(lists, new Map([['m1', [{ id: 'r1', emoji: '👍' }]]]));
    const same = shareLists(lists, new Map([['m1', [{ id: 'r1', emoji: '👍' }]]]));
    expect(same.get('m1')).toBe(reactions.get('m1'));
    const more = shareLists(
      lists,
      new Map([
        [
          'm1',
          [
            { id: 'r1', emoji: '👍' },
            { id: 'r2', emoji: '🎉' },
          ],
        ],
      ]),
    );
    expect(more.get('m1')).not.toBe(reactions.get('m1'));
  });
});
