/**
 * The sync engine (sync spec b.2–b.10): drains the outbox to push, pulls each workspace; one run at
 * a time, triggers only set wishes and schedule. States: stopped, idle, syncing, retrying (server
 * trouble, backoff), offline, needs_auth (401, until resumeAfterAuth), update_required (426).
 * Nothing leaves the outbox except by a pull reaching its seq, a final refusal, or lost access.
 * One push request at a time; while the server works on a batch, the device writes the previous
 * batch's acks and claims the next batch, which is sent only once this one is all acked.
 */
import { getOwnedWorkspaceId, getWorkspaceMembers } from '#contract/endpoints/workspace.ts';
import { pullChanges, pushMutations } from '#contract/endpoints/sync.ts';
import { DEFAULT_PULL_LIMIT, type PushOutput } from '#contract/sync.ts';
import type { CallEndpoint } from '../api-client/call-endpoint.ts';
import { entityTables, syncedTable, type AppDatabase } from '../db/app-database.ts';
import { restoreOutboxEntry, type OutboxEntry } from '../db/outbox-entry.ts';
import { readSyncCounts } from '../db/sync-counts.ts';
import { stuckIssueId } from '../db/sync-issue.ts';
import {
  DEVICE_KEY,
  newClientId,
  restoreWorkspaceState,
  workspaceStateKey,
  type WorkspaceSyncState,
} from '../db/sync-state.ts';
import { applyPullPage, checkPage, purgeWorkspace, sweepUnseen } from './apply-pull-page.ts';
import { retryDelayMs } from './backoff.ts';
import { classifyFailure, rejectionReason, type FailureClass } from './classify-failure.ts';
import {
  failTemporarily,
  issueFor,
  recordOverwrite,
  rejectEntry,
  removeEntry,
  settlementScope,
} from './outbox-settlement.ts';
import { coalescePatches, selectBatch, type PatchMerge } from './plan-push-batch.ts';

/** Trigger timings (sync spec b.6, b.10). */
export const ENQUEUE_DEBOUNCE_MS = 20;
export const INVALIDATION_DEBOUNCE_MS = 100;
export const POLL_INTERVAL_MS = 60_000;
/** A pull stops after this many pages and asks for another run (its cursor is kept). */
export const MAX_PAGES_PER_PULL = 1_000;

export type SyncEngineState =
  'stopped' | 'idle' | 'syncing' | 'retrying' | 'offline' | 'needs_auth' | 'update_required';

export interface SyncStatus {
  state: SyncEngineState;
  /** Changes the server has not applied yet. */
  waiting: number;
  /** Changes that need the user: refused, lost access, stuck. */
  failed: number;
  lastSyncedAt: number | null;
  nextRetryAt: number | null;
  lastError: string | null;
}

export interface SyncClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: SyncClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface SyncEngineDeps {
  db: AppDatabase;
  userId: string;
  callEndpoint: CallEndpoint;
  getWorkspaceIds: () => Promise<readonly string[]>;
  clock?: SyncClock;
  random?: () => number;
  onStatus?: (status: SyncStatus) => void;
  pullLimit?: number;
  /** Re-read members after a workspace snapshot or a membership change (off in benchmarks). */
  refreshMembers?: boolean;
}

export interface SyncEngine {
  /** Recovers entries a closed tab left in flight, then syncs everything and starts polling. */
  start(): Promise<void>;
  /** Stops timers; a request already on the wire finishes, nothing else starts. */
  stop(): void;
  online(): void;
  offline(): void;
  visible(): void;
  hidden(): void;
  /** A local write queued something (debounced ~20 ms so bursts share a push). */
  enqueued(): void;
  /** Hub message: pull that workspace unless the seq is already here (debounced 100 ms). */
  invalidate(message: { workspaceId: string; seq: number }): void;
  /** Hub reconnected: events may have been missed, so pull everything. */
  reconnect(): void;
  /** A fresh token after a 401: resume the paused queue. */
  resumeAfterAuth(): void;
  /** Runs a full push + pull now and resolves when the engine is idle again. */
  syncNow(): Promise<void>;
  whenIdle(): Promise<void>;
  getStatus(): SyncStatus;
}

/** A queue-wide stop raised inside a run (the run ends; the state says why). */
class SyncStop extends Error {
  readonly failure: FailureClass;
  constructor(failure: FailureClass) {
    super(failure.message);
    this.failure = failure;
  }
}

const SENDABLE_STATUSES = ['pending', 'retry', 'stuck'] as const;
const DEVICE_ID_TAKEN = 403;
const TOO_LARGE = 413;
const MUTATION_PATH = /^body\.mutations\.(\d+)/;
const STUCK_PREFIX = stuckIssueId('');

