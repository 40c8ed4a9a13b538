/**
 * Offline data layer benchmarks (issue 4), each beside a reference measured in the same run:
 * - pull apply: 10,000 rows through the engine (api-client parse, row checks, one transaction per
 *   1,000-row page, cursor) vs raw Dexie bulkPut of the same rows in the same page size;
 * - enqueue: a local edit (row + outbox entry in one transaction) with 5,000 changes pending, p95,
 *   vs a raw single outbox add;
 * - card move: a board card moved to another column with 5,000 task creates pending, p95, vs the
 *   same raw outbox add;
 * - push drain: 5,000 queued creates pushed to the in-process server (PGlite) and acked by a pull,
 *   vs raw single-row INSERT transactions of the same rows;
 * - push, server only: the same creates as prepared push requests straight to the in-process
 *   app (no device engine), vs the same raw INSERTs.
 * IndexedDB here is fake-indexeddb in Node (pure JS): absolute figures are far below a browser's;
 * the ratios are what carries over. Run alone with `npx tsx bench/sync-benchmarks.ts`.
 */
import 'fake-indexeddb/auto';
import { createWriteStream } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { createApiClient } from '../src/api-client/call-endpoint.ts';
import { createAppDatabase, entityTables } from '../src/db/app-database.ts';
import type { LocalWriteContext } from '../src/db/local-write.ts';
import { createClient, updateClient } from '../src/data/client-mutations.ts';
import { createProject } from '../src/data/project-mutations.ts';
import { addDefaultColumns, addTask, moveTask, type LocalTask } from '../src/data/project-work.ts';
import { createSyncEngine, type SyncClock } from '../src/sync/sync-engine.ts';
import { createTestApp, jsonRequest } from '../tests/fixtures/create-test-app.ts';
import { postgresTestUrl } from '../tests/fixtures/scratch-postgres.ts';
import { bearer, createTestTokens, newTestUser } from '../tests/fixtures/test-tokens.ts';
import { withTarget, type BenchRow } from './bench-row.ts';

export type Row = BenchRow;

const PULL_ROWS = 10_000;
const PAGE = 1_000;
const PENDING = 5_000;
const ENQUEUE_SAMPLES = 300;
const DRAIN = 5_000;
const PUSH_BATCH = 100;

/** No timers: the benchmark drives each run with syncNow(). */
const manualClock: SyncClock = {
  now: () => Date.now(),
  setTimeout: () => 0,
  clearTimeout: () => {},
};

const freshDb = (userId: string) =>
  createAppDatabase(userId, { name: `bench-${crypto.randomUUID()}` });
const perSecond = (count: number, ms: number) => Math.round((count / ms) * 1_000);
const fmt = (value: number) => value.toLocaleString('en-US');

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function serverClient(i: number, workspaceId: string, userId: string) {
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
  return {
    id: crypto.randomUUID(),
    workspaceId,
    name: `Client ${i}`,
    company: `Company ${i % 97}`,
    email: `client${i}@example.com`,
    phone: '+1 555 0100',
    address: '1 Main Street, Springfield',
    website: 'https://example.com',
    notesSummary: 'Prefers email; invoices at month end.',
    tags: ['retainer', i % 2 === 0 ? 'vip' : 'new'],
    status: 'active' as const,
    currency: 'EUR',
    locale: 'en-GB',
    timeZone: 'Europe/London',
    archived: false,
    createdAt: at,
    createdBy: userId,
    updatedAt: at,
    updatedBy: userId,
    version: i + 1,
  };
}

