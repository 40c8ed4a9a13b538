/**
 * Settings > Profile > Calendar feed: a secret URL that Google Calendar, Apple Calendar or Outlook
 * subscribe to (milestones of your workspaces, tasks due that are assigned to you, events). The
 * server keeps only the secret's hash, so the URL is shown once, when made, with Copy; "New URL"
 * replaces it (the old one stops at once) and "Turn off" revokes it. It needs the server, so
 * offline the section says so instead of failing.
 */
import { CalendarSync, Copy } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import {
  createCalendarFeed,
  getCalendarFeed,
  revokeCalendarFeed,
  type CalendarFeed,
} from '#contract/endpoints/calendar.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { inputClassName } from '../../ui/form-text-field.tsx';
import { FormAlert } from '../auth/form-alert.tsx';
import { apiErrorMessage } from './api-error-message.ts';
import { SettingsSection } from './settings-section.tsx';

type State =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; feed: CalendarFeed | null };

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function CalendarFeedSettings({ callEndpoint }: { callEndpoint: CallEndpoint }) {
  const [state, setState] = useState<State>({ status: 'loading' });
  /** The URL just made: shown this once. */
  const [url, setUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState<'make' | 'revoke' | null>(null);
  const [confirm, setConfirm] = useState<'remake' | 'revoke' | null>(null);
  const [announce, setAnnounce] = useState('');
  const [actionError, setActionError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const { feed } = await callEndpoint(getCalendarFeed, { query: {} });
      setState({ status: 'ready', feed });
    } catch (error) {
      setState({ status: 'failed', message: apiErrorMessage(error) });
    }
  }, [callEndpoint]);
  useEffect(() => {
    void load();
  }, [load]);

  const make = async () => {
    setConfirm(null);
    setBusy('make');
    setActionError(null);
    try {
      const made = await callEndpoint(createCalendarFeed, { query: {} });
      setUrl(new URL(made.url, window.location.origin).toString());
      setState({ status: 'ready', feed: made.feed });
      setAnnounce('New calendar URL made. Copy it now: it is shown only once.');
    } catch (error) {
      setActionError(apiErrorMessage(error));
    } finally {
      setBusy(null);
    }
  };

  const revoke = async () => {
    setConfirm(null);
    setBusy('revoke');
    setActionError(null);
    try {
      await callEndpoint(revokeCalendarFeed, { query: {} });
      setUrl(null);
      setState({ status: 'ready', feed: null });
      setAnnounce('Calendar feed turned off. Its URL no longer works.');
    } catch (error) {
      setActionError(apiErrorMessage(error));
    } finally {
      setBusy(null);
    }
  };

  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setAnnounce('Calendar URL copied.');
    } catch {
      setAnnounce('Could not copy: select the URL and copy it yourself.');
    }
  };

  const feed = state.status === 'ready' ? state.feed : null;
  return (
    <SettingsSection
      title="Calendar feed"
      description="Subscribe to your calendar from Google Calendar, Apple Calendar or Outlook: milestones of your workspaces, tasks due that are assigned to you, and events. Calendar apps refresh it every few hours."
      icon={<CalendarSync aria-hidden="true" size={20} />}
    >
      <div className="flex flex-col items-start gap-3">
        {state.status === 'loading' ? <p className="text-sm text-fg-muted">Checking…</p> : null}
        {state.status === 'failed' ? (
          <FormAlert>
            The calendar feed needs a connection to the server. {state.message}{' '}
            <Button variant="secondary" onPress={() => void load()} className="mt-2">
              Try again
            </Button>
          </FormAlert>
        ) : null}
        {state.status === 'ready' && feed === null ? (
          <>
            <p className="text-sm text-fg-muted">You have no calendar feed.</p>
            <Button isPending={busy === 'make'} onPress={() => void make()}>
              Make a calendar URL
            </Button>
          </>
        ) : null}
        {feed ? (
          <>
            <p className="text-sm text-fg-muted">
              Your feed was made {dateTime.format(new Date(feed.createdAt))};{' '}
              {feed.lastUsedAt
                ? `a calendar app last read it ${dateTime.format(new Date(feed.lastUsedAt))}.`
                : 'no calendar app has read it yet.'}
            </p>
            {url ? (
              <div className="flex w-full flex-col gap-1.5">
                <label htmlFor="calendar-feed-url" className="text-sm font-medium text-fg">
                  Calendar URL
                </label>
                <div className="flex w-full items-stretch gap-2">
                  <input
                    id="calendar-feed-url"
                    readOnly
                    value={url}
                    onFocus={(event) => event.currentTarget.select()}
                    className={`${inputClassName} font-mono text-sm`}
                  />
                  <Button variant="secondary" onPress={() => void copy()}>
                    <Copy aria-hidden="true" size={16} />
                    Copy
                  </Button>
                </div>
                <p className="text-sm text-fg-muted">
                  Shown only now: Satchel keeps only a fingerprint of it. Anyone with this URL sees
                  these dates, so keep it to your calendar app.
                </p>
              </div>
            ) : (
              <p className="text-sm text-fg-muted">
                Its URL was shown when it was made. Lost it? Make a new one: the old one stops
                working.
              </p>
            )}
            <div className="flex flex-wrap gap-2">
              <Button
                variant="secondary"
                isPending={busy === 'make'}
                onPress={() => setConfirm('remake')}
              >
                New URL
              </Button>
              <Button
                variant="secondary"
                isPending={busy === 'revoke'}
                onPress={() => setConfirm('revoke')}
              >
                Turn off
              </Button>
            </div>
          </>
        ) : null}
        {actionError ? <FormAlert>{actionError}</FormAlert> : null}
        <p role="status" className="sr-only">
          {announce}
        </p>
      </div>
      <ConfirmDialog
        isOpen={confirm === 'remake'}
        title="Make a new calendar URL?"
        confirmLabel="Make new URL"
        onConfirm={() => void make()}
        onCancel={() => setConfirm(null)}
      >
        Calendar apps subscribed to the current URL stop getting updates until you give them the new
        one.
      </ConfirmDialog>
      <ConfirmDialog
        isOpen={confirm === 'revoke'}
        title="Turn the calendar feed off?"
        confirmLabel="Turn off"
        isDestructive
        onConfirm={() => void revoke()}
        onCancel={() => setConfirm(null)}
      >
        Its URL stops working at once; calendar apps keep what they last read.
      </ConfirmDialog>
    </SettingsSection>
  );
}