type PushResult = PushOutput['results'][number];
/** Applied, with a seq to wait for, over nobody's edit: the usual result. */
const isPlainAck = (result: PushResult | undefined): result is PushResult & { seq: number } =>
  result !== undefined && result.status < 300 && !result.conflict && result.seq !== null;

/** The server's answer to a push, or the error the request failed with. */
type PushAnswer = { ok: true; output: PushOutput } | { ok: false; error: unknown };

/** Every entry of the batch is a plain ack, and the server asked for no pause. */
function allPlainAcks(claimed: readonly OutboxEntry[], output: PushOutput): boolean {
  if (output.retryAfterSeconds !== undefined) return false;
  const results = new Map(output.results.map((result) => [result.mutationId, result]));
  return claimed.every((entry) => isPlainAck(results.get(entry.mutationId)));
}

export function createSyncEngine(deps: SyncEngineDeps): SyncEngine {
  const { db } = deps;
  const clock = deps.clock ?? realClock;
  const random = deps.random ?? Math.random;
  const pullLimit = deps.pullLimit ?? DEFAULT_PULL_LIMIT;

  let status: SyncStatus = {
    state: 'stopped',
    waiting: 0,
    failed: 0,
    lastSyncedAt: null,
    nextRetryAt: null,
    lastError: null,
  };
  let started = false;
  let browserOffline = false;
  let isVisible = true;
  let paused: 'needs_auth' | 'update_required' | null = null;
  let failures = 0;
  /** Our own exponential backoff: forgotten when the world changes (online, visible...). */
  let backoffUntil = 0;
  /** The server's Retry-After: kept whatever the trigger, the server asked for it. */
  let serverPauseUntil = 0;
  const resumeAt = () => Math.max(backoffUntil, serverPauseUntil);
  let maxBatch: number | undefined;

  let wantPush = false;
  let wantPullAll = false;
  const wantPull = new Set<string>();
  const highestSeq = new Map<string, number>();

  let timer: { handle: unknown; at: number } | null = null;
  let pushDueAt: number | null = null;
  let pollTimer: unknown = null;
  let running: Promise<void> | null = null;
  let again = false;

  function emit(patch: Partial<SyncStatus>) {
    const next = { ...status, ...patch };
    const changed = (Object.keys(next) as (keyof SyncStatus)[]).some(
      (key) => next[key] !== status[key],
    );
    status = next;
    if (changed) deps.onStatus?.(status);
  }

  async function refreshCounts() {
    emit(await readSyncCounts(db));
  }

  // --- scheduling -------------------------------------------------------------------------------

  /** Entries become due later (their backoff): push then, without spinning meanwhile. */
  function pushAt(at: number) {
    pushDueAt = pushDueAt === null ? at : Math.min(pushDueAt, at);
    schedule(Math.max(0, at - clock.now()));
  }

  function schedule(delayMs: number) {
    if (!started) return;
    const at = clock.now() + delayMs;
    if (timer && timer.at <= at) return;
    if (timer) clock.clearTimeout(timer.handle);
    timer = {
      at,
      handle: clock.setTimeout(() => {
        timer = null;
        if (pushDueAt !== null && pushDueAt <= clock.now()) {
          pushDueAt = null;
          wantPush = true;
        } else if (pushDueAt !== null) {
          schedule(pushDueAt - clock.now());
        }
        void run();
      }, delayMs),
    };
  }

  function schedulePoll() {
    if (pollTimer !== null) clock.clearTimeout(pollTimer);
    pollTimer = null;
    if (!started || !isVisible) return;
    pollTimer = clock.setTimeout(() => {
      pollTimer = null;
      wantPush = true;
      wantPullAll = true;
      void run();
      schedulePoll();
    }, POLL_INTERVAL_MS);
  }

  /** Triggers that mean "the world may have changed": forget backoff, sync everything now. */
  function syncAllNow() {
    failures = 0;
    backoffUntil = 0;
    wantPush = true;
    wantPullAll = true;
    schedule(0);
  }

  function hasWork() {
    return wantPush || wantPullAll || wantPull.size > 0;
  }

  function blockedState(): SyncEngineState | null {
    if (!started) return 'stopped';
    if (paused) return paused;
    if (browserOffline) return 'offline';
    return null;
  }

  function run(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          const blocked = blockedState();
          if (blocked) {
            emit({ state: blocked });
            break;
          }
          const wait = resumeAt() - clock.now();
          if (wait > 0) {
            schedule(wait);
            break;
          }
          if (!hasWork()) break;
          emit({ state: 'syncing' });
          try {
            await cycle();
            failures = 0;
            const now = clock.now();
            emit(
              resumeAt() > now
                ? { state: 'retrying', lastSyncedAt: now, nextRetryAt: resumeAt() }
                : { state: 'idle', lastSyncedAt: now, nextRetryAt: null, lastError: null },
            );
          } catch (error) {
            handleStop(error);
          }
        } while (again || (hasWork() && resumeAt() <= clock.now() && !blockedState()));
        await refreshCounts();
      } finally {
        running = null;
      }
      // A trigger that arrived during the final count refresh.
      if (again && !blockedState()) void run();
    })();
    return running;
  }

  function handleStop(error: unknown) {
    const failure = error instanceof SyncStop ? error.failure : classifyFailure(error);
    if (failure.kind === 'auth') {
      paused = 'needs_auth';
      emit({ state: 'needs_auth', lastError: failure.message });
      return;
    }
    if (failure.kind === 'update') {
      paused = 'update_required';
      emit({ state: 'update_required', lastError: failure.message });
      return;
    }
    // Retry (and anything unexpected): keep every wish, back off, try again.
    const retryAfterMs = failure.kind === 'retry' ? failure.retryAfterMs : undefined;
    const delay = retryDelayMs(failures, random, retryAfterMs);
    failures += 1;
    backoffUntil = clock.now() + delay;
    if (retryAfterMs !== undefined) serverPauseUntil = clock.now() + retryAfterMs;
    wantPush = true;
    wantPullAll = true;
    const offline = failure.kind === 'retry' && failure.offline;
    emit({
      state: offline ? 'offline' : 'retrying',
      nextRetryAt: resumeAt(),
      lastError: failure.message,
    });
    schedule(delay);
  }

  async function cycle() {
    if (wantPush) {
      wantPush = false;
      await pushAll();
    }
    if (wantPullAll || wantPull.size > 0) {
      // Read once for every pull of this cycle: acks come only from pushes, never during a pull.
      const acked = await ackedByWorkspace();
      const targets = new Set(wantPull);
      if (wantPullAll) {
        for (const id of await deps.getWorkspaceIds()) targets.add(id);
        // Workspaces still waiting for acks are pulled even if the caller forgot them.
        for (const id of acked.keys()) targets.add(id);
      }
      wantPullAll = false;
      wantPull.clear();
      for (const workspaceId of targets) {
        await pullWorkspace(workspaceId, acked.get(workspaceId) ?? []);
      }
    }
  }

  async function ackedByWorkspace(): Promise<Map<string, OutboxEntry[]>> {
    const byWorkspace = new Map<string, OutboxEntry[]>();
    for (const entry of await db.outbox.where('status').equals('acked').toArray()) {
      const list = byWorkspace.get(entry.workspaceId) ?? [];
      list.push(entry);
      byWorkspace.set(entry.workspaceId, list);
    }
    return byWorkspace;
  }

  // --- push -------------------------------------------------------------------------------------

  /** The unapplied queue in seq order, each entry checked; unreadable ones become issues. */
  async function loadQueue(): Promise<OutboxEntry[]> {
    // One equality read per status: cheaper than anyOf's cursor jumps on every IndexedDB.
    const raw = (
      await Promise.all(
        SENDABLE_STATUSES.map((status) => db.outbox.where('status').equals(status).toArray()),
      )
    ).flat();
    const entries: OutboxEntry[] = [];
    const broken: { raw: OutboxEntry; message: string }[] = [];
    for (const item of raw) {
      const restored = restoreOutboxEntry(item);
      if (restored.ok) {
        if (restored.entry.userId === deps.userId) entries.push(restored.entry);
      } else {
        broken.push({ raw: item, message: restored.message });
      }
    }
    if (broken.length > 0) await quarantine(broken);
    return entries.sort((a, b) => a.seq - b.seq);
  }

  async function quarantine(broken: { raw: OutboxEntry; message: string }[]) {
    await db.transaction('rw', settlementScope(db), async () => {
      for (const { raw, message } of broken) {
        await db.outbox.delete(raw.seq);
        await db.syncIssues.put({
          ...issueFor(
            { ...raw, args: raw.args ?? {}, label: raw.label ?? '' },
            { reason: 'validation', message: `This change could not be read back: ${message}` },
            clock.now(),
          ),
          id: String(raw.mutationId ?? `broken:${raw.seq}`),
        });
      }
    });
  }

  /** The next batch of `queue` (seq order): the queue coalesced, its merges, the batch. */
  function nextBatch(queue: readonly OutboxEntry[], now: number) {
    const { entries, merges } = coalescePatches(queue);
    const unapplied = new Set(entries.map((entry) => entry.mutationId));
    const batch = selectBatch(entries, {
      now,
      unapplied,
      ...(maxBatch === undefined ? {} : { max: maxBatch }),
    });
    // One request speaks for one device id (it changes only if the server refused it).
    const clientId = batch[0]?.clientId;
    return { entries, merges, batch: batch.filter((entry) => entry.clientId === clientId) };
  }

  /** A claimed batch and the coalesced queue it was chosen from. */
  interface ClaimedBatch {
    claimed: OutboxEntry[];
    entries: OutboxEntry[];
  }

  /**
   * The batch after the one on the wire, chosen and claimed while the server works on that one,
   * as if all of it were acked (the usual answer): it is sent as soon as the answer says so, and
   * its claim's IndexedDB work overlaps the server's. Any other answer releases it unsent (so it
   * is never sent before what it may depend on is applied). Null when nothing is ready.
   */
  async function claimAhead(
    entries: readonly OutboxEntry[],
    onTheWire: ReadonlySet<number>,
  ): Promise<ClaimedBatch | null> {
    const now = clock.now();
    if (resumeAt() > now) return null;
    const next = nextBatch(
      entries.filter((entry) => !onTheWire.has(entry.seq)),
      now,
    );
    if (next.batch.length === 0) return null;
    try {
      const claimed = await claim(next.batch, next.merges);
      return claimed.length > 0 ? { claimed, entries: next.entries } : null;
    } catch {
      // The claim's transaction failed whole: nothing was claimed; the loop claims it later.
      return null;
    }
  }

  async function pushAll() {
    let queue = await loadQueue();
    /** A batch claimed ahead, sent next. */
    let ahead: ClaimedBatch | null = null;
    /** The plain acks of the previous batch being written while the next one is on the wire. */
    let settling: Promise<unknown> = Promise.resolve();
    for (;;) {
      let current: ClaimedBatch | null = ahead;
      ahead = null;
      if (!current) {
        await settling;
        const now = clock.now();
        // The server asked for a pause (Retry-After): the rest waits too.
        if (resumeAt() > now) return;
        const { entries, merges, batch } = nextBatch(queue, now);
        if (batch.length === 0) {
          const due = entries
            .filter((entry) => entry.nextAttemptAt > now)
            .reduce((soonest, entry) => Math.min(soonest, entry.nextAttemptAt), Infinity);
          if (Number.isFinite(due)) pushAt(due);
          return;
        }
        const claimed = await claim(batch, merges);
        if (claimed.length === 0) {
          queue = await loadQueue();
          continue;
        }
        current = { claimed, entries };
      }
      const { claimed, entries }: ClaimedBatch = current;
      const sent = new Set(claimed.map((entry) => entry.seq));
      // The request, and meanwhile (after the previous batch's acks are written) the next claim.
      const [answer, next]: [PushAnswer, ClaimedBatch | null] = await Promise.all([
        request(claimed),
        settling.then(() => claimAhead(entries, sent)),
      ]);
      if (answer.ok && allPlainAcks(claimed, answer.output)) {
        // The usual case: every entry acked. Its acks are written while the next batch is sent;
        // the queue is carried over in memory instead of read again.
        settling = settle(claimed, answer.output);
        maxBatch = undefined;
        queue = entries.filter((entry) => !sent.has(entry.seq));
        ahead = next;
        continue;
      }
      // Anything else: the batch claimed ahead goes back unsent first (a refusal here may take
      // its dependents with it), then this answer is settled as it always was.
      if (next) await release(next.claimed);
      const outcome = answer.ok
        ? await settleAnswer(claimed, answer.output)
        : await handlePushError(claimed, answer.error);
      if (outcome === 'reload' || next) {
        queue = await loadQueue();
        continue;
      }
      // Carry the queue over in memory; only the claimed entries that are still waiting
      // (temporary failures) are read back.
      const waiting = claimed.filter((entry) => !outcome.done.has(entry.seq));
      const back = (
        waiting.length === 0 ? [] : await db.outbox.bulkGet(waiting.map((entry) => entry.seq))
      ).filter(
        (entry): entry is OutboxEntry =>
          entry !== undefined && entry.status !== 'acked' && entry.status !== 'inflight',
      );
      queue = [...entries.filter((entry) => !sent.has(entry.seq)), ...back].sort(
        (a, b) => a.seq - b.seq,
      );
    }
  }

  /** Persists merges and marks the batch in flight, re-checking each entry inside the tx. */
  async function claim(batch: OutboxEntry[], merges: PatchMerge[]): Promise<OutboxEntry[]> {
    // Merges fix their rows' pending counts; without any, the outbox alone is locked.
    const scope = merges.length > 0 ? [db.outbox, ...entityTables(db)] : [db.outbox];
    return db.transaction('rw', scope, async () => {
      for (const merge of merges) {
        const stored = await db.outbox.bulkGet([
          merge.into.seq,
          ...merge.removed.map((e) => e.seq),
        ]);
        if (!stored.every((entry) => entry?.status === 'pending' && entry.attempts === 0)) continue;
        await db.outbox.put(merge.into);
        await db.outbox.bulkDelete(merge.removed.map((entry) => entry.seq));
        const table = syncedTable(db, merge.into.entity);
        const row = await table.get(merge.into.entityId);
        if (row) {
          await table.put({ ...row, _pending: Math.max(0, row._pending - merge.removed.length) });
        }
      }
      const current = await readBatch(batch);
      const claimed = current.filter(
        (entry, index): entry is OutboxEntry =>
          entry !== undefined &&
          entry.mutationId === batch[index]?.mutationId &&
          entry.status === batch[index].status,
      );
      await db.outbox.bulkPut(claimed.map((entry) => ({ ...entry, status: 'inflight' as const })));
      return claimed;
    });
  }

  /**
   * The batch's entries as stored now, in batch order. A batch from one stretch of the queue (the
   * usual case: the queue in seq order) is one range read instead of one read per entry.
   */
  async function readBatch(batch: OutboxEntry[]): Promise<(OutboxEntry | undefined)[]> {
    const seqs = batch.map((entry) => entry.seq);
    const first = Math.min(...seqs);
    const last = Math.max(...seqs);
    if (last - first + 1 > 2 * seqs.length) return db.outbox.bulkGet(seqs);
    const stored = await db.outbox.where(':id').between(first, last, true, true).toArray();
    const bySeq = new Map(stored.map((entry) => [entry.seq, entry]));
    return seqs.map((seq) => bySeq.get(seq));
  }

  /** Sends one batch: the server's answer, or the error the request failed with. */
  async function request(claimed: OutboxEntry[]): Promise<PushAnswer> {
    const clientId = claimed[0]?.clientId ?? '';
    try {
      const output = await deps.callEndpoint(pushMutations, {
        query: {},
        body: {
          clientId,
          mutations: claimed.map((entry) => ({
            mutationId: entry.mutationId,
            clientSeq: entry.clientSeq,
            resource: entry.resource,
            operation: entry.operation,
            query: entry.query,
            ...(entry.op === 'delete' ? {} : { body: entry.args }),
            ...(entry.baseVersion === undefined ? {} : { baseVersion: entry.baseVersion }),
            ...(entry.op === 'patch' && entry.baseValues ? { baseValues: entry.baseValues } : {}),
          })),
        },
      });
      return { ok: true, output };
    } catch (error) {
      return { ok: false, error };
    }
  }

  /** Settles an answered batch; 'reload' when a rejection may have taken dependents with it. */
  async function settleAnswer(
    claimed: OutboxEntry[],
    output: PushOutput,
  ): Promise<{ done: Set<number> } | 'reload'> {
    const { rejected, done } = await settle(claimed, output);
    maxBatch = undefined;
    return rejected ? 'reload' : { done };
  }

  async function handlePushError(claimed: OutboxEntry[], error: unknown): Promise<'reload'> {
    const failure = classifyFailure(error);
    const now = clock.now();
    if (failure.kind === 'rejected') {
      // The envelope itself was refused: find the one mutation to blame, or shrink the batch.
      const blamed = blame(error, claimed);
      if (failure.status === TOO_LARGE && claimed.length > 1) {
        maxBatch = Math.max(1, Math.floor(claimed.length / 2));
        await release(claimed);
        return 'reload';
      }
      if (failure.status === DEVICE_ID_TAKEN) {
        await release(claimed);
        await rotateDeviceId();
        return 'reload';
      }
      const target = blamed ?? (claimed.length === 1 ? claimed[0] : undefined);
      if (target) {
        await db.transaction('rw', settlementScope(db), async () => {
          await rejectEntry(
            db,
            target,
            { status: failure.status, reason: failure.reason, message: failure.message },
            now,
          );
          for (const entry of claimed) if (entry !== target) await db.outbox.put(entry);
        });
        return 'reload';
      }
    }
    // No answer, server trouble, auth, update, or an envelope refusal we cannot pin on one entry:
    // the entries stay; whether they reached the server is unknown, so they are never merged again.
    await db.transaction('rw', settlementScope(db), async () => {
      for (const entry of claimed) {
        if (failure.kind === 'auth' || failure.kind === 'update') {
          // Refused before anything ran: the entry is exactly as before.
          await db.outbox.put(entry);
        } else if (failure.kind === 'retry' && failure.offline) {
          await db.outbox.put({ ...entry, status: entry.status === 'stuck' ? 'stuck' : 'retry' });
        } else {
          // The whole request failed: the engine's backoff paces it, not a per-entry one.
          await failTemporarily(
            db,
            entry,
            {
              status: failure.status,
              code: failure.kind,
              message: failure.message,
              ...(failure.kind === 'retry' && failure.retryAfterMs !== undefined
                ? { retryAfterMs: failure.retryAfterMs }
                : {}),
            },
            now,
            random,
            false,
          );
        }
      }
    });
    throw new SyncStop(failure);
  }

  function blame(error: unknown, claimed: OutboxEntry[]): OutboxEntry | undefined {
    const details = (error as { body?: { error?: { details?: unknown } } | null }).body?.error
      ?.details;
    if (!Array.isArray(details)) return undefined;
    for (const detail of details as { path?: unknown }[]) {
      const match = typeof detail.path === 'string' ? MUTATION_PATH.exec(detail.path) : null;
      if (match) return claimed[Number(match[1])];
    }
    return undefined;
  }

  /** Claimed entries back as they were, unsent; those no longer in flight (removed) stay so. */
  async function release(claimed: OutboxEntry[]) {
    await db.transaction('rw', db.outbox, async () => {
      const stored = await readBatch(claimed);
      await db.outbox.bulkPut(claimed.filter((_, index) => stored[index]?.status === 'inflight'));
    });
  }

  /** The server bound our device id to another user: take a new one and renumber the queue. */
  async function rotateDeviceId() {
    await db.transaction('rw', [db.outbox, db.syncState], async () => {
      const clientId = newClientId();
      const queued = (await db.outbox.toArray()).filter((entry) => entry.status !== 'acked');
      await db.outbox.bulkPut(
        queued.map((entry, index) => ({ ...entry, clientId, clientSeq: index + 1 })),
      );
      await db.syncState.put({ key: DEVICE_KEY, clientId, nextClientSeq: queued.length + 1 });
    });
  }

  /**
   * Settles a sent batch in one transaction. Returns whether anything was rejected (dependents
   * may have gone with it) and the seqs of entries that left the wait: acked or removed.
   */
  async function settle(
    claimed: OutboxEntry[],
    output: PushOutput,
  ): Promise<{ rejected: boolean; done: Set<number> }> {
    const now = clock.now();
    let rejected = false;
    const done = new Set<number>();
    const results = new Map(output.results.map((result) => [result.mutationId, result]));
    let firstUnattempted = true;
    // Plain acks (the usual result of a whole batch) are written together: one bulk delete of
    // their stuck notices and one bulk put of the acked entries, instead of two requests each.
    // Written before any other kind of settlement, so the order of effects is the entries'.
    let acks: OutboxEntry[] = [];
    const writeAcks = async () => {
      if (acks.length === 0) return;
      const written = acks;
      acks = [];
      // Their stuck notices, if any: one read of the stuck notices' keys (there are few, usually
      // none) instead of a delete request per entry.
      const stuck = new Set(
        await db.syncIssues.where(':id').startsWith(STUCK_PREFIX).primaryKeys(),
      );
      const notices = written
        .map((entry) => stuckIssueId(entry.mutationId))
        .filter((id) => stuck.has(id));
      if (notices.length > 0) await db.syncIssues.bulkDelete(notices);
      await db.outbox.bulkPut(written);
    };
    // A batch of plain acks (the usual case) writes only the outbox and the sync issues; locking
    // every entity table too would queue it behind the screens' reads of them, batch after batch.
    const scope = claimed.every((entry) => isPlainAck(results.get(entry.mutationId)))
      ? [db.outbox, db.syncIssues]
      : settlementScope(db);
    await db.transaction('rw', scope, async () => {
      for (const entry of claimed) {
        const result = results.get(entry.mutationId);
        if (isPlainAck(result) && !rejected) {
          acks.push({ ...entry, status: 'acked', ackSeq: result.seq });
          done.add(entry.seq);
          wantPull.add(entry.workspaceId);
          continue;
        }
        await writeAcks();
        // A rejection earlier in this batch may have taken this one with it (its dependents).
        if (rejected && !(await db.outbox.get(entry.seq))) {
          done.add(entry.seq);
          continue;
        }
        if (!result) {
          // Not attempted: the batch stopped on a temporary failure at this entry or before it.
          if (output.retryAfterSeconds !== undefined && firstUnattempted) {
            firstUnattempted = false;
            await failTemporarily(
              db,
              entry,
              {
                status: 503,
                code: 'UNAVAILABLE',
                message: 'The server could not take this change right now.',
                retryAfterMs: output.retryAfterSeconds * 1_000,
              },
              now,
              random,
            );
          } else {
            await db.outbox.put(entry);
          }
          continue;
        }
        await db.syncIssues.delete(stuckIssueId(entry.mutationId));
        if (result.status < 300 && result.conflict) {
          await recordOverwrite(db, entry, result.conflict, now);
        }
        done.add(entry.seq);
        if (result.status < 300) {
          if (result.seq === null) {
            await removeEntry(db, entry, 'applied', false);
          } else {
            await db.outbox.put({ ...entry, status: 'acked', ackSeq: result.seq });
            wantPull.add(entry.workspaceId);
          }
          continue;
        }
        if (entry.op === 'delete' && (result.status === 404 || result.status === 410)) {
          // Already gone on the server: the delete achieved what the user wanted.
          await removeEntry(db, entry, 'applied');
          continue;
        }
        const body = result.body as { error?: { message?: unknown } } | null;
        rejected = true;
        await rejectEntry(
          db,
          entry,
          {
            status: result.status,
            // A 5xx result is final too: the server recorded that this change fails every time.
            reason:
              rejectionReason(result.status) ??
              (result.status >= 500 ? 'server_error' : 'validation'),
            message:
              typeof body?.error?.message === 'string'
                ? body.error.message
                : `Refused with status ${result.status}.`,
          },
          now,
        );
      }
      await writeAcks();
    });
    if (output.retryAfterSeconds !== undefined) {
      // The server asked for a pause: honour it for the whole queue.
      serverPauseUntil = Math.max(serverPauseUntil, now + output.retryAfterSeconds * 1_000);
      emit({ nextRetryAt: serverPauseUntil });
      pushAt(serverPauseUntil);
    }
    return { rejected, done };
  }

  // --- pull -------------------------------------------------------------------------------------

  async function readState(workspaceId: string): Promise<WorkspaceSyncState> {
    return restoreWorkspaceState(
      await db.syncState.get(workspaceStateKey(workspaceId)),
      workspaceId,
    );
  }

  /** `acked`: the workspace's acked entries when the pull starts, all of which it confirms. */
  async function pullWorkspace(workspaceId: string, acked: readonly OutboxEntry[]) {
    let state = await readState(workspaceId);
    let snapshot = state.cursor === undefined;
    let seen: Set<string> | null = snapshot && state.needsSweep ? new Set() : null;
    let membersChanged = false;
    let cursor = state.cursor;
    for (let pageNumber = 0; pageNumber < MAX_PAGES_PER_PULL; pageNumber += 1) {
      let response;
      try {
        response = await deps.callEndpoint(pullChanges, {
          query: { workspaceId, limit: String(pullLimit), ...(cursor ? { cursor } : {}) },
        });
      } catch (error) {
        const failure = classifyFailure(error);
        if (failure.kind === 'rejected') {
          // This workspace cannot be pulled (e.g. a malformed id); the others still can.
          emit({ lastError: failure.message });
          return;
        }
        throw new SyncStop(failure);
      }
      if ('reset' in response) {
        // Too old a cursor: re-download this workspace, keep the outbox, sweep at the end.
        const { cursor: _dropped, ...rest } = state;
        state = { ...rest, needsSweep: true };
        await db.syncState.put(state);
        cursor = undefined;
        snapshot = true;
        seen = new Set();
        continue;
      }
      if (
        response.changes.some(
          (change) =>
            change.op === 'scope_remove' &&
            change.table === 'workspaces' &&
            change.id === workspaceId,
        )
      ) {
        await purgeWorkspace(db, workspaceId, state.key, clock.now());
        highestSeq.delete(workspaceId);
        return;
      }
      const final = !response.hasMore;
      // Membership changes are recorded on the workspace row (someone joined, left, changed
      // role): its upsert means the member list to re-read, so names and mentions follow.
      if (
        response.changes.some(
          (change) =>
            change.op === 'upsert' && change.table === 'workspaces' && change.id === workspaceId,
        )
      ) {
        membersChanged = true;
      }
      const page = checkPage(response.changes);
      if (page.invalid > 0)
        emit({ lastError: `${page.invalid} rows from the server were unreadable.` });
      const now = clock.now();
      const seq = Math.max(state.highestSeq, page.maxSeq);
      const { cursor: _previous, ...withoutCursor } = state;
      // While a re-download runs, its intermediate cursors are not kept: if interrupted it starts
      // over, so the sweep at its end knows every row it saw.
      const keepCursor = final || seen === null;
      state = {
        ...withoutCursor,
        ...(keepCursor ? { cursor: response.cursor } : {}),
        highestSeq: seq,
        needsSweep: final ? false : state.needsSweep,
        lastPullAt: now,
        ...(final && snapshot ? { lastFullSyncAt: now } : {}),
        // Recorded with the page, so the read it calls for survives a stop before it lands.
        ...(final && (snapshot || membersChanged) ? { membersStale: true } : {}),
      };
      await applyPullPage(db, {
        workspaceId,
        page,
        acked,
        coverUpToSeq: snapshot ? null : page.maxSeq,
        coverAll: final,
        state,
        seen,
      });
      highestSeq.set(workspaceId, seq);
      cursor = response.cursor;
      if (final) {
        if (seen) await sweepUnseen(db, workspaceId, seen);
        if (deps.refreshMembers !== false && (await membersOwed(workspaceId, state))) {
          await refreshMembers(workspaceId);
        }
        return;
      }
    }
    wantPull.add(workspaceId);
    again = true;
  }

  /**
   * A read is owed when the state says so, or when the user's own member row is missing (a device
   * that lost a read before the state kept the debt: its switcher showed no role).
   */
  async function membersOwed(workspaceId: string, state: WorkspaceSyncState): Promise<boolean> {
    if (state.membersStale === true) return true;
    return (await db.members.get([workspaceId, deps.userId])) === undefined;
  }

  async function refreshMembers(workspaceId: string) {
    try {
      const { members } = await deps.callEndpoint(getWorkspaceMembers, {
        query: { workspaceId },
      });
      await db.transaction('rw', db.members, db.syncState, async () => {
        await db.members.where('workspaceId').equals(workspaceId).delete();
        await db.members.bulkPut(members.map((member) => ({ ...member, workspaceId })));
        const { membersStale: _done, ...state } = await readState(workspaceId);
        await db.syncState.put(state);
      });
    } catch {
      // The state still owes the read: the next pull of this workspace makes it again.
    }
  }

  // --- triggers ---------------------------------------------------------------------------------

  return {
    async start() {
      if (started) return;
      started = true;
      // Entries a closed tab left in flight may or may not have reached the server: resend them
      // as they are (the server answers a replay with the stored result), never merged.
      await db.transaction('rw', db.outbox, async () => {
        await db.outbox.where('status').equals('inflight').modify({ status: 'retry' });
      });
      emit({ state: 'idle' });
      await refreshCounts();
      schedulePoll();
      syncAllNow();
    },
    stop() {
      started = false;
      if (timer) clock.clearTimeout(timer.handle);
      timer = null;
      if (pollTimer !== null) clock.clearTimeout(pollTimer);
      pollTimer = null;
      emit({ state: 'stopped' });
    },
    online() {
      browserOffline = false;
      syncAllNow();
    },
    offline() {
      browserOffline = true;
      if (!running) emit({ state: 'offline' });
    },
    visible() {
      isVisible = true;
      schedulePoll();
      syncAllNow();
    },
    hidden() {
      isVisible = false;
      schedulePoll();
    },
    enqueued() {
      wantPush = true;
      schedule(ENQUEUE_DEBOUNCE_MS);
      void refreshCounts();
    },
    invalidate(message) {
      void (async () => {
        let known = highestSeq.get(message.workspaceId);
        if (known === undefined) {
          known = (await readState(message.workspaceId)).highestSeq;
          highestSeq.set(message.workspaceId, known);
        }
        if (message.seq <= known) return;
        wantPull.add(message.workspaceId);
        schedule(INVALIDATION_DEBOUNCE_MS);
      })();
    },
    reconnect() {
      syncAllNow();
    },
    resumeAfterAuth() {
      if (paused === 'needs_auth') paused = null;
      syncAllNow();
    },
    async syncNow() {
      wantPush = true;
      wantPullAll = true;
      failures = 0;
      backoffUntil = 0;
      await run();
      while (running) await running;
    },
    async whenIdle() {
      while (running) await running;
    },
    getStatus() {
      return status;
    },
  };
}

/** Default workspace list for the worker: the owned workspace plus those already on this device. */
export async function defaultWorkspaceIds(
  db: AppDatabase,
  callEndpoint: CallEndpoint,
): Promise<string[]> {
  const ids = new Set<string>(await db.workspaces.toCollection().primaryKeys());
  const { workspaceId, memberOf = [] } = await callEndpoint(getOwnedWorkspaceId, { query: {} });
  if (workspaceId) ids.add(workspaceId);
  // Workspaces joined by invitation, on another device too.
  for (const id of memberOf) ids.add(id);
  return [...ids];
}
