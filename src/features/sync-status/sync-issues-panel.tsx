/**
 * Each change the server refused (or that is stuck), in words, with what the user can do about it
 * (sync spec b.9): Retry, Edit and retry, Keep a copy, Discard, Copy details. Nothing here drops
 * what the user typed except Discard, which asks first.
 */
import { AlertTriangle, CheckCircle2, Info } from 'lucide-react';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { v7 as uuidv7 } from 'uuid';
import { useLiveQuery } from '../../db/live-query.ts';
import type { SyncIssue } from '../../db/sync-issue.ts';
import {
  describeSyncIssueDetails,
  discardSyncIssue,
  keepSyncIssueCopy,
  retrySyncIssue,
  revertToTheirs,
  valueWords,
} from '../../sync/sync-client.ts';
import { Button } from '../../ui/button.tsx';
import { useToast } from '../../ui/use-toast.ts';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { useSync } from '../workspace/sync-context.tsx';
import { describeSyncIssueReason, editableSyncIssueFields } from './sync-issue-reason.ts';

export function SyncIssuesPanel() {
  const { handle } = useSync();
  const issues = useLiveQuery(
    () =>
      handle.db.syncIssues
        .orderBy('createdAt')
        .filter((issue) => !issue.resolved)
        .toArray(),
    [handle],
  );
  if (issues === undefined) return null;
  if (issues.length === 0) {
    return (
      <p className="flex items-center gap-2 text-sm text-fg-muted">
        <CheckCircle2 aria-hidden="true" size={16} className="text-success" />
        Nothing needs your attention.
      </p>
    );
  }
  return (
    <ul aria-label="Sync issues" className="flex flex-col gap-3">
      {issues.map((issue) =>
        issue.overwrote ? (
          <OverwriteNotice key={issue.id} issue={issue} />
        ) : (
          <SyncIssueItem key={issue.id} issue={issue} />
        ),
      )}
    </ul>
  );
}

function SyncIssueItem({ issue }: { issue: SyncIssue }) {
  const { handle, userId } = useSync();
  const toaster = useToast();
  const [mode, setMode] = useState<'idle' | 'edit' | 'confirm-discard'>('idle');
  const [busy, setBusy] = useState(false);
  const fields = editableSyncIssueFields(issue);
  const options = { userId, newId: uuidv7 };

  async function run(action: () => Promise<unknown>, done: string) {
    setBusy(true);
    try {
      await action();
      handle.notifyOutboxChanged();
      toaster.show({ tone: 'success', message: done });
    } catch (error) {
      toaster.show({
        tone: 'error',
        message: error instanceof Error ? error.message : "That didn't work. Try again.",
      });
      setBusy(false);
    }
  }

  return (
    <li className="rounded-xl border border-border bg-surface p-3">
      <div className="flex items-start gap-2">
        <AlertTriangle aria-hidden="true" size={18} className="mt-0.5 shrink-0 text-danger" />
        <div className="min-w-0">
          <p className="font-medium break-words text-fg">{issue.title}</p>
          <p className="text-sm text-fg-muted">{describeSyncIssueReason(issue.reason)}</p>
          {issue.serverMessage ? (
            <p className="mt-1 text-sm break-words text-fg-muted">
              Server said: “{issue.serverMessage}”
            </p>
          ) : null}
        </div>
      </div>

      {mode === 'edit' ? (
        <Form
          className="mt-3 flex flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            const data = new FormData(event.currentTarget);
            const args = Object.fromEntries(
              fields.map(([key, value]) => {
                const entered = data.get(key);
                const typed = typeof entered === 'string' ? entered : '';
                return [key, typeof value === 'number' ? Number(typed) : typed];
              }),
            );
            void run(
              () => retrySyncIssue(handle.db, issue.id, { ...options, args }),
              'Your edited change is queued.',
            );
          }}
        >
          {fields.map(([key, value]) => (
            <FormTextField key={key} name={key} label={key} defaultValue={String(value)} />
          ))}
          <div className="flex gap-2">
            <Button type="submit" isPending={busy}>
              Save and retry
            </Button>
            <Button variant="secondary" onPress={() => setMode('idle')}>
              Cancel
            </Button>
          </div>
        </Form>
      ) : mode === 'confirm-discard' ? (
        <div role="group" aria-label="Confirm discard" className="mt-3">
          <p className="text-sm text-fg">Discard this change? What you typed will be lost.</p>
          <div className="mt-2 flex gap-2">
            <Button
              variant="danger"
              isPending={busy}
              onPress={() => void run(() => discardSyncIssue(handle.db, issue.id), 'Discarded.')}
            >
              Discard
            </Button>
            <Button variant="secondary" onPress={() => setMode('idle')} autoFocus>
              Keep it
            </Button>
          </div>
        </div>
      ) : (
        <div className="mt-3 flex flex-wrap gap-2">
          <Button
            variant="secondary"
            isDisabled={busy || issue.reason === 'access_revoked'}
            onPress={() =>
              void run(() => retrySyncIssue(handle.db, issue.id, options), 'Trying again.')
            }
          >
            Retry
          </Button>
          {fields.length > 0 ? (
            <Button variant="secondary" isDisabled={busy} onPress={() => setMode('edit')}>
              Edit and retry
            </Button>
          ) : null}
          {issue.payload.op !== 'delete' && issue.reason !== 'access_revoked' ? (
            <Button
              variant="secondary"
              isDisabled={busy}
              onPress={() =>
                void run(() => keepSyncIssueCopy(handle.db, issue.id, options), 'Saved as a copy.')
              }
            >
              Keep a copy
            </Button>
          ) : null}
          <Button
            variant="ghost"
            isDisabled={busy}
            onPress={() => {
              navigator.clipboard.writeText(describeSyncIssueDetails(issue)).then(
                () => toaster.show({ message: 'Details copied.' }),
                () => toaster.show({ tone: 'error', message: "Couldn't reach the clipboard." }),
              );
            }}
          >
            Copy details
          </Button>
          <Button variant="ghost" isDisabled={busy} onPress={() => setMode('confirm-discard')}>
            Discard
          </Button>
        </div>
      )}
    </li>
  );
}

