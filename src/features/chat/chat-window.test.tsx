/**
 * The Chat tab over a long history: the bounded window (at most CHAT_WINDOW_MAX message rows in
 * the DOM), scroll anchoring both ways, "Jump to the newest messages", a reply's jump into
 * history, and rows that are not drawn again when a page is added.
 *
 * jsdom has no layout: the log gets one here (message rows 40 px, other rows and the buttons'
 * bars 20 px, a 400 px high view; scrollTop clamped as a browser does), enough for the tab's
 * scroll handling and its anchoring to run on real numbers.
 */
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppDatabase, LocalProject } from '../../db/app-database.ts';
import { CHAT_WINDOW_MAX } from '../../data/chat.ts';
import { chatMessageRow, seedChatProject } from '../../data/chat-test-fakes.ts';
import {
  createTestDatabase,
  expectAccessible,
  renderWithSync,
  USER_ID,
  WS,
} from '../projects/project-screen-test-utils.tsx';
import { anchoredScrollTop, firstRowInView } from './chat-scroll-anchor.tsx';
import ChatTab from './chat-tab.tsx';
import type * as ChatTextModule from './chat-text.tsx';

// Counts the message rows drawn: each row that is not deleted draws its text once.
const drawn = vi.hoisted(() => ({ count: 0 }));
vi.mock('./chat-text.tsx', async (load) => {
  const actual = await load<typeof ChatTextModule>();
  return {
    ...actual,
    ChatText: (props: Parameters<typeof actual.ChatText>[0]) => {
      drawn.count += 1;
      return actual.ChatText(props);
    },
  };
});

// Each step mounts and unmounts dozens of rows, slow in jsdom on a busy machine. The waits poll
// the rows' seqs (cheap) every 200 ms, not the text of the whole page: fake-indexeddb takes a
// macrotask per cursor step, and a costly poll between each would slow the reads it waits for.
configure({ asyncUtilTimeout: 20_000 });
const until = (check: () => void) => waitFor(check, { interval: 200 });

const BOB = '0190a000-0000-7000-8000-0000000000b0';
const ROW = 40;
const OTHER = 20;
const VIEW = 400;

// ---- A layout for the log --------------------------------------------------------------------

const scrollTops = new WeakMap<Element, number>();
const isLog = (element: Element) => element.getAttribute('role') === 'log';

/** Top and height of each of the log's rows and bars, and the content's height. */
function layoutOf(log: Element) {
  const boxes = new Map<Element, { top: number; height: number }>();
  let y = 0;
  const place = (element: Element) => {
    const height = element.id.startsWith('message-') ? ROW : OTHER;
    boxes.set(element, { top: y, height });
    y += height;
  };
  for (const child of log.children) {
    if (child.tagName === 'OL') for (const row of child.children) place(row);
    else place(child);
  }
  return { boxes, height: y };
}

const rect = (top: number, height: number) =>
  ({ top, bottom: top + height, height, left: 0, right: 600, width: 600, x: 0, y: top }) as DOMRect;

function installLayout(): () => void {
  const proto = Element.prototype;
  const original = {
    scrollTop: Object.getOwnPropertyDescriptor(proto, 'scrollTop')!,
    scrollHeight: Object.getOwnPropertyDescriptor(proto, 'scrollHeight')!,
    clientHeight: Object.getOwnPropertyDescriptor(proto, 'clientHeight')!,
    rect: Object.getOwnPropertyDescriptor(proto, 'getBoundingClientRect')!,
  };
  Object.defineProperties(proto, {
    scrollHeight: {
      configurable: true,
      get(this: Element) {
        return isLog(this) ? layoutOf(this).height : 0;
      },
    },
    clientHeight: {
      configurable: true,
      get(this: Element) {
        return isLog(this) ? VIEW : 0;
      },
    },
    scrollTop: {
      configurable: true,
      get(this: Element) {
        return scrollTops.get(this) ?? 0;
      },
      set(this: Element, value: number) {
        const max = isLog(this) ? Math.max(0, layoutOf(this).height - VIEW) : 0;
        scrollTops.set(this, Math.min(max, Math.max(0, value)));
      },
    },
    getBoundingClientRect: {
      configurable: true,
      value(this: Element) {
        if (isLog(this)) return rect(0, VIEW);
        const log = this.closest('[role="log"]');
        const box = log && layoutOf(log).boxes.get(this);
        return box ? rect(box.top - (scrollTops.get(log) ?? 0), box.height) : rect(0, 0);
      },
    },
  });
  return () => Object.defineProperties(proto, original);
}

// ---- Helpers -----------------------------------------------------------------------------------

