/**
 * The header's sync state, always visible (sync spec b.9): "All changes saved", "3 changes
 * waiting", "Offline — 3 changes waiting", "2 changes couldn't be saved". The number of changes
 * waiting is on the button at every width (a badge where the words do not fit). Pressing it opens
 * the details: when the last sync was, Sync now (disabled offline, with the reason), and the sync
 * issues panel. A new failure also shows a toast that opens the panel.
 */
import { AlertCircle, CheckCircle2, CloudOff, RefreshCw } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import {
  Button as AriaButton,
  Dialog,
  DialogTrigger,
  Heading,
  Popover,
} from 'react-aria-components';
import { describeSyncStatus, type ClientSyncStatus } from '../../sync/sync-client.ts';
import { Button } from '../../ui/button.tsx';
import { useToast } from '../../ui/use-toast.ts';
import { useOptionalSync, useSyncStatus } from '../workspace/sync-context.tsx';
import { formatRelativeTime } from './format-relative-time.ts';
import { SyncIssuesPanel } from './sync-issues-panel.tsx';

const icons = { saved: CheckCircle2, waiting: RefreshCw, offline: CloudOff, error: AlertCircle };
const toneClass = {
  saved: 'text-fg-muted',
  waiting: 'text-fg-muted',
  offline: 'text-fg',
  error: 'text-danger',
};

const changes = (n: number) => `${n} change${n === 1 ? '' : 's'}`;

/** The engine's summary, with the count kept when offline (the engine's words drop it). */
export function describeHeaderStatus(
  status: ClientSyncStatus,
): ReturnType<typeof describeSyncStatus> {
  const summary = describeSyncStatus(status);
  if (summary.tone !== 'offline') return summary;
  const waiting = status.waiting > 0 ? `${changes(status.waiting)} waiting` : 'no changes waiting';
  return { tone: 'offline', text: `Offline — ${waiting}` };
}

/** The details' first line: where the changes are and when this device last synced. */
function describeDetails(status: ClientSyncStatus, now: number): string {
  if (status.state === 'local') {
    return 'This is the demo: your changes are saved in this browser only and never sent to a server. Create your account to keep your own work in sync.';
  }
  const last = status.lastSyncedAt
    ? `Last synced ${formatRelativeTime(status.lastSyncedAt, now)}.`
    : null;
  if (status.state !== 'offline') {
    return `${last ?? 'Not synced on this device yet.'} Your changes are saved on this device first, then sent when you're online.`;
  }
  const kept =
    status.waiting === 0
      ? "Changes you make are saved on this device and sent when you're back online."
      : `${changes(status.waiting)} ${status.waiting === 1 ? 'is' : 'are'} saved on this device and will be sent when you're back online.`;
  return `You're offline. ${kept}${last ? ` ${last}` : ''}`;
}

export function SyncStatusButton() {
  // Nothing to say until sync has started (its code loads just after sign-in).
  if (!useOptionalSync()) return null;
  return <SyncStatusControl />;
}

function SyncStatusControl() {
  const { handle } = useOptionalSync() ?? {};
  const status = useSyncStatus();
  const { tone, text } = describeHeaderStatus(status);
  const offline = status.state === 'offline';
  const local = status.state === 'local';
  const reasonId = useId();
  const [open, setOpen] = useState(false);
  const openPanel = useCallback(() => setOpen(true), []);
  useFailureToast(status, openPanel);
  const Icon = icons[tone];
  const spinning = status.state === 'syncing';

  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <AriaButton
        aria-label={`Sync: ${text}`}
        className={`flex min-h-11 cursor-pointer items-center gap-2 rounded-full px-3 text-sm font-medium outline-none hover:bg-surface-muted data-focus-visible:ring-2 data-focus-visible:ring-ring sm:min-h-9 ${toneClass[tone]}`}
      >
        <Icon
          aria-hidden="true"
          size={16}
          className={spinning && tone === 'waiting' ? 'animate-spin' : ''}
        />
        {status.waiting > 0 && !local ? (
          // Phones show no words: the count stays visible as a badge.
          <span
            aria-hidden="true"
            className="min-w-5 rounded-full bg-surface-muted px-1.5 text-center text-xs leading-5 font-semibold text-fg sm:hidden"
          >
            {status.waiting}
          </span>
        ) : null}
        <span className="hidden sm:inline">{text}</span>
      </AriaButton>
      <Popover
        placement="bottom end"
        className="w-[min(26rem,calc(100vw-1.5rem))] overflow-auto rounded-xl border border-border bg-canvas p-4 shadow-lg outline-none"
      >
        <Dialog aria-label="Sync" className="outline-none">
          <Heading slot="title" className="flex items-center gap-2 font-semibold text-fg">
            <Icon aria-hidden="true" size={18} className={toneClass[tone]} /> {text}
          </Heading>
          <p className="mt-1 text-sm text-fg-muted">{describeDetails(status, Date.now())}</p>
          {status.lastError && tone !== 'saved' ? (
            <p className="mt-1 text-sm text-fg-muted">Last problem: {status.lastError}</p>
          ) : null}
          <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1" hidden={local}>
            <Button
              variant="secondary"
              isDisabled={offline}
              {...(offline ? { 'aria-describedby': reasonId } : {})}
              onPress={() => handle?.reconnect()}
            >
              <RefreshCw aria-hidden="true" size={16} /> Sync now
            </Button>
            {offline ? (
              <p id={reasonId} className="text-sm text-fg-muted">
                Sync starts by itself when you're back online.
              </p>
            ) : null}
          </div>
          <h3 className="mt-4 mb-2 text-sm font-semibold text-fg">Sync issues</h3>
          <SyncIssuesPanel />
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
}

/** A toast when the number of failed changes goes up, with a button that opens the panel. */
function useFailureToast(status: ClientSyncStatus, openPanel: () => void) {
  const toaster = useToast();
  const previous = useRef<number | null>(null);
  useEffect(() => {
    const before = previous.current;
    previous.current = status.failed;
    if (before !== null && status.failed > before) {
      toaster.show({
        tone: 'error',
        message:
          status.failed === 1
            ? "A change couldn't be saved."
            : `${status.failed} changes couldn't be saved.`,
        action: { label: 'Review', onAction: openPanel },
      });
    }
  }, [status.failed, toaster, openPanel]);
}