async function benchPullApply(): Promise<Row> {
  const userId = crypto.randomUUID();
  const workspaceId = crypto.randomUUID();
  const rows = Array.from({ length: PULL_ROWS }, (_, i) => serverClient(i, workspaceId, userId));
  const pages = Array.from({ length: PULL_ROWS / PAGE }, (_, page) =>
    JSON.stringify({
      changes: rows.slice(page * PAGE, (page + 1) * PAGE).map((row) => ({
        table: 'clients',
        id: row.id,
        op: 'upsert',
        row,
        seq: row.version,
      })),
      cursor: `page-${page + 1}`,
      hasMore: page + 1 < PULL_ROWS / PAGE,
    }),
  );
  // Pages are served from memory (serialised beforehand): what is timed is the client's work.
  const fetchPage = (input: string) => {
    const cursor = new URL(input).searchParams.get('cursor');
    const index = cursor ? Number(cursor.slice('page-'.length)) : 0;
    return Promise.resolve(
      new Response(pages[index], { headers: { 'Content-Type': 'application/json' } }),
    );
  };

  const engineRun = async () => {
    const db = freshDb(userId);
    const { callEndpoint } = createApiClient({
      baseUrl: 'http://bench',
      fetch: (input) => fetchPage(input as string),
    });
    const engine = createSyncEngine({
      db,
      userId,
      callEndpoint,
      getWorkspaceIds: () => Promise.resolve([workspaceId]),
      clock: manualClock,
      refreshMembers: false,
    });
    await engine.start();
    const started = performance.now();
    await engine.syncNow();
    const elapsed = performance.now() - started;
    if ((await db.clients.count()) !== PULL_ROWS) throw new Error('pull apply lost rows');
    engine.stop();
    // Deleted after each run: fake-indexeddb keeps everything in the heap, and a heap growing
    // run after run would tax whichever side runs later.
    await db.delete();
    return elapsed;
  };
  const rawRun = async () => {
    const db = freshDb(userId);
    await db.open();
    const started = performance.now();
    for (let page = 0; page < PULL_ROWS / PAGE; page += 1) {
      await db.clients.bulkPut(rows.slice(page * PAGE, (page + 1) * PAGE) as never[]);
    }
    const elapsed = performance.now() - started;
    await db.delete();
    return elapsed;
  };
  // Alternating, best of three each: the machine is shared and the first runs warm the JIT.
  const raws: number[] = [];
  const engines: number[] = [];
  for (let round = 0; round < 3; round += 1) {
    raws.push(await rawRun());
    engines.push(await engineRun());
  }
  const raw = Math.min(...raws);
  const engine = Math.min(...engines);
  const perPage = engine / (PULL_ROWS / PAGE);
  const row: Row = {
    what: `pull apply: ${fmt(PULL_ROWS)} client rows in ${PULL_ROWS / PAGE} pages through the engine (api-client parse, row checks, one Dexie transaction per page, cursor), fake-indexeddb in Node`,
    figure: `${fmt(perSecond(PULL_ROWS, engine))} rows/s (${engine.toFixed(0)} ms; ${perPage.toFixed(0)} ms per 1,000-row page)`,
    reference: `${fmt(perSecond(PULL_ROWS, raw))} rows/s (raw Dexie bulkPut, same rows and pages)`,
    ratio: `${(raw / engine).toFixed(2)}x of raw`,
  };
  return withTarget(
    row,
    '>= 0.5x of raw; 1,000-row page < 200 ms',
    raw / engine >= 0.5 && perPage < 200,
  );
}

/** Queues `count` client creates quickly: one outer transaction around the normal write path. */
async function queueCreates(ctx: LocalWriteContext, workspaceId: string, count: number) {
  const { db } = ctx;
  const ids: string[] = [];
  await db.transaction('rw', [...entityTables(db), db.outbox, db.syncState], async () => {
    for (let i = 0; i < count; i += 1) {
      ids.push((await createClient(ctx, { workspaceId, name: `Queued ${i}` })).id);
    }
  });
  return ids;
}

