/**
 * Upload progress, kept in memory: bytes sent change many times a second, far too often for
 * IndexedDB (the entry in Dexie gets `bytesSent` about once a second, for a reload). The tab that
 * uploads sets it; other tabs of the same user hear it on a BroadcastChannel, so every open Files
 * tab shows the same bar whichever tab does the work. A tab that opens mid-upload starts from the
 * entry's stored `bytesSent` until the first broadcast arrives.
 */

export interface UploadProgress {
  sent: number;
  total: number;
}

export interface UploadProgressStore {
  get: (id: string) => UploadProgress | undefined;
  /** Sets (and, from the uploading tab, broadcasts) an entry's progress. */
  set: (id: string, progress: UploadProgress) => void;
  /** Forgets an entry (finished, cancelled), here and in the other tabs. */
  clear: (id: string) => void;
  subscribe: (listener: () => void) => () => void;
  /** Changes with every update: the snapshot useSyncExternalStore compares. */
  getVersion: () => number;
  close: () => void;
}

type Message =
  { kind: 'progress'; entries: [string, UploadProgress][] } | { kind: 'clear'; id: string };

/** Broadcasts at most this often; the bar moves smoothly enough and the channel stays quiet. */
const BROADCAST_EVERY_MS = 250;

export function createUploadProgressStore(channelName: string | null): UploadProgressStore {
  const progress = new Map<string, UploadProgress>();
  const listeners = new Set<() => void>();
  let version = 0;
  const channel =
    channelName !== null && typeof BroadcastChannel === 'function'
      ? new BroadcastChannel(channelName)
      : null;
  const unsent = new Map<string, UploadProgress>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  const emit = () => {
    version += 1;
    for (const listener of listeners) listener();
  };

  const flush = () => {
    timer = null;
    if (unsent.size === 0) return;
    post({ kind: 'progress', entries: [...unsent] });
    unsent.clear();
  };

  function post(message: Message) {
    try {
      channel?.postMessage(message);
    } catch {
      // A closed channel (the tab is going away): the other tabs read Dexie instead.
    }
  }

  if (channel) {
    channel.onmessage = (event: MessageEvent<Message>) => {
      const message = event.data;
      if (message.kind === 'progress') {
        for (const [id, value] of message.entries) progress.set(id, value);
      } else {
        progress.delete(message.id);
      }
      emit();
    };
  }

  return {
    get: (id) => progress.get(id),
    set(id, value) {
      progress.set(id, value);
      emit();
      unsent.set(id, value);
      timer ??= setTimeout(flush, BROADCAST_EVERY_MS);
    },
    clear(id) {
      unsent.delete(id);
      if (!progress.delete(id)) return;
      emit();
      post({ kind: 'clear', id });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getVersion: () => version,
    close() {
      if (timer) clearTimeout(timer);
      channel?.close();
      listeners.clear();
    },
  };
}