let restoreLayout: () => void = () => undefined;
beforeEach(() => {
  restoreLayout = installLayout();
  Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
    const log = this.closest<HTMLElement>('[role="log"]');
    const box = log && layoutOf(log).boxes.get(this);
    if (log && box) log.scrollTop = box.top - VIEW / 2 + box.height / 2;
  });
});
afterEach(() => {
  cleanup();
  restoreLayout();
  delete (Element.prototype as Partial<Element>).scrollIntoView;
});

async function chatOf(count: number): Promise<{ db: AppDatabase; project: LocalProject }> {
  const db = await createTestDatabase();
  const project = await seedChatProject(db, { workspaceId: WS, userId: USER_ID, bobId: BOB });
  await db.chatMessages.bulkPut(
    Array.from({ length: count }, (_, i) =>
      chatMessageRow(project.id, i + 1, { workspaceId: WS, createdBy: BOB }),
    ),
  );
  return { db, project };
}

const messageRows = (log: HTMLElement) =>
  Array.from(log.querySelectorAll<HTMLElement>('li[id^="message-"]'));
const textOf = (row: HTMLElement | undefined) => row?.querySelector('p[dir="auto"]')?.textContent;
const seqOf = (row: HTMLElement | undefined) => Number(textOf(row)?.replace('Message ', ''));
/** The seqs of the first and last message rows. */
const shownSeqs = (log: HTMLElement): [number, number] => {
  const rows = messageRows(log);
  return [seqOf(rows[0]), seqOf(rows.at(-1))];
};

/** The message row at the top of the view and where it is, as the reader sees it. */
function inView(log: HTMLElement) {
  const top = log.scrollTop;
  for (const [element, box] of layoutOf(log).boxes)
    if (element.id.startsWith('message-') && box.top + box.height - top > 0)
      return { id: element.id, top: box.top - top };
  throw new Error('no message row in view');
}

/**
 * Scrolls the log to `scrollTop` and waits until the page that reads is on screen; the message
 * that was at the top of the view then, and where.
 */
async function scrollTo(log: HTMLElement, scrollTop: number, change: 'older' | 'newer') {
  const [first, last] = shownSeqs(log);
  log.scrollTop = scrollTop;
  const anchor = inView(log);
  fireEvent.scroll(log);
  if (change === 'older') await until(() => expect(shownSeqs(log)[0]).toBeLessThan(first));
  else await until(() => expect(shownSeqs(log)[1]).toBeGreaterThan(last));
  return anchor;
}

const atBottom = (log: HTMLElement) => log.scrollTop === log.scrollHeight - log.clientHeight;

// ---- Tests -------------------------------------------------------------------------------------

describe('the anchoring arithmetic', () => {
  it('finds the first row in view by bisection and moves the view by as much as the row moved', () => {
    const bottoms = [40, 80, 120, 160, 200];
    expect(firstRowInView(5, (i) => bottoms[i]!, 0)).toBe(0);
    expect(firstRowInView(5, (i) => bottoms[i]!, 79)).toBe(1);
    expect(firstRowInView(5, (i) => bottoms[i]!, 80)).toBe(2);
    expect(firstRowInView(5, (i) => bottoms[i]!, 500)).toBe(-1);
    expect(firstRowInView(0, () => 0, 0)).toBe(-1);
    // A row 12 px into the view went 2,000 px down (a page added above it): follow it.
    expect(anchoredScrollTop(100, 12, 2_012)).toBe(2_100);
    // Rows dropped above: it came up; so does the view.
    expect(anchoredScrollTop(8_000, -5, -2_005)).toBe(6_000);
  });
});