async function benchEnqueue(): Promise<Row> {
  const userId = crypto.randomUUID();
  const workspaceId = crypto.randomUUID();
  const db = freshDb(userId);
  const ctx: LocalWriteContext = { db, userId };
  const ids = await queueCreates(ctx, workspaceId, PENDING);
  const enqueue: number[] = [];
  for (let i = 0; i < ENQUEUE_SAMPLES; i += 1) {
    const started = performance.now();
    await updateClient(ctx, ids[i] as string, { phone: `+1 555 ${i}` });
    enqueue.push(performance.now() - started);
  }
  const sample = await db.outbox.get(1);
  const raw: number[] = [];
  for (let i = 0; i < ENQUEUE_SAMPLES; i += 1) {
    const { seq: _seq, ...entry } = sample!;
    const started = performance.now();
    await db.transaction('rw', db.outbox, () =>
      db.outbox.add({ ...entry, mutationId: crypto.randomUUID() }),
    );
    raw.push(performance.now() - started);
  }
  await db.delete();
  const p95 = percentile(enqueue, 95);
  const rawP95 = percentile(raw, 95);
  const row: Row = {
    what: `enqueue: a local edit (row + outbox entry in one transaction) with ${fmt(PENDING)} changes pending, p95 of ${ENQUEUE_SAMPLES} (p50 ${percentile(enqueue, 50).toFixed(2)} ms), fake-indexeddb in Node`,
    figure: `${p95.toFixed(2)} ms`,
    reference: `${rawP95.toFixed(2)} ms (raw single outbox add in its own transaction, p95)`,
    ratio: `${(p95 / rawP95).toFixed(2)}x`,
  };
  return withTarget(row, 'p95 < 20 ms', p95 < 20);
}

/**
 * A card move on the board: one patch of the task's order key (and column), row + outbox entry in
 * one transaction, with 5,000 task creates pending in the outbox.
 */
async function benchCardMove(): Promise<Row> {
  const userId = crypto.randomUUID();
  const workspaceId = crypto.randomUUID();
  const db = freshDb(userId);
  const ctx: LocalWriteContext = { db, userId };
  const client = await createClient(ctx, { workspaceId, name: 'Board client' });
  const project = await createProject(ctx, { workspaceId, clientId: client.id, name: 'Board' });
  const columns = await addDefaultColumns(ctx, project);
  const [firstColumn, doing] = columns;
  if (!firstColumn || !doing) throw new Error('no columns');
  const tasks: LocalTask[] = [];
  await db.transaction('rw', [...entityTables(db), db.outbox, db.syncState], async () => {
    for (let i = 0; i < PENDING; i += 1) {
      tasks.push(
        await addTask(
          ctx,
          { workspaceId, projectId: project.id, columnId: firstColumn.id, title: `Task ${i}` },
          tasks.slice(-1),
        ),
      );
    }
  });
  const moves: number[] = [];
  let top: string | null = null;
  for (let i = 0; i < ENQUEUE_SAMPLES; i += 1) {
    const task = tasks[i] as LocalTask;
    const started = performance.now();
    // Each card goes to the top of In progress, above the one moved before it.
    await moveTask(ctx, task, { columnId: doing.id, before: null, after: top });
    moves.push(performance.now() - started);
    top = (await db.tasks.get(task.id))?.position ?? null;
  }
  const sample = await db.outbox.get(1);
  const raw: number[] = [];
  for (let i = 0; i < ENQUEUE_SAMPLES; i += 1) {
    const { seq: _seq, ...entry } = sample!;
    const started = performance.now();
    await db.transaction('rw', db.outbox, () =>
      db.outbox.add({ ...entry, mutationId: crypto.randomUUID() }),
    );
    raw.push(performance.now() - started);
  }
  await db.delete();
  const p95 = percentile(moves, 95);
  const rawP95 = percentile(raw, 95);
  return withTarget(
    {
      what: `card move: a task to the top of another board column (order key + column patch, row + outbox entry in one transaction) with ${fmt(PENDING)} task creates pending, p95 of ${ENQUEUE_SAMPLES} (p50 ${percentile(moves, 50).toFixed(2)} ms), fake-indexeddb in Node`,
      figure: `${p95.toFixed(2)} ms`,
      reference: `${rawP95.toFixed(2)} ms (raw single outbox add in its own transaction, p95)`,
      ratio: `${(p95 / rawP95).toFixed(2)}x`,
    },
    'p95 < 20 ms',
    p95 < 20,
  );
}

