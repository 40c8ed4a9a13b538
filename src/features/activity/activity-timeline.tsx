/**
 * A project's activity, newest first, from the server (it is not synced to the device): who did
 * what and when, grouped by day, filtered by kind, 50 at a time with "Load older". Offline, or
 * when a page fails, what was loaded stays on screen and the notice says why, with Retry.
 */
import {
  activityKinds,
  getProjectActivity,
  type ActivityEntry,
  type ActivityKind,
} from '#contract/endpoints/project-activity.ts';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { useRouter } from '@tanstack/react-router';
import { History, RotateCw, WifiOff } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Button } from '../../ui/button.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { formatRelativeTime } from '../sync-status/format-relative-time.ts';
import {
  activityKindFilterWords,
  actorJoiner,
  actorWord,
  describeChange,
  isClientActor,
} from './activity-words.ts';

type KindFilter = ActivityKind | 'all';
const kindOptions: { id: KindFilter; label: string }[] = [
  { id: 'all', label: 'Everything' },
  ...activityKinds.map((id) => ({ id, label: activityKindFilterWords[id] })),
];

/** The app's API client from the router context; a test may pass its own. */
export function useCallEndpoint(override?: CallEndpoint): CallEndpoint | null {
  const router = useRouter({ warn: false }) as { options: { context?: unknown } } | undefined;
  // The app's router context carries `api` (src/routes/-router-context.ts).
  const context = router?.options.context as { api?: { callEndpoint: CallEndpoint } } | undefined;
  return override ?? context?.api?.callEndpoint ?? null;
}

function subscribeOnline(listener: () => void) {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}
const readOnline = () => globalThis.navigator?.onLine ?? true;

export function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, readOnline, () => true);
}

interface Loaded {
  entries: ActivityEntry[];
  nextBefore: number | null;
}

type Status = 'loading' | 'idle' | 'error' | 'offline';

export interface ActivityTimelineProps {
  projectId: string;
  callEndpoint?: CallEndpoint | undefined;
  /** The heading level of the day groups (3 inside a tab, 2 on the full page). */
  dayHeadingLevel?: 2 | 3;
}

export function ActivityTimeline({
  projectId,
  callEndpoint: override,
  dayHeadingLevel = 3,
}: ActivityTimelineProps) {
  const callEndpoint = useCallEndpoint(override);
  const online = useOnline();
  const [kind, setKind] = useState<KindFilter>('all');
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [status, setStatus] = useState<Status>('loading');
  const [errorText, setErrorText] = useState('');
  const request = useRef(0);
  const firstNewRef = useRef<string | null>(null);

  const load = useCallback(
    async (before: number | null, forKind: KindFilter) => {
      const id = ++request.current;
      setStatus('loading');
      if (!callEndpoint || !readOnline()) {
        setStatus('offline');
        return;
      }
      try {
        const answer = await callEndpoint(getProjectActivity, {
          query: {
            projectId,
            ...(before === null ? {} : { before: String(before) }),
            ...(forKind === 'all' ? {} : { kind: forKind }),
          },
        });
        if (id !== request.current) return;
        firstNewRef.current = before === null ? null : (answer.activity[0]?.seq.toString() ?? null);
        setLoaded((current) => ({
          entries:
            before === null ? answer.activity : [...(current?.entries ?? []), ...answer.activity],
          nextBefore: answer.nextBefore,
        }));
        setStatus('idle');
      } catch (error) {
        if (id !== request.current) return;
        const status = (error as { status?: unknown }).status;
        if (status === 0 || !readOnline()) {
          setStatus('offline');
        } else {
          setErrorText(error instanceof Error ? error.message : 'Something went wrong.');
          setStatus('error');
        }
      }
    },
    [callEndpoint, projectId],
  );

  // The first page, again when the filter changes.
  useEffect(() => {
    void load(null, kind);
  }, [load, kind]);

  // Back online after an offline first try: load by itself.
  useEffect(() => {
    if (online && status === 'offline' && loaded === null) void load(null, kind);
  }, [online, status, loaded, load, kind]);

  // After "Load older", focus the first of the older entries (the button may be gone).
  useEffect(() => {
    const seq = firstNewRef.current;
    if (!seq || status !== 'idle') return;
    firstNewRef.current = null;
    document.getElementById(`activity-${seq}`)?.focus();
  }, [loaded, status]);

  const retry = () => void load(loaded ? loaded.nextBefore : null, kind);
  const nowMs = Date.now();

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <SelectField
          label="Show"
          options={kindOptions}
          value={kind}
          onChange={(value) => {
            setLoaded(null);
            setKind(value);
          }}
          className="sm:w-56"
        />
      </div>
      {status === 'offline' ? (
        <div
          role="status"
          className="flex flex-col gap-3 rounded-2xl border border-border bg-surface p-4 sm:flex-row sm:items-center"
        >
          <WifiOff aria-hidden="true" size={20} className="shrink-0 text-fg-muted" />
          <p className="flex-1 text-sm text-fg">
            <span className="font-semibold">Activity needs a connection.</span>{' '}
            <span className="text-fg-muted">
              {loaded
                ? 'What was loaded stays here; older entries and updates come back online.'
                : 'The activity lives on the server; it shows up here once you are back online.'}
            </span>
          </p>
          <Button variant="secondary" onPress={retry}>
            <RotateCw aria-hidden="true" size={16} />
            Retry
          </Button>
        </div>
      ) : null}
      {status === 'error' ? (
        <div
          role="alert"
          className="flex flex-col gap-3 rounded-2xl border border-danger/40 bg-surface p-4 sm:flex-row sm:items-center"
        >
          <p className="flex-1 text-sm text-fg">
            <span className="font-semibold">The activity could not be loaded.</span>{' '}
            <span className="text-fg-muted">{errorText}</span>
          </p>
          <Button variant="secondary" onPress={retry}>
            <RotateCw aria-hidden="true" size={16} />
            Retry
          </Button>
        </div>
      ) : null}
      {loaded === null ? (
        status === 'loading' ? (
          <div role="status" className="flex items-center justify-center gap-2 py-12 text-fg-muted">
            <Spinner size="small" />
            Loading activity…
          </div>
        ) : null
      ) : loaded.entries.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-2xl border border-dashed border-border-strong p-6 text-center">
          <History aria-hidden="true" size={28} className="text-fg-muted" />
          <p className="font-semibold text-fg">
            {kind === 'all' ? 'No activity yet' : 'Nothing of this kind yet'}
          </p>
          <p className="max-w-prose text-sm text-fg-muted">
            Every change to the project, its tasks, milestones and notes shows up here once it has
            synced: who made it, and when.
          </p>
        </div>
      ) : (
        <>
          {groupByDay(loaded.entries).map((group) => (
            <DayGroup
              key={group.day}
              day={group.day}
              entries={group.entries}
              nowMs={nowMs}
              headingLevel={dayHeadingLevel}
            />
          ))}
          {loaded.nextBefore !== null ? (
            <Button
              variant="secondary"
              className="self-center"
              isPending={status === 'loading'}
              onPress={() => void load(loaded.nextBefore, kind)}
            >
              Load older
            </Button>
          ) : (
            <p className="text-center text-sm text-fg-muted">That is the start of the history.</p>
          )}
        </>
      )}
    </div>
  );
}

