import { CircleAlert, CircleCheck, Info, X } from 'lucide-react';
import { createContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Button as AriaButton } from 'react-aria-components';
import type { Toast, Toaster, ToastTone } from './toaster.ts';

export const ToastContext = createContext<Toaster | null>(null);

export interface ToastProviderProps {
  toaster: Toaster;
  children: ReactNode;
}

/** Makes `useToast()` available and renders the single toast slot. */
export function ToastProvider({ toaster, children }: ToastProviderProps) {
  return (
    <ToastContext value={toaster}>
      {children}
      <ToastRegion toaster={toaster} />
    </ToastContext>
  );
}

const toneIcons: Record<ToastTone, typeof Info> = {
  info: Info,
  success: CircleCheck,
  error: CircleAlert,
};

const toneColors: Record<ToastTone, string> = {
  info: 'text-brand',
  success: 'text-success',
  error: 'text-danger',
};

function ToastRegion({ toaster }: { toaster: Toaster }) {
  const toast = useSyncExternalStore(toaster.subscribe, toaster.getCurrent);
  // The live region stays mounted: screen readers only announce changes to a region they
  // already know about.
  return (
    <div
      role="region"
      aria-label="Notifications"
      className="pointer-events-none fixed inset-x-0 bottom-[calc(5rem+env(safe-area-inset-bottom))] z-50 flex justify-center px-4 md:bottom-6 md:justify-end md:px-6"
    >
      <div role="status" aria-live="polite" aria-atomic="true" className="w-full max-w-md">
        {toast ? <ToastCard key={toast.id} toast={toast} toaster={toaster} /> : null}
      </div>
    </div>
  );
}

function ToastCard({ toast, toaster }: { toast: Toast; toaster: Toaster }) {
  const [isPaused, setPaused] = useState(false);
  const { id, durationMs } = toast;

  // Hovering or focusing the toast holds the timer, so it cannot vanish while being read or used.
  useEffect(() => {
    if (durationMs === null || isPaused) return;
    const timer = setTimeout(() => toaster.dismiss(id), durationMs);
    return () => clearTimeout(timer);
  }, [id, durationMs, isPaused, toaster]);

  const Icon = toneIcons[toast.tone];
  return (
    <div
      data-tone={toast.tone}
      onPointerEnter={() => setPaused(true)}
      onPointerLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      className="pointer-events-auto flex w-full animate-toast-in items-center gap-3 rounded-xl border border-border bg-surface py-2 pr-2 pl-4 text-sm text-fg shadow-lg"
    >
      <Icon aria-hidden="true" size={18} className={`shrink-0 ${toneColors[toast.tone]}`} />
      <p className="min-w-0 flex-1 py-2">{toast.message}</p>
      {toast.action ? (
        <AriaButton
          onPress={() => {
            toast.action?.onAction();
            toaster.dismiss(id);
          }}
          className="min-h-11 shrink-0 cursor-pointer rounded-lg px-3 font-semibold text-brand hover:bg-brand-soft sm:min-h-9"
        >
          {toast.action.label}
        </AriaButton>
      ) : null}
      <AriaButton
        aria-label="Dismiss notification"
        onPress={() => toaster.dismiss(id)}
        className="grid size-11 shrink-0 cursor-pointer place-items-center rounded-lg text-fg-muted hover:bg-surface-muted hover:text-fg sm:size-9"
      >
        <X aria-hidden="true" size={16} />
      </AriaButton>
    </div>
  );
}
