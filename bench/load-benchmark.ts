/**
 * Load benchmark (issue 11): the real server process (`node --import tsx server/main.ts`, as
 * `npm start` runs it, embedded PGlite in a temporary DATA_DIR, embedded auth, LOG_LEVEL=warn)
 * under 200 users at once, each doing password sign-in, a pull, a push of a few creates and a
 * second pull over loopback with Node's fetch. Reported: p50/p95 per request kind, errors
 * (non-2xx, network errors, rejected mutations, creates the second pull does not return; counted,
 * never retried), wall time, throughput and the server's peak RSS (/proc/<pid>/status, sampled).
 * Reference, same process, same run: as many GET /healthz (one database round trip) at the same
 * concurrency. Setup (sign-up and register-user of each user) is not timed.
 *
 * Rate limits stay as shipped: the server runs with TRUST_PROXY=1 (README: one proxy in front) and
 * each simulated user sends its own X-Forwarded-For address, as users behind a load balancer do;
 * per user that is one sign-up and two sign-ins, far below the per-address limits.
 * Run alone with `npx tsx bench/load-benchmark.ts`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchRow } from './bench-row.ts';

export type Row = BenchRow;

const USERS = 200;
/** Creates per push: a few, as a device coming back online sends. */
const CREATES = 5;
const PASSWORD = 'load-bench-Passw0rd-7319';
const REQUEST_TIMEOUT_MS = 60_000;
const root = path.resolve(import.meta.dirname, '..');

type Kind = 'sign-in' | 'pull' | 'push' | 'pull after push';
const kinds: Kind[] = ['sign-in', 'pull', 'push', 'pull after push'];

interface Sample {
  kind: Kind;
  ms: number;
  /** Why it counts as an error; undefined when it succeeded. */
  error?: string;
}

interface User {
  email: string;
  /** The address its requests come from, as a trusted proxy would forward it. */
  ip: string;
  workspaceId: string;
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const mib = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`;

/** A failed fetch as its cause names it (ECONNRESET, UND_ERR_SOCKET, TimeoutError...). */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: string; message?: string } | undefined;
  return cause?.code ?? cause?.message ?? error.name;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** VmRSS of a process in kB; null where /proc is not available. */
function rssKb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every 20 ms until stopped; returns the peak seen. */
function sampleRss(pid: number): { stop: () => number | null } {
  let peak: number | null = rssKb(pid);
  const timer = setInterval(() => {
    const now = rssKb(pid);
    if (now !== null) peak = Math.max(peak ?? 0, now);
  }, 20);
  return {
    stop: () => {
      clearInterval(timer);
      const now = rssKb(pid);
      return now === null ? peak : Math.max(peak ?? 0, now);
    },
  };
}

interface Server {
  child: ChildProcess;
  url: string;
  output: string[];
}

async function startServer(dataDir: string): Promise<Server> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      AUTH_AUTOCONFIRM: 'true',
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 50) output.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const server = { child, url, output };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`server exited with ${child.exitCode}: ${output.join('').slice(-2000)}`);
    }
    try {
      if ((await fetch(`${url}/healthz`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not answer /healthz within 60 s: ${output.join('').slice(-2000)}`);
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Runs `count` tasks with at most `width` at a time. */
async function pool(count: number, width: number, task: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) {
        const i = next;
        next += 1;
        await task(i);
      }
    }),
  );
}