describe('ChatTab over a long history', { timeout: 180_000 }, () => {
  it('1,000 messages: up past the bound keeps at most 250 rows and the reader’s message in place; down brings the newer back; Jump returns to the newest', async () => {
    const { db, project } = await chatOf(1_000);
    const user = userEvent.setup();
    renderWithSync(<ChatTab project={project} />, db);
    const log = await screen.findByRole('log', { name: 'Messages about Website' });
    await until(() => expect(shownSeqs(log)).toEqual([951, 1000]));
    await until(() => expect(atBottom(log)).toBe(true));
    expect(messageRows(log)).toHaveLength(50);
    expect(screen.queryByRole('button', { name: 'Jump to the newest messages' })).toBeNull();

    // Up, a page at a time, 7 pages: 350 messages above the newest page.
    let most = 0;
    for (let page = 1; page <= 7; page += 1) {
      const anchor = await scrollTo(log, 100, 'older');
      const rows = messageRows(log);
      most = Math.max(most, rows.length);
      expect(rows.length).toBeLessThanOrEqual(CHAT_WINDOW_MAX);
      expect(seqOf(rows[0])).toBe(951 - 50 * page);
      // The message at the top of the view is where it was.
      expect(document.getElementById(anchor.id)?.getBoundingClientRect().top).toBe(anchor.top);
    }
    expect(most).toBe(CHAT_WINDOW_MAX);
    expect(shownSeqs(log)).toEqual([601, 850]);
    expect(within(log).queryByText('Message 1000')).toBeNull();

    // Away from the newest: the Jump button, and a new message changes nothing on screen.
    const jump = screen.getByRole('button', { name: 'Jump to the newest messages' });
    const still = { anchor: inView(log), scrollTop: log.scrollTop };
    await db.chatMessages.put(
      chatMessageRow(project.id, 1_001, { workspaceId: WS, createdBy: BOB }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(inView(log)).toEqual(still.anchor);
    expect(log.scrollTop).toBe(still.scrollTop);
    expect(shownSeqs(log)).toEqual([601, 850]);
    expect(screen.queryByRole('button', { name: 'New messages' })).toBeNull();

    // Down near the bottom of the window: newer ones come back, the oldest go, the view stays.
    for (const expected of [
      [651, 900],
      [701, 950],
    ]) {
      const anchor = await scrollTo(log, log.scrollHeight - VIEW - 100, 'newer');
      expect(shownSeqs(log)).toEqual(expected);
      expect(document.getElementById(anchor.id)?.getBoundingClientRect().top).toBe(anchor.top);
    }

    // Jump, from the keyboard: the newest page, at the bottom, the new message on it.
    expect(jump.tagName).toBe('BUTTON');
    expect(jump.tabIndex).toBe(0);
    jump.focus();
    expect(document.activeElement).toBe(jump);
    await user.keyboard('{Enter}');
    await until(() => expect(shownSeqs(log)).toEqual([952, 1001]));
    await until(() => expect(atBottom(log)).toBe(true));
    expect(messageRows(log)).toHaveLength(50);
    expect(seqOf(messageRows(log).at(-1))).toBe(1_001);
    expect(screen.queryByRole('button', { name: 'Jump to the newest messages' })).toBeNull();
    expect(document.activeElement).toBe(log);

    // Back at the newest, a new message follows as before.
    await db.chatMessages.put(
      chatMessageRow(project.id, 1_002, { workspaceId: WS, createdBy: BOB }),
    );
    await until(() => expect(shownSeqs(log)[1]).toBe(1002));
    await until(() => expect(atBottom(log)).toBe(true));
  });

  it('adds a page by drawing its rows alone, and a reaction draws its row alone', async () => {
    const { db, project } = await chatOf(300);
    const user = userEvent.setup();
    renderWithSync(<ChatTab project={project} />, db);
    const log = await screen.findByRole('log');
    await within(log).findByText('Message 300');
    await until(() => expect(atBottom(log)).toBe(true));
    drawn.count = 0;
    await scrollTo(log, 100, 'older');
    expect(shownSeqs(log)).toEqual([201, 300]);
    // The 50 new rows, and the one that was first (now grouped under the row above it).
    expect(drawn.count).toBeLessThanOrEqual(52);
    drawn.count = 0;
    const [lastRow] = messageRows(log).slice(-1);
    await user.click(
      within(lastRow!).getByRole('button', { name: 'Actions for the message from Bob Stone' }),
    );
    await user.click(screen.getByRole('menuitem', { name: 'React with 👍' }));
    await within(lastRow!).findByRole('button', { name: /^👍 1: Ada Lovelace/ });
    expect(drawn.count).toBeLessThanOrEqual(3);
  });

  it('a reply’s quote jumps to a message far up (read into the window), with Jump back, all accessible', async () => {
    const { db, project } = await chatOf(120);
    const target = (await db.chatMessages
      .where('[projectId+seq]')
      .equals([project.id, 10])
      .first())!;
    const quoted = (await db.chatMessages
      .where('[projectId+seq]')
      .equals([project.id, 120])
      .first())!;
    await db.chatMessages.put({ ...quoted, text: 'See the brief', replyToId: target.id });
    const user = userEvent.setup();
    renderWithSync(<ChatTab project={project} />, db);
    const log = await screen.findByRole('log');
    await within(log).findByText('See the brief');
    expect(within(log).queryByText('Message 10')).toBeNull();
    await user.click(within(log).getByRole('button', { name: 'Reply to an earlier message' }));
    await until(() => expect(document.activeElement?.id).toBe(`message-${target.id}`));
    expect(within(log).getByText('Message 10')).toBeTruthy();
    expect(shownSeqs(log)).toEqual([1, 50]);
    const jump = screen.getByRole('button', { name: 'Jump to the newest messages' });
    await expectAccessible();
    await user.click(jump);
    await within(log).findByText('See the brief');
    await until(() => expect(atBottom(log)).toBe(true));
    expect(screen.queryByRole('button', { name: 'Jump to the newest messages' })).toBeNull();
  });
});