async function benchPushDrain(postgresUrl?: string): Promise<Row> {
  const tokens = await createTestTokens();
  const t = await createTestApp({
    verifyAccessToken: tokens.verifyAccessToken,
    logDestination: createWriteStream('/dev/null'),
    ...(postgresUrl ? { postgresUrl } : {}),
  });
  try {
    const user = newTestUser('bench');
    const token = await tokens.sign(user);
    const registered = await t.app.request(
      '/api/register?endpoint=register-user',
      jsonRequest('POST', { id: user.id, email: user.email, firstName: 'B' }, bearer(token)),
    );
    const workspaceId = ((await registered.json()) as { data: { workspace: { id: string } } }).data
      .workspace.id;

    const db = freshDb(user.id);
    await queueCreates({ db, userId: user.id }, workspaceId, DRAIN);
    let serverMs = 0;
    const { callEndpoint } = createApiClient({
      baseUrl: 'http://localhost',
      fetch: async (input, init) => {
        const started = performance.now();
        const response = await t.app.request(input, init);
        const body = await response.arrayBuffer();
        serverMs += performance.now() - started;
        return new Response(body, { status: response.status, headers: response.headers });
      },
      getAccessToken: () => Promise.resolve(token),
    });
    const engine = createSyncEngine({
      db,
      userId: user.id,
      callEndpoint,
      getWorkspaceIds: () => Promise.resolve([workspaceId]),
      clock: manualClock,
      refreshMembers: false,
    });
    await engine.start();
    const started = performance.now();
    await engine.syncNow();
    const drained = performance.now() - started;
    if ((await db.outbox.count()) !== 0) throw new Error('push drain left entries behind');
    engine.stop();
    await db.delete();

    // Reference: the same rows as plain INSERTs, one transaction each (as each mutation is).
    const raw = await rawInserts(t, workspaceId, user.id);
    const rate = perSecond(DRAIN, drained);
    const row: Row = {
      what: `push drain: ${fmt(DRAIN)} queued client creates pushed in batches of 100 to the in-process server (${postgresUrl ? 'PostgreSQL, a scratch database' : 'PGlite'}, one transaction per batch, savepoints only after a failure, the batch's creates, idempotency records and change log one insert each per batch) and acked by pull; the device engine runs on fake-indexeddb in the same process and event loop, so 'inside the server' (the wall time of its requests) can hold device work and GC too`,
      figure: `${fmt(rate)} mutations/s (${(drained / 1_000).toFixed(1)} s, of which ${(serverMs / 1_000).toFixed(1)} s inside the server)`,
      reference: `${fmt(perSecond(DRAIN, raw))} rows/s (raw single-row INSERT transactions, same rows)`,
      ratio: `${(rate / perSecond(DRAIN, raw)).toFixed(2)}x of raw`,
    };
    // The target is the embedded server's; PostgreSQL's figure is recorded beside it.
    const ratio = rate / perSecond(DRAIN, raw);
    return postgresUrl
      ? row
      : withTarget(
          row,
          '>= 500 mutations/s and >= 1x of raw (embedded)',
          rate >= 500 && ratio >= 1,
        );
  } finally {
    await t.cleanup();
  }
}

/** Reference for both push rows: the same rows as plain INSERTs, one transaction each. */
async function rawInserts(
  t: Awaited<ReturnType<typeof createTestApp>>,
  workspaceId: string,
  userId: string,
): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < DRAIN; i += 1) {
    await t.db.transaction((tx) =>
      tx.query(
        "INSERT INTO client (id, workspace_id, name, status, currency, created_by, updated_by, version) VALUES ($1, $2, $3, 'active', 'USD', $4, $4, 0)",
        [crypto.randomUUID(), workspaceId, `Queued ${i}`, userId],
      ),
    );
  }
  return performance.now() - started;
}

/**
 * The server alone: the 5,000 creates the drain pushes, in the same 50 batches of 100, sent
 * straight to `POST /api/sync?endpoint=push` of the in-process app. The bodies are built from a
 * real outbox beforehand (as the engine sends them) and serialised before the clock starts; what
 * is timed is the whole HTTP app (routing, auth, request log, body parse and validation, the
 * batch's transaction, response serialisation), with no device engine and no pull.
 */
