/**
 * What the hub needs to span processes: publish/subscribe on named channels. Redis implements it
 * for scale-out (redis-backplane.ts); the in-memory one here lets several hubs in one process
 * (tests) behave exactly like several processes on one Redis.
 *
 * Invariants every implementation keeps:
 * - `subscribe` resolves only once messages on the channel will be delivered to the listener.
 * - Messages on one channel arrive in publish order.
 * - `publish` resolves with how many subscribers (processes) received the message; 0 means
 *   nobody listens on that channel (used to answer "unknown connection" without waiting).
 */
export type BackplaneListener = (message: string) => void;

export interface Backplane {
  publish(channel: string, message: string): Promise<number>;
  /** Adds a listener; the returned function removes exactly that listener. */
  subscribe(channel: string, listener: BackplaneListener): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export function createMemoryBackplane(): Backplane {
  const channels = new Map<string, Set<BackplaneListener>>();
  return {
    publish(channel, message) {
      const listeners = [...(channels.get(channel) ?? [])];
      // Delivered on a later tick like a network hop, never inside the publisher's call stack.
      queueMicrotask(() => {
        for (const listener of listeners) listener(message);
      });
      return Promise.resolve(listeners.length);
    },
    subscribe(channel, listener) {
      const set = channels.get(channel) ?? new Set();
      set.add(listener);
      channels.set(channel, set);
      return Promise.resolve(() => {
        set.delete(listener);
        if (set.size === 0 && channels.get(channel) === set) channels.delete(channel);
        return Promise.resolve();
      });
    },
    close() {
      channels.clear();
      return Promise.resolve();
    },
  };
}