/** The local calendar day of a timestamp, YYYY-MM-DD. */
function dayOf(at: string): string {
  const date = new Date(at);
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}

function groupByDay(entries: ActivityEntry[]) {
  const groups = new Map<string, ActivityEntry[]>();
  for (const entry of entries) {
    const day = dayOf(entry.at);
    const group = groups.get(day);
    if (group) group.push(entry);
    else groups.set(day, [entry]);
  }
  return [...groups].map(([day, rows]) => ({ day, entries: rows }));
}

function dayWord(day: string, nowMs: number): string {
  const today = dayOf(new Date(nowMs).toISOString());
  const yesterday = dayOf(new Date(nowMs - 86_400_000).toISOString());
  if (day === today) return 'Today';
  if (day === yesterday) return 'Yesterday';
  return new Date(`${day}T00:00`).toLocaleDateString(undefined, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  });
}

function DayGroup({
  day,
  entries,
  nowMs,
  headingLevel,
}: {
  day: string;
  entries: ActivityEntry[];
  nowMs: number;
  headingLevel: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const headingId = `activity-day-${day}`;
  return (
    <section aria-labelledby={headingId}>
      <Heading id={headingId} className="text-sm font-semibold text-fg-muted">
        {dayWord(day, nowMs)}
      </Heading>
      <ul className="mt-2 divide-y divide-border rounded-2xl border border-border bg-surface">
        {entries.map((entry) => (
          <li
            key={entry.seq}
            id={`activity-${entry.seq}`}
            tabIndex={-1}
            className="flex flex-col gap-0.5 px-4 py-3 outline-none focus-visible:ring-2 focus-visible:ring-ring sm:flex-row sm:items-baseline sm:justify-between sm:gap-4"
          >
            <p className="min-w-0 text-sm break-words text-fg">
              <span className="font-semibold">{actorWord(entry)}</span>
              {isClientActor(entry) ? (
                <>
                  {' '}
                  <ClientTag />
                </>
              ) : null}
              {actorJoiner(entry)}
              {describeChange(entry)}
            </p>
            <time
              dateTime={entry.at}
              title={new Date(entry.at).toLocaleString()}
              className="shrink-0 text-xs text-fg-muted"
            >
              {formatRelativeTime(Date.parse(entry.at), nowMs)}
            </time>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Marks a line done by the client in the portal, so members do not take the name for a
 * colleague's. Screen readers hear "Dana Reyes (client) approved…".
 */
function ClientTag() {
  return (
    <span className="inline-block rounded-full bg-brand-soft px-1.5 align-[0.1em] text-xs leading-5 font-semibold text-brand-strong">
      <span className="sr-only">(</span>
      Client
      <span className="sr-only">)</span>
    </span>
  );
}