export async function runLoadBenchmark(): Promise<Row[]> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'satchel-load-'));
  let server: Server | undefined;
  try {
    server = await startServer(dataDir);
    const { url } = server;
    const pid = server.child.pid;
    if (pid === undefined) throw new Error('server has no pid');
    const startRssKb = rssKb(pid);

    const config = (await (await fetch(`${url}/api/config?endpoint=get-public-config`)).json()) as {
      supabaseAnonKey: string;
    };
    const authHeaders = (ip: string) => ({
      apikey: config.supabaseAnonKey,
      'Content-Type': 'application/json',
      'X-Forwarded-For': ip,
    });
    const apiHeaders = (ip: string, token: string) => ({
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      'X-Forwarded-For': ip,
    });
    const run = (path: string, init: RequestInit = {}) =>
      fetch(`${url}${path}`, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });

    // Setup, not timed: sign-up (autoconfirmed, answers with a session) and register-user, which
    // creates each user's workspace. One extra user warms the paths up before anything is timed.
    const users: User[] = [];
    const setupStarted = performance.now();
    await pool(USERS + 1, 8, async (i) => {
      const ip = `10.${11 + Math.floor(i / 250)}.${i % 250}.${1 + (i % 7)}`;
      const email = `load-${i}-${crypto.randomUUID().slice(0, 8)}@example.com`;
      const signUp = await run('/auth/v1/signup', {
        method: 'POST',
        headers: authHeaders(ip),
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      const session = (await signUp.json()) as { access_token?: string; user?: { id: string } };
      if (!signUp.ok || !session.access_token || !session.user) {
        throw new Error(`sign-up answered ${signUp.status}: ${JSON.stringify(session)}`);
      }
      const registered = await run('/api/register?endpoint=register-user', {
        method: 'POST',
        headers: apiHeaders(ip, session.access_token),
        body: JSON.stringify({ id: session.user.id, email, firstName: `Load ${i}` }),
      });
      const body = (await registered.json()) as { data?: { workspace?: { id: string } } };
      const workspaceId = body.data?.workspace?.id;
      if (!registered.ok || !workspaceId) {
        throw new Error(`register-user answered ${registered.status}: ${JSON.stringify(body)}`);
      }
      users[i] = { email, ip, workspaceId };
    });
    process.stderr.write(
      `load: ${USERS + 1} users set up in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s\n`,
    );

    /** One user's session: sign-in, pull, push of a few creates, pull from the cursor. */
    async function session(user: User, record: (sample: Sample) => void): Promise<void> {
      const timed = async <T>(
        kind: Kind,
        fn: () => Promise<{ ok: boolean; value?: T; error?: string }>,
      ): Promise<T | undefined> => {
        const started = performance.now();
        let outcome: { ok: boolean; value?: T; error?: string };
        try {
          outcome = await fn();
        } catch (error) {
          outcome = { ok: false, error: describeError(error) };
        }
        record({
          kind,
          ms: performance.now() - started,
          ...(outcome.ok ? {} : { error: outcome.error ?? 'failed' }),
        });
        return outcome.ok ? outcome.value : undefined;
      };
      const token = await timed('sign-in', async () => {
        const r = await run('/auth/v1/token?grant_type=password', {
          method: 'POST',
          headers: authHeaders(user.ip),
          body: JSON.stringify({ email: user.email, password: PASSWORD }),
        });
        const body = (await r.json()) as { access_token?: string };
        return r.ok && body.access_token
          ? { ok: true, value: body.access_token }
          : { ok: false, error: `HTTP ${r.status}` };
      });
      if (token === undefined) return;
      const headers = apiHeaders(user.ip, token);
      const pullUrl = (cursor?: string) =>
        `/api/sync?endpoint=pull&workspaceId=${user.workspaceId}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      type Pulled = { cursor?: string; changes?: { table: string; id: string }[] };
      const cursor = await timed('pull', async () => {
        const r = await run(pullUrl(), { headers });
        const body = (await r.json()) as Pulled;
        return r.ok && body.cursor
          ? { ok: true, value: body.cursor }
          : { ok: false, error: `HTTP ${r.status}` };
      });
      if (cursor === undefined) return;
      const ids = Array.from({ length: CREATES }, () => crypto.randomUUID());
      const pushed = await timed('push', async () => {
        const r = await run('/api/sync?endpoint=push', {
          method: 'POST',
          headers,
          body: JSON.stringify({
            clientId: crypto.randomUUID(),
            mutations: ids.map((id, k) => ({
              mutationId: crypto.randomUUID(),
              clientSeq: k + 1,
              resource: 'client',
              operation: 'create-client',
              body: { id, workspaceId: user.workspaceId, name: `Load client ${k + 1}` },
            })),
          }),
        });
        const body = (await r.json()) as { results?: { status: number }[] };
        if (!r.ok) return { ok: false, error: `HTTP ${r.status}` };
        const applied = body.results?.filter((result) => result.status < 300).length ?? 0;
        return applied === CREATES
          ? { ok: true, value: true }
          : { ok: false, error: `${applied} of ${CREATES} mutations applied` };
      });
      if (pushed === undefined) return;
      await timed('pull after push', async () => {
        const r = await run(pullUrl(cursor), { headers });
        const body = (await r.json()) as Pulled;
        if (!r.ok) return { ok: false, error: `HTTP ${r.status}` };
        const seen = new Set(body.changes?.map((change) => change.id));
        return ids.every((id) => seen.has(id))
          ? { ok: true, value: true }
          : { ok: false, error: 'pull missed pushed creates' };
      });
    }

    /** The reference: a user's four requests, each GET /healthz. */
    async function bare(record: (sample: Sample) => void): Promise<void> {
      for (const kind of kinds) {
        const started = performance.now();
        let error: string | undefined;
        try {
          const r = await run('/healthz');
          await r.arrayBuffer();
          if (!r.ok) error = `HTTP ${r.status}`;
        } catch (caught) {
          error = describeError(caught);
        }
        record({ kind, ms: performance.now() - started, ...(error ? { error } : {}) });
      }
    }

    // Warm-up: the extra user's session and a few bare requests, not recorded.
    const warmUser = users[USERS];
    if (!warmUser) throw new Error('no warm-up user');
    await session(warmUser, () => {});
    for (let i = 0; i < 20; i += 1) await bare(() => {});

    /** All users at once; each runs its requests one after another. */
    async function phase(task: (i: number, record: (s: Sample) => void) => Promise<void>) {
      const samples: Sample[] = [];
      const rss = sampleRss(pid as number);
      const started = performance.now();
      await Promise.all(
        Array.from({ length: USERS }, (_, i) => task(i, (sample) => samples.push(sample))),
      );
      const wallMs = performance.now() - started;
      return { samples, wallMs, peakRssKb: rss.stop() };
    }

    const idleRssKb = rssKb(pid);
    const reference = await phase((_i, record) => bare(record));
    const load = await phase((i, record) => {
      const user = users[i];
      if (!user) throw new Error(`no user ${i}`);
      return session(user, record);
    });
    const hwm = /^VmHWM:\s+(\d+)\s+kB/m.exec(
      (() => {
        try {
          return readFileSync(`/proc/${pid}/status`, 'utf8');
        } catch {
          return '';
        }
      })(),
    );

    const expected = USERS * kinds.length;
    const refMs = reference.samples.map((s) => s.ms);
    const refErrors = reference.samples.filter((s) => s.error).length;
    const refLabel = `GET /healthz, p50 ${ms(percentile(refMs, 50))}, p95 ${ms(percentile(refMs, 95))}`;
    const errors = load.samples.filter((s) => s.error);
    const byReason = new Map<string, number>();
    for (const s of errors) {
      const reason = `${s.kind}: ${s.error}`;
      byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
    }
    // A reset on a kept-alive connection: the server closed it (keep-alive timeout) as the request
    // was sent. Counted like any error; named so the table says what it was.
    const resets = errors.some((s) => s.error === 'ECONNRESET')
      ? ' (ECONNRESET: the server closed a kept-alive connection the request went out on)'
      : '';
    const failing = (row: Row): Row =>
      errors.length > 0 ? { ...row, target: 'no errors', pass: false } : row;
    const setting = `${USERS} users at once, each sign-in, pull, push of ${CREATES} creates, pull`;

    const kindRow = (kind: Kind): Row => {
      const samples = load.samples.filter((s) => s.kind === kind && !s.error).map((s) => s.ms);
      const failed = load.samples.filter((s) => s.kind === kind && s.error).length;
      const a = percentile(samples, 50);
      const r = percentile(refMs, 50);
      return failing({
        what: `${setting}: ${kind}, p50 of ${samples.length}${failed ? ` (${failed} failed)` : ''} (p95 ${ms(percentile(samples, 95))})`,
        figure: ms(a),
        reference: refLabel,
        ratio: `${(a / r).toFixed(1)}x (p95 ${(percentile(samples, 95) / percentile(refMs, 95)).toFixed(1)}x)`,
      });
    };

    const loadMs = load.samples.map((s) => s.ms);
    const throughput = (count: number, wallMs: number) =>
      `${((count / wallMs) * 1000).toFixed(0)} req/s`;
    return [
      failing({
        what: `${setting} (${expected} requests), real server process over loopback: wall time, throughput; all requests p50 ${ms(percentile(loadMs, 50))}, p95 ${ms(percentile(loadMs, 95))}`,
        figure: `${(load.wallMs / 1000).toFixed(2)} s, ${throughput(load.samples.length, load.wallMs)}`,
        reference: `${(reference.wallMs / 1000).toFixed(2)} s, ${throughput(reference.samples.length, reference.wallMs)} (${reference.samples.length} GET /healthz, same concurrency; p50 ${ms(percentile(refMs, 50))}, p95 ${ms(percentile(refMs, 95))})`,
        ratio: `${(load.wallMs / reference.wallMs).toFixed(1)}x`,
      }),
      ...kinds.map(kindRow),
      failing({
        what: `${setting}: errors (non-2xx, network errors, rejected mutations, creates missing from the second pull)${resets}`,
        figure: `${errors.length} of ${load.samples.length}${errors.length ? ` (${[...byReason].map(([reason, n]) => `${reason} ×${n}`).join('; ')})` : ''}${load.samples.length < expected ? `; ${expected - load.samples.length} not attempted after an earlier failure` : ''}`,
        reference: `${refErrors} of ${reference.samples.length} (GET /healthz)`,
        ratio: '—',
      }),
      failing({
        what: `${setting}: server RSS, peak sampled every 20 ms during the run (process peak over its life, setup included: ${hwm ? mib(Number(hwm[1])) : 'n/a'})`,
        figure: load.peakRssKb === null ? 'n/a' : mib(load.peakRssKb),
        reference:
          idleRssKb === null || reference.peakRssKb === null
            ? 'n/a'
            : `${startRssKb === null ? '' : `${mib(startRssKb)} at start; `}${mib(idleRssKb)} idle after setup; ${mib(reference.peakRssKb)} peak during the GET /healthz run`,
        ratio:
          load.peakRssKb === null || idleRssKb === null
            ? '—'
            : `${(load.peakRssKb / idleRssKb).toFixed(2)}x idle`,
      }),
    ];
  } finally {
    if (server) await stopServer(server.child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await runLoadBenchmark()) {
    process.stdout.write(
      `| ${row.what} | ${row.figure} | ${row.reference} | ${row.ratio} | ${row.target ?? '—'} | ${row.pass === undefined ? '—' : row.pass ? 'pass' : '**fail**'} |\n`,
    );
  }
}
