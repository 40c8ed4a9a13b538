/**
 * Issue 4: cold open of /projects with 10,000 projects on the device, to the first project row on
 * screen, and (issue 12) of one project's board with 10,000 tasks, to its first card, in headless Chromium against the production build and the real server. "Cold" is a new
 * tab (a fresh JS heap and a closed database) with the network off, so the page comes from the
 * service worker and the rows from IndexedDB, as on a train. The reference, in the same run, is
 * the same cold open for a user with no projects (to the empty state): the app's own start cost.
 *
 * `runColdOpenBenchmark()` returns the row; it needs a build (`npm run build`, or distDir).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { BenchRow } from './bench-row.ts';
import { withTarget } from './bench-row.ts';

const PROJECTS = 10_000;
const TASKS = 10_000;
const RUNS = 5;
const TARGET_MS = 1000;
const password = 'amber-otter-lantern-42';

/** The flags every bench launches Chromium with: no sandbox (root), and none of its own traffic. */
export const BENCH_CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Headless Chromium for a bench: CHROMIUM_PATH, else the system's. */
export function launchBenchChromium(executablePath?: string): Promise<Browser> {
  return chromium.launch({
    executablePath: executablePath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: BENCH_CHROMIUM_ARGS,
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('port')),
      );
    });
  });
}

