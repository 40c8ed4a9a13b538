/**
 * Issue 15, chat, in headless Chromium against the production build and the real server:
 * - Message from one browser to another's screen: device A presses Enter in the composer, device
 *   B (the same member's other device: members cannot be invited yet) sees the message in its
 *   open chat. p50/p95 over 200 messages. The reference, same run and same two pages: a bare hub
 *   message, A asks the server for a test notification (one API call, one hub push to the user
 *   group) and B's bell changes. Both are timed on the same clock (the pages share the machine):
 *   A's `performance.timeOrigin + now()` just before the key or the call, B's when a
 *   MutationObserver first sees the result.
 * - A chat with 10,000 messages on the device: a new tab opens the project's Chat tab, timed from
 *   navigation start to the newest message on screen, median of 5; the reference is the same open
 *   of a project whose chat is empty (to its empty state).
 * - Scrolling through that history from the newest, in a new tab each time: (1) the log scrolled
 *   up SCROLL_STEP_PX every animation frame until 2,000 messages are above the one at the top of
 *   the view, p95 of the frames' times (requestAnimationFrame deltas), with the most message rows
 *   the page held; (2) the log put at its top, the time until the older page's rows are in the
 *   DOM, p95 of the 40 pages of those 2,000 messages. The reference of both is the same scroll in
 *   a chat of 200 messages (to its top), in the same run.
 *
 * `runChatBenchmarks({distDir})` returns the rows; `npx tsx bench/chat-benchmarks.ts [distDir]`
 * prints them and rewrites the chat-bench table in BENCHMARKS.md.
 */
import { pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import { withTarget, type BenchRow } from './bench-row.ts';
import { runSectionAlone } from './section-run.ts';
import { launchBenchChromium, signIn, signUp, startServer } from './cold-open-benchmark.ts';

const MESSAGES = 200;
const HISTORY = 10_000;
const OPENS = 5;
/** Messages scrolled through from the newest, and the reference chat's length. */
const SCROLLED = 2_000;
const SHORT_CHAT = 200;
/** A fast flick: 6,000 px a second at 60 frames a second. */
const SCROLL_STEP_PX = 100;
const CHAT_PAGE = 50;
const CHAT_WINDOW_MAX = 250;

const quantile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
const median = (values: readonly number[]) => quantile(values, 0.5);

async function newProject(page: Page, name: string, client: string): Promise<string> {
  await page.goto('/projects');
  await page.getByRole('button', { name: 'New project' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Project name' }).fill(name);
  await dialog.getByRole('combobox', { name: 'Client' }).fill(client);
  await page.getByRole('option', { name: `Create new client “${client}”`, exact: true }).click();
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByRole('link', { name }).click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
  await page.getByRole('button', { name: 'Sync: All changes saved' }).waitFor();
  return new URL(page.url()).pathname;
}

/** B records when `text` first shows in its chat log (or, for `bell`, when the bell's name changes). */
async function watch(page: Page, kind: 'message' | 'bell', text: string): Promise<void> {
  await page.evaluate(
    ({ kind, text }) => {
      const w = window as unknown as { seenAt?: number; stopWatch?: () => void };
      w.stopWatch?.();
      delete w.seenAt;
      const bell = () =>
        document
          .querySelector('a[href="/notifications"][aria-label^="Notifications,"]')
          ?.getAttribute('aria-label') ?? '';
      const before = bell();
      const seen = () =>
        kind === 'message'
          ? Array.from(
              document.querySelectorAll('[role="log"] li[id^="message-"] p[dir="auto"]'),
            ).some((node) => node.textContent === text)
          : bell() !== before;
      const observer = new MutationObserver(() => {
        if (w.seenAt === undefined && seen()) w.seenAt = performance.timeOrigin + performance.now();
      });
      observer.observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
      w.stopWatch = () => observer.disconnect();
    },
    { kind, text },
  );
}

async function seenAt(page: Page): Promise<number> {
  const handle = await page.waitForFunction(
    () => (window as unknown as { seenAt?: number }).seenAt,
    undefined,
    { timeout: 15_000, polling: 20 },
  );
  return (await handle.jsonValue()) as number;
}

/** A sends one chat message: the composer holds it, the Enter key is timed from here. */
async function sendTimed(page: Page, text: string): Promise<number> {
  const box = page.getByRole('textbox', { name: /^Message to / });
  await box.fill(text);
  return page.evaluate(() => {
    const input = document.querySelector<HTMLTextAreaElement>('textarea');
    const at = performance.timeOrigin + performance.now();
    input?.dispatchEvent(
      new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }),
    );
    return at;
  });
}

/** A asks for a test notification: one API call and one hub push, timed from before the call. */
async function bareHubTimed(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const key = Object.keys(localStorage).find((name) => name.endsWith('-auth-token'));
    const token = (JSON.parse(localStorage.getItem(key ?? '') ?? '{}') as { access_token?: string })
      .access_token;
    const at = performance.timeOrigin + performance.now();
    await fetch('/api/notifications?endpoint=send-test-notification', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token ?? ''}` },
    });
    return at;
  });
}

async function runDelivery(a: Page, b: Page): Promise<BenchRow[]> {
  const chat: number[] = [];
  const hub: number[] = [];
  for (let i = 0; i < MESSAGES; i += 1) {
    // Alternating, so noise on the shared machine falls on both.
    const text = `Bench message ${i}`;
    await watch(b, 'message', text);
    const sent = await sendTimed(a, text);
    chat.push((await seenAt(b)) - sent);
    await watch(b, 'bell', '');
    const called = await bareHubTimed(a);
    hub.push((await seenAt(b)) - called);
  }
  const p95 = quantile(chat, 0.95);
  return [
    withTarget(
      {
        what: `Chat message from one browser to another's screen (Enter on A to the message in B's open chat), p95 of ${MESSAGES} (p50 ${median(chat).toFixed(0)} ms)`,
        figure: `${p95.toFixed(0)} ms`,
        reference: `${quantile(hub, 0.95).toFixed(0)} ms (bare hub message: A's API call for a test notification to B's bell; p50 ${median(hub).toFixed(0)} ms)`,
        ratio: `${(p95 / quantile(hub, 0.95)).toFixed(2)}x`,
      },
      '< 300 ms p95',
      p95 < 300,
    ),
  ];
}

/**
 * `count` messages into the device's table, ordered as the server would have them (after the
 * messages the server ordered in this run); `idTag` (4 hex digits) keeps each chat's ids apart.
 */
async function seedHistory(
  page: Page,
  projectId: string,
  count: number,
  idTag = '0000',
): Promise<void> {
  await page.evaluate(
    async ({ projectId, count, idTag }) => {
      const name = (await indexedDB.databases())
        .map((db) => db.name ?? '')
        .find((n) => n.startsWith('satchel-'));
      if (!name) throw new Error('no local database');
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(new Error(request.error?.message ?? 'IndexedDB error'));
      });
      const project = await new Promise<{ workspaceId: string; createdBy: string }>(
        (resolve, reject) => {
          const request = db.transaction('projects').objectStore('projects').get(projectId);
          request.onsuccess = () =>
            resolve(request.result as { workspaceId: string; createdBy: string });
          request.onerror = () => reject(new Error(request.error?.message ?? 'IndexedDB error'));
        },
      );
      const tx = db.transaction('chatMessages', 'readwrite');
      const store = tx.objectStore('chatMessages');
      const start = Date.now() - count * 60_000;
      for (let i = 0; i < count; i += 1) {
        const at = new Date(start + i * 60_000).toISOString();
        const seq = 1_000_000 + i;
        store.put({
          id: `00000000-${idTag}-7000-8000-${String(i).padStart(12, '0')}`,
          workspaceId: project.workspaceId,
          projectId,
          text: `History message ${i}: ${'some words about the project '.repeat(1 + (i % 4))}`,
          mentions: [],
          replyToId: null,
          attachmentFileIds: [],
          deleted: false,
          seq,
          editedAt: null,
          authorKind: 'member',
          authorName: '',
          createdAt: at,
          createdBy: i % 3 === 0 ? project.createdBy : 'bench-teammate',
          updatedAt: at,
          updatedBy: 'bench',
          version: seq,
          _v: seq,
          _pending: 0,
          _deleted: false,
          _base: {},
        });
      }
      await new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(new Error(tx.error?.message ?? 'IndexedDB error'));
      });
      db.close();
    },
    { projectId, count, idTag },
  );
}

/** A new tab on the chat tab: navigation start to `ready` on screen. */
async function timeOpen(page: Page, pathname: string, ready: string): Promise<number> {
  const tab = await page.context().newPage();
  try {
    await tab.goto(`${pathname}?tab=chat`, { waitUntil: 'commit' });
    const handle = await tab.waitForFunction(
      (text) => {
        const found = Array.from(document.querySelectorAll('[role="log"] p')).some((node) =>
          node.textContent?.startsWith(text),
        );
        return found ? performance.now() : undefined;
      },
      ready,
      { timeout: 30_000, polling: 'raf' },
    );
    return (await handle.jsonValue()) as number;
  } finally {
    await tab.close();
  }
}

/** The delivery's project (the Free plan allows two) gets 10,000 older messages more. */
async function runHistory(a: Page, full: string): Promise<{ rows: BenchRow[]; empty: string }> {
  const projectId = full.split('/')[2] ?? '';
  await seedHistory(a, projectId, HISTORY);
  const empty = await newProject(a, 'Quiet project', 'Quiet Co');
  const big: number[] = [];
  const none: number[] = [];
  for (let i = 0; i < OPENS; i += 1) {
    big.push(await timeOpen(a, full, `History message ${HISTORY - 1}:`));
    none.push(await timeOpen(a, empty, 'No messages yet'));
  }
  const figure = median(big);
  const reference = median(none);
  const rows = [
    withTarget(
      {
        what: `Chat with ${(HISTORY + MESSAGES).toLocaleString('en-US')} messages on the device: a new tab on the Chat tab, navigation start to the newest message on screen, median of ${OPENS} (min ${Math.min(...big).toFixed(0)}, max ${Math.max(...big).toFixed(0)} ms)`,
        figure: `${figure.toFixed(0)} ms`,
        reference: `${reference.toFixed(0)} ms (the same open of a project with no messages, to its empty state)`,
        ratio: `${(figure / reference).toFixed(2)}x`,
      },
      '< 1000 ms',
      figure < 1000,
    ),
  ];
  return { rows, empty };
}

/** A new tab on the chat tab with `newest` (a message's start) on screen. */
async function openChat(page: Page, pathname: string, newest: string): Promise<Page> {
  const tab = await page.context().newPage();
  await tab.goto(`${pathname}?tab=chat`);
  await tab.locator('[role="log"] p[dir="auto"]', { hasText: newest }).waitFor({ timeout: 30_000 });
  // The tab has followed the chat to its bottom, and the layout has settled.
  await tab.waitForTimeout(500);
  return tab;
}

interface FrameRun {
  frames: number[];
  mostRows: number;
  waited: number;
  scrolled: number;
}

/**
 * In the tab: the log up SCROLL_STEP_PX each animation frame until `through` messages are above
 * the one at the top of the view (or the chat's top is on screen). Each frame's time, the most
 * message rows on the page, the frames spent at the top waiting for a page, messages passed.
 */
async function scrollUpFrames(tab: Page, through: number): Promise<FrameRun> {
  return tab.evaluate(
    async ({ through, step }) => {
      const log = document.querySelector<HTMLElement>('[role="log"]');
      if (!log) throw new Error('no chat log');
      const rows = () => log.querySelectorAll('li[id^="message-"]');
      const numberOf = (row: Element | null | undefined) =>
        Number(
          /History message (\d+):/.exec(
            row?.querySelector('p[dir="auto"]')?.textContent ?? '',
          )?.[1] ?? NaN,
        );
      const atTopOfView = () => {
        const box = log.getBoundingClientRect();
        return document.elementFromPoint(box.left + box.width / 2, box.top + 8)?.closest('li');
      };
      const all = rows();
      const newest = numberOf(all[all.length - 1]);
      const frames: number[] = [];
      let mostRows = all.length;
      let waited = 0;
      let passed = 0;
      await new Promise<void>((resolve, reject) => {
        let last = performance.now();
        const deadline = last + 180_000;
        const frame = (now: number) => {
          frames.push(now - last);
          last = now;
          mostRows = Math.max(mostRows, rows().length);
          const top = numberOf(atTopOfView());
          if (!Number.isNaN(top)) passed = Math.max(passed, newest - top);
          const hasOlder = Array.from(log.querySelectorAll('button')).some(
            (button) => button.textContent === 'Show earlier messages',
          );
          if (passed >= through || (log.scrollTop === 0 && !hasOlder)) return resolve();
          if (now > deadline) return reject(new Error(`scrolled through ${passed} only`));
          if (log.scrollTop === 0) waited += 1;
          log.scrollTop -= step;
          requestAnimationFrame(frame);
        };
        requestAnimationFrame((now) => {
          last = now;
          requestAnimationFrame(frame);
        });
      });
      return { frames, mostRows, waited, scrolled: passed };
    },
    { through, step: SCROLL_STEP_PX },
  );
}

/**
 * In the tab: up to `pages` times, the log put at its top and the time until the older page's
 * rows are in the DOM (its first message row changed), at the next animation frame.
 */
async function olderPageTimes(tab: Page, pages: number): Promise<number[]> {
  return tab.evaluate(async (pages) => {
    const log = document.querySelector<HTMLElement>('[role="log"]');
    if (!log) throw new Error('no chat log');
    const firstId = () => log.querySelector('li[id^="message-"]')?.id;
    const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
    const times: number[] = [];
    for (let i = 0; i < pages; i += 1) {
      const hasOlder = Array.from(log.querySelectorAll('button')).some(
        (button) => button.textContent === 'Show earlier messages',
      );
      if (!hasOlder) break;
      const before = firstId();
      const started = performance.now();
      log.scrollTop = 0;
      const deadline = started + 30_000;
      let now = await nextFrame();
      while (firstId() === before && now < deadline) now = await nextFrame();
      times.push(now - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return times;
  }, pages);
}

/** Scrolling from the newest through 2,000 of the 10,200 messages, beside a 200-message chat. */
async function runScroll(a: Page, full: string, short: string): Promise<BenchRow[]> {
  await seedHistory(a, short.split('/')[2] ?? '', SHORT_CHAT, '0001');
  const newestBig = `History message ${HISTORY - 1}:`;
  const newestShort = `History message ${SHORT_CHAT - 1}:`;
  const withTab = async <T>(pathname: string, newest: string, run: (tab: Page) => Promise<T>) => {
    const tab = await openChat(a, pathname, newest);
    try {
      return await run(tab);
    } finally {
      await tab.close();
    }
  };

  // Frames: two runs of each, alternating.
  const big: FrameRun[] = [];
  const small: FrameRun[] = [];
  for (let round = 0; round < 2; round += 1) {
    big.push(await withTab(full, newestBig, (tab) => scrollUpFrames(tab, SCROLLED)));
    small.push(await withTab(short, newestShort, (tab) => scrollUpFrames(tab, SCROLLED)));
  }
  const bigFrames = big.flatMap((run) => run.frames);
  const smallFrames = small.flatMap((run) => run.frames);
  const mostRows = Math.max(...big.map((run) => run.mostRows));
  const waited = big.reduce((sum, run) => sum + run.waited, 0);
  const p95 = quantile(bigFrames, 0.95);
  const p95Small = quantile(smallFrames, 0.95);

  // Older pages: the 40 pages of 2,000 messages in one tab; the short chat's 3, in five tabs.
  const pages = SCROLLED / CHAT_PAGE;
  const bigPages = await withTab(full, newestBig, (tab) => olderPageTimes(tab, pages));
  const smallPages: number[] = [];
  for (let round = 0; round < 5; round += 1)
    smallPages.push(...(await withTab(short, newestShort, (tab) => olderPageTimes(tab, pages))));
  const pageP95 = quantile(bigPages, 0.95);
  const pageP95Small = quantile(smallPages, 0.95);

  return [
    withTarget(
      {
        what: `Scrolling up through ${Math.min(...big.map((run) => run.scrolled)).toLocaleString('en-US')} messages of the ${(HISTORY + MESSAGES).toLocaleString('en-US')}-message chat from the newest, ${SCROLL_STEP_PX} px a frame: frame time p95 of ${bigFrames.length} frames in 2 runs (p50 ${median(bigFrames).toFixed(0)}, max ${Math.max(...bigFrames).toFixed(0)} ms; at most ${mostRows} message rows on the page; ${waited} frames stopped at the top waiting for a page)`,
        figure: `${p95.toFixed(1)} ms`,
        reference: `${p95Small.toFixed(1)} ms (the same scroll through a ${SHORT_CHAT}-message chat to its top, ${smallFrames.length} frames; p50 ${median(smallFrames).toFixed(0)}, max ${Math.max(...smallFrames).toFixed(0)} ms)`,
        ratio: `${(p95 / p95Small).toFixed(2)}x`,
      },
      `<= ${CHAT_WINDOW_MAX} rows on the page`,
      mostRows <= CHAT_WINDOW_MAX,
    ),
    {
      what: `Each older page while scrolling up through ${SCROLLED.toLocaleString('en-US')} messages of the ${(HISTORY + MESSAGES).toLocaleString('en-US')}-message chat: the log put at its top, to the page's rows in the DOM at the next frame, p95 of ${bigPages.length} pages (p50 ${median(bigPages).toFixed(0)}, max ${Math.max(...bigPages).toFixed(0)} ms)`,
      figure: `${pageP95.toFixed(0)} ms`,
      reference: `${pageP95Small.toFixed(0)} ms (the older pages of a ${SHORT_CHAT}-message chat, ${smallPages.length} pages in 5 tabs; p50 ${median(smallPages).toFixed(0)} ms)`,
      ratio: `${(pageP95 / pageP95Small).toFixed(2)}x`,
    },
  ];
}

export async function runChatBenchmarks(options: { distDir: string }): Promise<BenchRow[]> {
  const server = await startServer(options.distDir);
  const browser = await launchBenchChromium();
  try {
    const email = await signUp(server.origin, 'chat');
    const { page: a } = await signIn(browser, server.origin, email);
    const pathname = await newProject(a, 'Bench chat', 'Bench Co');
    const { page: b } = await signIn(browser, server.origin, email);
    for (const page of [a, b]) {
      await page.goto(`${pathname}?tab=chat`);
      await page.getByText('No messages yet').waitFor({ timeout: 20_000 });
    }
    const delivery = await runDelivery(a, b);
    const history = await runHistory(a, pathname);
    const scroll = await runScroll(a, pathname, history.empty);
    return [...delivery, ...history.rows, ...scroll];
  } finally {
    await browser.close();
    await server.stop();
  }
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  await runSectionAlone({
    name: 'chat',
    run: (distDir) => runChatBenchmarks({ distDir }),
  });
}
