/**
 * One sync leader per user across tabs (sync spec b.7): the holder of the Web Lock
 * `sync:<userId>`. Every tab queues for the lock; the browser releases it when the leader tab
 * closes or crashes, and the next tab in the queue becomes leader at once. Without Web Locks
 * (Safari < 15.4) every tab leads: the server's exactly-once push keeps that safe.
 */

export interface LockManagerLike {
  request(
    name: string,
    options: { mode?: 'exclusive' | 'shared'; signal?: AbortSignal },
    callback: (lock: unknown) => Promise<unknown>,
  ): Promise<unknown>;
}

export interface LeaderElection {
  isLeader(): boolean;
  /** Gives up leadership (or the place in the queue). */
  stop(): void;
}

export const leaderLockName = (userId: string) => `sync:${userId}`;

export function electLeader(options: {
  locks: LockManagerLike | null;
  name: string;
  /** Runs when this tab becomes leader; leadership is kept until stop(). */
  onLeader: () => Promise<void> | void;
  onError?: (error: unknown) => void;
}): LeaderElection {
  let leader = false;
  let stopped = false;
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const controller = new AbortController();

  const lead = async () => {
    if (stopped) return;
    leader = true;
    try {
      await options.onLeader();
    } catch (error) {
      options.onError?.(error);
    }
    await held;
  };

  if (options.locks) {
    options.locks
      .request(options.name, { mode: 'exclusive', signal: controller.signal }, lead)
      .catch((error: unknown) => {
        // Aborted while queued: this tab stopped before its turn.
        if (!stopped) options.onError?.(error);
      });
  } else {
    void lead();
  }

  return {
    isLeader: () => leader,
    stop() {
      stopped = true;
      leader = false;
      controller.abort();
      release();
    },
  };
}
