/**
 * Fakes shared by the sync unit tests: a clock whose timers fire only when the test advances it,
 * a scripted sync server (push/pull answers queued per call, sensible defaults otherwise) and a
 * Web Locks manager with a real waiting queue. Test-only: imported from *.test.ts files.
 */
import type { CallEndpoint } from '../api-client/call-endpoint.ts';
import type { PullOutput, PushInput, PushOutput } from '#contract/sync.ts';
import type { LockManagerLike } from './leader-election.ts';
import type { SyncClock } from './sync-engine.ts';

export interface FakeClock extends SyncClock {
  /** Moves time forward, firing due timers in order and waiting for the work each one starts. */
  advance(ms: number, settle?: () => Promise<void>): Promise<void>;
  /** Delays until the timers still scheduled, soonest first. */
  pendingDelays(): number[];
}

export function createFakeClock(start = Date.UTC(2026, 0, 1)): FakeClock {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimeout(fn, ms) {
      const id = nextId;
      nextId += 1;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    async advance(ms, settle = () => Promise.resolve()) {
      const end = now + ms;
      for (;;) {
        const [due] = [...timers.entries()]
          .filter(([, timer]) => timer.at <= end)
          .sort((a, b) => a[1].at - b[1].at);
        if (!due) break;
        timers.delete(due[0]);
        now = Math.max(now, due[1].at);
        due[1].fn();
        await settle();
      }
      now = end;
    },
    pendingDelays: () => [...timers.values()].map((timer) => timer.at - now).sort((a, b) => a - b),
  };
}

type PushStep = (body: PushInput) => PushOutput | Promise<PushOutput>;
type PullStep = (query: {
  workspaceId: string;
  cursor?: string;
}) => PullOutput | Promise<PullOutput>;

export function createFakeSyncServer() {
  let seq = 100;
  const pushes: PushInput[] = [];
  const pulls: { workspaceId: string; cursor?: string }[] = [];
  const pushSteps: PushStep[] = [];
  const pullSteps: PullStep[] = [];

  const applyAll: PushStep = (body) => ({
    results: body.mutations.map((mutation) => {
      seq += 1;
      return { mutationId: mutation.mutationId, status: 200, body: {}, seq };
    }),
  });
  const nothingNew: PullStep = () => ({ changes: [], cursor: `log-${seq}`, hasMore: false });

  const callEndpoint = (async (
    endpoint: { operation: string },
    input: { query: Record<string, string>; body?: unknown },
  ) => {
    if (endpoint.operation === 'push') {
      const body = input.body as PushInput;
      pushes.push(body);
      return (pushSteps.shift() ?? applyAll)(body);
    }
    if (endpoint.operation === 'pull') {
      const query = input.query as { workspaceId: string; cursor?: string };
      pulls.push(query);
      return (pullSteps.shift() ?? nothingNew)(query);
    }
    if (endpoint.operation === 'get-workspace-members') return { members: [] };
    throw new Error(`The fake server has no ${endpoint.operation}`);
  }) as unknown as CallEndpoint;

  return {
    callEndpoint,
    pushes,
    pulls,
    /** Queues the answer to the next push (throw inside to fail the request). */
    onPush(step: PushStep) {
      pushSteps.push(step);
    },
    onPull(step: PullStep) {
      pullSteps.push(step);
    },
    applyAll,
    nextSeq: () => seq + 1,
  };
}

/** A Web Locks manager: exclusive locks granted in request order, released when the callback ends. */
export function createFakeLocks(): LockManagerLike & { holder(name: string): number | null } {
  const queues = new Map<string, { id: number; grant: () => void }[]>();
  const held = new Map<string, number>();
  let nextId = 1;

  function pump(name: string) {
    if (held.has(name)) return;
    const next = queues.get(name)?.shift();
    if (next) next.grant();
  }

  return {
    holder: (name) => held.get(name) ?? null,
    request(name, options, callback) {
      const id = nextId;
      nextId += 1;
      return new Promise((resolve, reject) => {
        const grant = () => {
          held.set(name, id);
          void Promise.resolve()
            .then(() => callback({ name }))
            .then(resolve, reject)
            .finally(() => {
              held.delete(name);
              pump(name);
            });
        };
        const queue = queues.get(name) ?? [];
        queues.set(name, queue);
        queue.push({ id, grant });
        options.signal?.addEventListener('abort', () => {
          const index = queue.findIndex((item) => item.id === id);
          if (index >= 0) {
            queue.splice(index, 1);
            reject(new DOMException('Aborted', 'AbortError'));
          }
        });
        pump(name);
      });
    },
  };
}