async function benchPushServer(postgresUrl?: string): Promise<Row> {
  const tokens = await createTestTokens();
  const t = await createTestApp({
    verifyAccessToken: tokens.verifyAccessToken,
    logDestination: createWriteStream('/dev/null'),
    ...(postgresUrl ? { postgresUrl } : {}),
  });
  try {
    const user = newTestUser('bench');
    const token = await tokens.sign(user);
    const registered = await t.app.request(
      '/api/register?endpoint=register-user',
      jsonRequest('POST', { id: user.id, email: user.email, firstName: 'B' }, bearer(token)),
    );
    const workspaceId = ((await registered.json()) as { data: { workspace: { id: string } } }).data
      .workspace.id;

    const db = freshDb(user.id);
    await queueCreates({ db, userId: user.id }, workspaceId, DRAIN);
    const entries = await db.outbox.orderBy('seq').toArray();
    await db.delete();
    const bodies: string[] = [];
    for (let start = 0; start < entries.length; start += PUSH_BATCH) {
      const batch = entries.slice(start, start + PUSH_BATCH);
      bodies.push(
        JSON.stringify({
          clientId: batch[0]?.clientId,
          mutations: batch.map((entry) => ({
            mutationId: entry.mutationId,
            clientSeq: entry.clientSeq,
            resource: entry.resource,
            operation: entry.operation,
            query: entry.query,
            body: entry.args,
          })),
        }),
      );
    }

    const started = performance.now();
    for (const body of bodies) {
      const response = await t.app.request('/api/sync?endpoint=push', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...bearer(token) },
        body,
      });
      const output = (await response.json()) as { data?: { results: { status: number }[] } };
      if (!response.ok || output.data?.results.some((result) => result.status >= 300)) {
        throw new Error(`push server: a batch failed (${response.status})`);
      }
    }
    const pushed = performance.now() - started;
    const { rows } = await t.db.query<{ count: string }>(
      'SELECT count(*) AS count FROM client WHERE workspace_id = $1',
      [workspaceId],
    );
    if (Number(rows[0]?.count) !== DRAIN) throw new Error('push server lost rows');

    const raw = await rawInserts(t, workspaceId, user.id);
    const rate = perSecond(DRAIN, pushed);
    const rawRate = perSecond(DRAIN, raw);
    return {
      what: `push, server only: the same ${fmt(DRAIN)} client creates as ${DRAIN / PUSH_BATCH} prepared batches of ${PUSH_BATCH} sent straight to POST /api/sync?endpoint=push of the in-process app (${postgresUrl ? 'PostgreSQL, a scratch database' : 'PGlite'}; includes routing, token check, request log, body parse and validation, the batch's transaction, output validation as the test app runs it and the JSON response; no device engine, no pull)`,
      figure: `${fmt(rate)} mutations/s (${(pushed / 1_000).toFixed(2)} s)`,
      reference: `${fmt(rawRate)} rows/s (raw single-row INSERT transactions, same rows)`,
      ratio: `${(rate / rawRate).toFixed(2)}x of raw`,
    };
  } finally {
    await t.cleanup();
  }
}

export async function runSyncBenchmarks(only?: 'push'): Promise<Row[]> {
  if (only === 'push') {
    const rows = [await benchPushDrain(), await benchPushServer()];
    if (postgresTestUrl) {
      rows.push(await benchPushDrain(postgresTestUrl), await benchPushServer(postgresTestUrl));
    }
    return rows;
  }
  const rows = [
    await benchPullApply(),
    await benchEnqueue(),
    await benchCardMove(),
    await benchPushDrain(),
  ];
  // Against PostgreSQL too when one is configured (CI and this machine: DATABASE_URL_TEST).
  rows.push(await benchPushServer());
  if (postgresTestUrl) {
    rows.push(await benchPushDrain(postgresTestUrl), await benchPushServer(postgresTestUrl));
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // `npx tsx bench/sync-benchmarks.ts push`: the push rows only.
  const only = process.argv[2] === 'push' ? 'push' : undefined;
  for (const row of await runSyncBenchmarks(only)) {
    process.stdout.write(`| ${row.what} | ${row.figure} | ${row.reference} | ${row.ratio} |\n`);
  }
}
