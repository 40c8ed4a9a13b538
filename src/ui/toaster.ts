export type ToastTone = 'info' | 'success' | 'error';

export interface ToastAction {
  label: string;
  onAction: () => void;
}

export interface ToastOptions {
  message: string;
  tone?: ToastTone;
  action?: ToastAction;
  /**
   * Milliseconds before the toast hides itself; `null` keeps it until dismissed. Defaults to 5 s,
   * or `null` when there is an action, so nobody has to race a timer to press it.
   */
  durationMs?: number | null;
}

export interface Toast {
  id: number;
  message: string;
  tone: ToastTone;
  action: ToastAction | null;
  durationMs: number | null;
}

/** Its functions are closures: `const { show } = useToast()` works. */
export interface Toaster {
  /** Shows a toast in place of the current one (at most one is visible) and returns its id. */
  readonly show: (options: ToastOptions) => number;
  /** Hides the toast with this id, or the current one; a stale id is ignored. */
  readonly dismiss: (id?: number) => void;
  readonly getCurrent: () => Toast | null;
  readonly subscribe: (listener: () => void) => () => void;
}

export const defaultToastDurationMs = 5_000;

/** The toast queue is a single slot: product rule, at most one toast is visible at a time. */
export function createToaster(): Toaster {
  let current: Toast | null = null;
  let nextId = 1;
  const listeners = new Set<() => void>();
  const emit = () => {
    for (const listener of listeners) listener();
  };

  return {
    show: (options) => {
      const id = nextId++;
      const action = options.action ?? null;
      current = {
        id,
        message: options.message,
        tone: options.tone ?? 'info',
        action,
        durationMs:
          options.durationMs === undefined
            ? action
              ? null
              : defaultToastDurationMs
            : options.durationMs,
      };
      emit();
      return id;
    },
    dismiss: (id) => {
      if (!current || (id !== undefined && current.id !== id)) return;
      current = null;
      emit();
    },
    getCurrent: () => current,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