/** Applied over someone else's edit: say who and what, offer their values back. */
function OverwriteNotice({ issue }: { issue: SyncIssue }) {
  const { handle, userId } = useSync();
  const toaster = useToast();
  const overwrote = issue.overwrote;
  const by = useLiveQuery(async () => {
    if (!overwrote?.by) return null;
    if (overwrote.by === userId) return 'you, on another device,';
    const member = await handle.db.members
      .where('workspaceId')
      .equals(issue.workspaceId)
      .and((m) => m.id === overwrote.by)
      .first();
    return member ? `${member.firstName} ${member.lastName}`.trim() || member.email : null;
  }, [handle, overwrote?.by, issue.workspaceId, userId]);
  if (!overwrote) return null;
  const fields = overwrote.fields.map((field) => fieldWord(field)).join(', ');
  const theirs = Object.values(overwrote.theirs).map(valueWords).join(', ');
  return (
    <li className="rounded-xl border border-border bg-surface p-3">
      <div className="flex items-start gap-2">
        <Info aria-hidden="true" size={18} className="mt-0.5 shrink-0 text-brand" />
        <div className="min-w-0">
          <p className="font-medium break-words text-fg">{issue.title}</p>
          <p className="text-sm text-fg-muted">
            {by ?? 'Someone'} changed the {fields} while you were offline (to “{theirs}”). Yours was
            applied.
          </p>
        </div>
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button
          variant="secondary"
          onPress={() => {
            void revertToTheirs(handle.db, issue.id, { userId, newId: uuidv7 }).then((reverted) => {
              handle.notifyOutboxChanged();
              toaster.show({
                message: reverted ? 'Their version is back.' : 'It no longer exists here.',
              });
            });
          }}
        >
          Use theirs
        </Button>
        <Button variant="ghost" onPress={() => void discardSyncIssue(handle.db, issue.id)}>
          Keep mine
        </Button>
      </div>
    </li>
  );
}

const fieldWords: Record<string, string> = {
  notesSummary: 'notes',
  timeZone: 'time zone',
  startDate: 'start date',
  dueDate: 'due date',
  billingType: 'billing type',
  clientId: 'client',
  color: 'colour',
};

function fieldWord(field: string): string {
  return fieldWords[field] ?? field;
}