export async function startServer(
  distDir: string,
  options: { keepDataDir?: boolean } = {},
): Promise<{ origin: string; dataDir: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'satchel-cold-open-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: distDir,
      AUTH_AUTOCONFIRM: 'true',
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  const origin = `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(`${origin}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error('The server did not start');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    origin,
    dataDir,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      // A caller that reads the server's database afterwards removes the folder itself.
      if (!options.keepDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A confirmed account (the server runs with AUTH_AUTOCONFIRM); resolves its email. */
export async function signUp(origin: string, name: string): Promise<string> {
  const email = `${name}.${Date.now()}@example.com`;
  const config = (await (
    await fetch(`${origin}/api/config?endpoint=get-public-config`)
  ).json()) as {
    supabaseAnonKey: string;
  };
  const signup = await fetch(`${origin}/auth/v1/signup`, {
    method: 'POST',
    headers: {
      apikey: config.supabaseAnonKey,
      Authorization: `Bearer ${config.supabaseAnonKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ email, password, data: { first_name: 'Bench' } }),
  });
  if (!signup.ok) throw new Error(`signup ${signup.status}`);
  return email;
}

/** A new browser context signed in through the login screen, on the dashboard, synced. */
export async function signIn(browser: Browser, origin: string, email: string) {
  const context = await browser.newContext({ baseURL: origin });
  // tsx names inner functions with a `__name` helper pages do not have (page.evaluate bodies).
  await context.addInitScript('globalThis.__name = (fn) => fn;');
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL('**/dashboard');
  await page.getByRole('button', { name: 'Sync: All changes saved' }).waitFor();
  return { context, page };
}

export async function signUpAndIn(browser: Browser, origin: string, name: string) {
  const { context, page } = await signIn(browser, origin, await signUp(origin, name));
  // The service worker must control the page for an offline open (it takes the next navigation).
  await page.waitForFunction(async () => (await navigator.serviceWorker.ready).active !== null);
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  return { context, page };
}

/** Writes projects straight into the signed-in user's IndexedDB, as a big pull would leave it. */
async function seedProjects(page: Page, count: number): Promise<void> {
  await page.evaluate(async (total) => {
    const names = (await indexedDB.databases()).map((db) => db.name ?? '');
    const name = names.find((n) => n.startsWith('satchel-'));
    if (!name) throw new Error('no local database');
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(new Error(request.error?.message ?? 'IndexedDB error'));
    });
    const workspace = await new Promise<{ id: string }>((resolve, reject) => {
      const request = db.transaction('workspaces').objectStore('workspaces').getAll();
      request.onsuccess = () => resolve((request.result as { id: string }[])[0]!);
      request.onerror = () => reject(new Error(request.error?.message ?? 'IndexedDB error'));
    });
    const statuses = ['planned', 'active', 'on_hold', 'completed', 'cancelled'];
    const at = new Date().toISOString();
    const tx = db.transaction(['clients', 'projects'], 'readwrite');
    const clients = tx.objectStore('clients');
    const projects = tx.objectStore('projects');
    const common = {
      workspaceId: workspace.id,
      archived: false,
      createdAt: at,
      createdBy: 'bench',
      updatedAt: at,
      updatedBy: 'bench',
      version: 1,
      _v: 1,
      _pending: 0,
      _deleted: false,
      _base: {},
    };
    for (let c = 0; c < 50; c += 1) {
      clients.put({
        ...common,
        id: `bench-client-${c}`,
        name: `Client ${String(c).padStart(2, '0')}`,
        company: null,
        email: null,
        phone: null,
        address: null,
        website: null,
        notesSummary: null,
        tags: [],
        status: 'active',
        currency: 'EUR',
        locale: null,
        timeZone: null,
      });
    }
    for (let i = 0; i < total; i += 1) {
      projects.put({
        ...common,
        id: `bench-project-${i}`,
        clientId: `bench-client-${i % 50}`,
        name: `Project ${String(i).padStart(5, '0')}`,
        description: null,
        status: statuses[i % statuses.length],
        startDate: null,
        dueDate: `2027-0${(i % 9) + 1}-15`,
        budget: '1500.00',
        currency: 'EUR',
        billingType: 'fixed',
        color: null,
      });
    }
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(new Error(tx.error?.message ?? 'IndexedDB error'));
    });
    db.close();
  }, count);
}

/**
 * One project with a four-column board and `count` tasks, written straight into IndexedDB as a
 * big pull would leave them. Resolves the project's path.
 */
async function seedBoard(page: Page, count: number): Promise<string> {
  return page.evaluate(async (total) => {
    const names = (await indexedDB.databases()).map((db) => db.name ?? '');
    const name = names.find((n) => n.startsWith('satchel-'));
    if (!name) throw new Error('no local database');
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(new Error(request.error?.message ?? 'IndexedDB error'));
    });
    const workspace = await new Promise<{ id: string }>((resolve, reject) => {
      const request = db.transaction('workspaces').objectStore('workspaces').getAll();
      request.onsuccess = () => resolve((request.result as { id: string }[])[0]!);
      request.onerror = () => reject(new Error(request.error?.message ?? 'IndexedDB error'));
    });
    const at = new Date().toISOString();
    const common = {
      workspaceId: workspace.id,
      createdAt: at,
      createdBy: 'bench',
      updatedAt: at,
      updatedBy: 'bench',
      version: 1,
      _v: 1,
      _pending: 0,
      _deleted: false,
      _base: {},
    };
    const clientId = crypto.randomUUID();
    const projectId = crypto.randomUUID();
    const tx = db.transaction(['clients', 'projects', 'kanbanColumns', 'tasks'], 'readwrite');
    tx.objectStore('clients').put({
      ...common,
      id: clientId,
      name: 'Board client',
      company: null,
      email: null,
      phone: null,
      address: null,
      website: null,
      notesSummary: null,
      tags: [],
      status: 'active',
      currency: 'EUR',
      locale: null,
      timeZone: null,
      archived: false,
    });
    tx.objectStore('projects').put({
      ...common,
      id: projectId,
      clientId,
      name: 'Big board',
      description: null,
      status: 'active',
      startDate: null,
      dueDate: null,
      budget: null,
      currency: 'EUR',
      billingType: 'fixed',
      color: null,
      archived: false,
    });
    const columnIds = ['a0', 'a1', 'a2', 'a3'].map((position, index) => {
      const id = crypto.randomUUID();
      tx.objectStore('kanbanColumns').put({
        ...common,
        id,
        projectId,
        name: ['To do', 'In progress', 'Review', 'Done'][index],
        position,
        isDone: index === 3,
      });
      return id;
    });
    const tasks = tx.objectStore('tasks');
    for (let i = 0; i < total; i += 1) {
      tasks.put({
        ...common,
        id: crypto.randomUUID(),
        projectId,
        title: `Task ${String(i).padStart(5, '0')}`,
        description: null,
        columnId: columnIds[i % 4],
        // Keys in order: "a" + a base-62-safe counter (valid fractional keys, no trailing zero).
        position: `a0${String(i).padStart(5, '1').replace(/0/g, '1')}`,
        assigneeId: null,
        dueDate: null,
        priority: 'none',
        labels: [],
        estimateMinutes: null,
        milestoneId: null,
        checklist: [],
      });
    }
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(new Error(tx.error?.message ?? 'IndexedDB error'));
    });
    db.close();
    return `/projects/${projectId}/${clientId}?tab=tasks`;
  }, count);
}

/** New tab, network off: milliseconds from navigation start until `selector` is on screen. */
async function coldOpen(
  context: BrowserContext,
  selector: string,
  url = '/projects',
): Promise<number> {
  await context.setOffline(true);
  const page = await context.newPage();
  await page.goto(url);
  await page.locator(selector).first().waitFor({ state: 'visible', timeout: 30_000 });
  const elapsed = await page.evaluate(() => performance.now());
  await page.close();
  await context.setOffline(false);
  return elapsed;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function runColdOpenBenchmark(
  options: { distDir?: string; chromePath?: string } = {},
): Promise<BenchRow[]> {
  const server = await startServer(path.resolve(options.distDir ?? 'dist'));
  const browser = await launchBenchChromium(options.chromePath);
  try {
    const full = await signUpAndIn(browser, server.origin, 'cold-full');
    await seedProjects(full.page, PROJECTS);
    await full.page.close();
    const board = await signUpAndIn(browser, server.origin, 'cold-board');
    const boardUrl = await seedBoard(board.page, TASKS);
    await board.page.close();
    const empty = await signUpAndIn(browser, server.origin, 'cold-empty');
    await empty.page.close();

    const rowSelector = 'ul[aria-label="Projects"] li, [aria-label="Project board"] li';
    const emptySelector = 'h2:has-text("project")';
    await coldOpen(full.context, rowSelector); // warm the service worker's cache and Chromium
    await coldOpen(empty.context, emptySelector);
    const cardSelector = '[role="grid"] [role="row"]';
    await coldOpen(board.context, cardSelector, boardUrl);
    const withRows: number[] = [];
    const reference: number[] = [];
    const boardOpens: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      withRows.push(await coldOpen(full.context, rowSelector));
      reference.push(await coldOpen(empty.context, emptySelector));
      boardOpens.push(await coldOpen(board.context, cardSelector, boardUrl));
    }
    const boardFigure = median(boardOpens);
    const figure = median(withRows);
    const ref = median(reference);
    return [
      withTarget(
        {
          what: `Cold open of /projects offline with ${PROJECTS.toLocaleString('en')} projects on the device, new tab to first row, median of ${RUNS}`,
          figure: `${figure.toFixed(0)} ms`,
          reference: `${ref.toFixed(0)} ms (same cold open with no projects, to the empty state)`,
          ratio: `${(figure / ref).toFixed(2)}x`,
        },
        `< ${TARGET_MS} ms`,
        figure < TARGET_MS,
      ),
      withTarget(
        {
          what: `Cold open of a project's board offline with ${TASKS.toLocaleString('en')} tasks in 4 columns, new tab to first card, median of ${RUNS}`,
          figure: `${boardFigure.toFixed(0)} ms`,
          reference: `${ref.toFixed(0)} ms (cold open of /projects with no projects, to the empty state)`,
          ratio: `${(boardFigure / ref).toFixed(2)}x`,
        },
        `< ${TARGET_MS} ms`,
        boardFigure < TARGET_MS,
      ),
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await runColdOpenBenchmark({
    ...(process.argv[2] ? { distDir: process.argv[2] } : {}),
  })) {
    process.stdout.write(`${JSON.stringify(row, null, 2)}\n`);
  }
}
