/**
 * A project's client portal, member side (issue 14): turn it on or off, set or change its
 * password, copy the link to send the client, and see when the client last opened it. Portal
 * access is server state (contract/endpoints/client-portal.ts), so this dialog needs the network
 * and says so offline instead of queueing. A new password or turning the portal off ends every
 * open portal session of the project: the dialog says so before the member confirms.
 */
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import {
  getPortalAccess,
  MAX_PORTAL_PASSWORD_CHARS,
  MIN_PORTAL_PASSWORD_CHARS,
  updatePortalAccess,
  type PortalAccess,
} from '#contract/endpoints/client-portal.ts';
import {
  Check,
  Copy,
  Dices,
  DoorOpen,
  ExternalLink,
  Eye,
  EyeOff,
  TriangleAlert,
} from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Button as AriaButton, Switch } from 'react-aria-components';
import { Button, buttonClassName } from '../../ui/button.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { Sheet, SheetActions } from '../../ui/sheet.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { useCallEndpoint, useOnline } from '../activity/activity-timeline.tsx';
import { formatFileDateTime } from '../files/file-format.ts';
import { readSubmitFailure } from '../marketing/form-errors.ts';
import { formatRelativeTime } from '../sync-status/format-relative-time.ts';

/** No 0/O, 1/l/I: the member may read the password out on the phone. */
const PASSWORD_ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * 16 characters from a 56-letter alphabet (about 93 bits), in groups of four for reading aloud:
 * "k7Qm-x9Vb-Tz3p-HwR4". Rejection sampling keeps every letter equally likely.
 */
export function generatePortalPassword(
  random: (bytes: Uint8Array) => Uint8Array = (bytes) => crypto.getRandomValues(bytes),
): string {
  const limit = 256 - (256 % PASSWORD_ALPHABET.length);
  const letters: string[] = [];
  while (letters.length < 16) {
    for (const byte of random(new Uint8Array(32))) {
      if (byte >= limit || letters.length === 16) continue;
      letters.push(PASSWORD_ALPHABET[byte % PASSWORD_ALPHABET.length] ?? '');
    }
  }
  return [0, 4, 8, 12].map((start) => letters.slice(start, start + 4).join('')).join('-');
}

export function sessionsWords(count: number): string {
  return `${count} open session${count === 1 ? '' : 's'}`;
}

export function lastOpenedWords(lastOpenedAt: string | null, now: number): string {
  if (!lastOpenedAt) return 'Not opened yet';
  const at = Date.parse(lastOpenedAt);
  return `Last opened by your client ${formatRelativeTime(at, now)} (${formatFileDateTime(lastOpenedAt)})`;
}

/** The password rule of the contract, checked before anything is sent. */
function passwordProblem(password: string): string | null {
  if (password.length === 0) return 'Enter a password, or press Generate';
  if (password.length < MIN_PORTAL_PASSWORD_CHARS) {
    return `A portal password is at least ${MIN_PORTAL_PASSWORD_CHARS} characters`;
  }
  if (password.length > MAX_PORTAL_PASSWORD_CHARS) {
    return `A portal password is at most ${MAX_PORTAL_PASSWORD_CHARS} characters`;
  }
  return null;
}

/** `details` of any refusal (the 422 "set a password first" carries one too), by body field. */
function detailFor(error: unknown, field: string): string | undefined {
  const details = (error as { body?: { error?: { details?: unknown } } } | null)?.body?.error
    ?.details;
  if (!Array.isArray(details)) return undefined;
  for (const detail of details as unknown[]) {
    const { path, message } = (detail ?? {}) as { path?: unknown; message?: unknown };
    if (path === `body.${field}` && typeof message === 'string') return message;
  }
  return undefined;
}

const NEEDS_PASSWORD = 'Set a password to turn the portal on.';

/**
 * Moves focus to the dialog's heading once it opens (react-aria would focus the dialog itself),
 * so a screen reader starts reading at the title and Tab goes on from there.
 */
function useFocusHeadingOnOpen() {
  const marker = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const heading = marker.current?.closest('[role="dialog"]')?.querySelector('h1, h2, h3');
    if (!(heading instanceof HTMLElement)) return;
    heading.tabIndex = -1;
    heading.classList.add('outline-none');
    heading.focus();
  }, []);
  return marker;
}

type Fields = 'password' | 'form';

export function PortalAccessDialog({
  projectId,
  projectName,
  online,
  callEndpoint,
  onClose,
}: {
  projectId: string;
  projectName?: string | undefined;
  online: boolean;
  callEndpoint: CallEndpoint | null;
  onClose: () => void;
}) {
  const [portal, setPortal] = useState<PortalAccess | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [visible, setVisible] = useState(false);
  const [generated, setGenerated] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Fields, string>>>({});
  const [switchError, setSwitchError] = useState<string | null>(null);
  /** The member tried to turn the portal on before a password was set: saving one turns it on. */
  const [wantOn, setWantOn] = useState(false);
  const [confirmingOff, setConfirmingOff] = useState(false);
  const [saving, setSaving] = useState<'switch' | 'password' | 'chat' | null>(null);
  const [chatError, setChatError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [announce, setAnnounce] = useState('');
  const passwordRef = useRef<HTMLInputElement>(null);
  const headingMarker = useFocusHeadingOnOpen();
  const now = Date.now();

  const load = useCallback(async () => {
    if (!callEndpoint || !online) return;
    setLoadError(null);
    try {
      const answer = await callEndpoint(getPortalAccess, { query: { id: projectId } });
      setPortal(answer.portal);
    } catch (error) {
      setLoadError(readSubmitFailure(error).message);
    }
  }, [callEndpoint, online, projectId]);

  useEffect(() => {
    void load();
  }, [load]);

  const askForPassword = (message: string) => {
    setErrors({ password: message });
    setWantOn(true);
    // After the render that marks the field invalid, so its error is read with it.
    requestAnimationFrame(() => passwordRef.current?.focus());
  };

  const setEnabled = async (enabled: boolean) => {
    if (!callEndpoint || !portal) return;
    setSwitchError(null);
    if (enabled && !portal.hasPassword) {
      askForPassword(NEEDS_PASSWORD);
      return;
    }
    setSaving('switch');
    try {
      const answer = await callEndpoint(updatePortalAccess, {
        query: { id: projectId },
        body: { enabled },
      });
      setPortal(answer.portal);
      setConfirmingOff(false);
      setAnnounce(
        enabled
          ? 'The portal is on. Send your client the link and the password.'
          : 'The portal is off. Your client can no longer open it.',
      );
    } catch (error) {
      const failure = readSubmitFailure(error);
      // The 422 of a portal without a password (what this dialog loaded may be out of date).
      if (enabled && detailFor(error, 'password')) askForPassword(failure.message);
      else setSwitchError(failure.message);
    } finally {
      setSaving(null);
    }
  };

  const setChat = async (chatEnabled: boolean) => {
    if (!callEndpoint || !portal) return;
    setChatError(null);
    setSaving('chat');
    try {
      const answer = await callEndpoint(updatePortalAccess, {
        query: { id: projectId },
        body: { enabled: portal.enabled, chatEnabled },
      });
      setPortal(answer.portal);
      setAnnounce(
        chatEnabled
          ? 'Your client can now read and write in this project’s chat.'
          : 'The chat is hidden from your client again.',
      );
    } catch (error) {
      setChatError(readSubmitFailure(error).message);
    } finally {
      setSaving(null);
    }
  };

  const copyLink = async () => {
    if (!portal) return;
    try {
      await navigator.clipboard.writeText(portal.url);
      setCopied(true);
      setAnnounce('Link copied.');
    } catch {
      setAnnounce('Could not copy: select the link and copy it yourself.');
    }
  };

  const generate = () => {
    setPassword(generatePortalPassword());
    setVisible(true);
    setGenerated(true);
    setErrors({});
    setAnnounce('A new password is in the field. Copy it for your client before you save.');
  };

  const savePassword = async (event: FormEvent) => {
    event.preventDefault();
    if (!callEndpoint || !portal) return;
    const problem = passwordProblem(password);
    if (problem) {
      setErrors({ password: problem });
      passwordRef.current?.focus();
      return;
    }
    // The first password is set to open the portal: it turns on with it.
    const enabled = portal.enabled || wantOn || !portal.hasPassword;
    setSaving('password');
    setErrors({});
    try {
      const answer = await callEndpoint(updatePortalAccess, {
        query: { id: projectId },
        body: { enabled, password },
      });
      const changed = portal.hasPassword;
      setPortal(answer.portal);
      setPassword('');
      setVisible(false);
      setGenerated(false);
      setWantOn(false);
      setSwitchError(null);
      setAnnounce(
        changed
          ? 'Password changed. Open portal sessions have ended; your client needs the new password.'
          : enabled
            ? 'Password set and the portal is on.'
            : 'Password set.',
      );
    } catch (error) {
      const failure = readSubmitFailure<Fields>(error);
      const onField = failure.fieldErrors.password ?? detailFor(error, 'password');
      setErrors(onField ? { password: onField, form: failure.message } : { form: failure.message });
      if (onField) passwordRef.current?.focus();
    } finally {
      setSaving(null);
    }
  };

  const copyPassword = async () => {
    try {
      await navigator.clipboard.writeText(password);
      setAnnounce('Password copied.');
    } catch {
      setAnnounce('Could not copy: select the password and copy it yourself.');
    }
  };

  const title = projectName ? `Client portal of “${projectName}”` : 'Client portal';

  return (
    <Sheet title={title} onClose={onClose} wide>
      <span ref={headingMarker} hidden />
      <p className="text-sm text-fg-muted">
        Your client opens this project’s portal with a link and a password, without an account. They
        see its progress and milestones and download the files you leave visible.
      </p>
      <div role="status" className="sr-only">
        {announce}
      </div>
      {!online || !callEndpoint ? (
        <p className="rounded-lg border border-border bg-surface-muted p-3 text-sm text-fg">
          You’re offline. The client portal’s settings live on the server, so changing them needs a
          connection. Your project is still here.
        </p>
      ) : loadError ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-danger">
          {loadError}
          <Button variant="secondary" onPress={() => void load()}>
            Try again
          </Button>
        </div>
      ) : portal === null ? (
        <p className="flex items-center gap-2 text-sm text-fg-muted">
          <Spinner /> Loading the portal…
        </p>
      ) : (
        <>
          <section
            aria-label="Portal status"
            className="flex flex-col gap-3 rounded-xl border border-border p-4"
          >
            <Switch
              isSelected={portal.enabled}
              isReadOnly={saving !== null}
              onChange={(on) => {
                if (on) void setEnabled(true);
                else setConfirmingOff(true);
              }}
              className="group flex min-h-11 w-fit cursor-pointer items-center gap-3 text-base font-semibold text-fg outline-none data-readonly:cursor-wait"
            >
              <span className="flex h-6 w-10 shrink-0 items-center rounded-full border border-border-strong bg-surface-muted px-0.5 transition-colors group-data-focus-visible:ring-2 group-data-focus-visible:ring-ring group-data-selected:border-brand group-data-selected:bg-brand">
                <span className="size-4.5 rounded-full bg-fg-muted transition-transform group-data-selected:translate-x-4 group-data-selected:bg-on-brand motion-reduce:transition-none" />
              </span>
              Portal on
            </Switch>
            <p className="flex flex-wrap gap-x-3 gap-y-1 text-sm">
              <span
                className={`rounded-full px-2 py-0.5 text-xs font-semibold ${portal.enabled ? 'bg-success/15 text-success' : 'bg-surface-muted text-fg-muted'}`}
              >
                {portal.enabled ? 'On' : 'Off'}
              </span>
              <span className="text-fg-muted">{lastOpenedWords(portal.lastOpenedAt, now)}</span>
              <span className="text-fg-muted">{sessionsWords(portal.openSessions)}</span>
            </p>
            {confirmingOff ? (
              <div className="flex flex-col gap-2 rounded-lg bg-surface-muted p-3 text-sm sm:flex-row sm:items-center">
                <span className="sm:mr-auto">
                  Turn the portal off? Your client can no longer open it
                  {portal.openSessions > 0
                    ? `, and the ${sessionsWords(portal.openSessions)} end now.`
                    : '.'}
                </span>
                <Button variant="secondary" onPress={() => setConfirmingOff(false)}>
                  Keep it on
                </Button>
                <Button
                  variant="danger"
                  onPress={() => void setEnabled(false)}
                  isPending={saving === 'switch'}
                  autoFocus
                >
                  Turn off
                </Button>
              </div>
            ) : null}
            {switchError ? (
              <p role="alert" className="text-sm text-danger">
                {switchError}
              </p>
            ) : null}
          </section>

          <section
            aria-label="Chat in the portal"
            className="flex flex-col gap-2 rounded-xl border border-border p-4"
          >
            <Switch
              isSelected={portal.chatEnabled}
              // Read-only, not disabled, while saving: a disabled input would drop the focus.
              isReadOnly={saving !== null}
              onChange={(on) => void setChat(on)}
              className="group flex min-h-11 w-fit cursor-pointer items-center gap-3 text-base font-semibold text-fg outline-none data-readonly:cursor-wait"
            >
              <span className="flex h-6 w-10 shrink-0 items-center rounded-full border border-border-strong bg-surface-muted px-0.5 transition-colors group-data-focus-visible:ring-2 group-data-focus-visible:ring-ring group-data-selected:border-brand group-data-selected:bg-brand">
                <span className="size-4.5 rounded-full bg-fg-muted transition-transform group-data-selected:translate-x-4 group-data-selected:bg-on-brand motion-reduce:transition-none" />
              </span>
              Chat with your client
            </Switch>
            <p className="text-sm text-fg-muted">
              {portal.chatEnabled
                ? 'Your client reads this project’s chat in the portal and writes in it; their messages show here in the Chat tab.'
                : 'Off: the project’s chat stays between members.'}
            </p>
            {chatError ? (
              <p role="alert" className="text-sm text-danger">
                {chatError}
              </p>
            ) : null}
          </section>

          <section aria-labelledby="portal-link-heading" className="flex flex-col gap-2">
            <h3 id="portal-link-heading" className="text-base font-semibold">
              Portal link
            </h3>
            <input
              readOnly
              aria-label="Portal link"
              value={portal.url}
              onFocus={(event) => event.currentTarget.select()}
              className="min-h-10 w-full min-w-0 rounded-lg border border-border bg-surface-muted px-3 font-mono text-xs text-fg"
            />
            {portal.enabled ? null : (
              <p className="text-sm text-fg-muted">
                The link opens the portal once it is on and has a password.
              </p>
            )}
            <div className="flex flex-wrap gap-2">
              <Button variant="secondary" onPress={() => void copyLink()}>
                {copied ? (
                  <Check aria-hidden="true" size={16} />
                ) : (
                  <Copy aria-hidden="true" size={16} />
                )}
                {copied ? 'Copied' : 'Copy link'}
              </Button>
              <a
                href={portal.url}
                target="_blank"
                rel="noopener noreferrer"
                className={buttonClassName('ghost')}
              >
                <ExternalLink aria-hidden="true" size={16} />
                Open link
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </div>
          </section>

          <form
            onSubmit={(event) => void savePassword(event)}
            noValidate
            aria-labelledby="portal-password-heading"
            className="flex flex-col gap-3 rounded-xl border border-border p-4"
          >
            <h3 id="portal-password-heading" className="text-base font-semibold">
              {portal.hasPassword ? 'Change password' : 'Set password'}
            </h3>
            <p className="text-sm text-fg-muted">
              {portal.hasPassword
                ? `A password is set${portal.passwordSetAt ? ` (since ${formatFileDateTime(portal.passwordSetAt)})` : ''}. It is stored scrambled, so nobody can read it back: to send it again, set a new one.`
                : 'Your client enters this password to open the portal. Send it separately from the link.'}
            </p>
            <FormTextField
              label={portal.hasPassword ? 'New password' : 'Password'}
              name="portal-password"
              type={visible ? 'text' : 'password'}
              autoComplete="new-password"
              spellCheck="false"
              inputRef={passwordRef}
              value={password}
              onChange={(value) => {
                setPassword(value);
                setGenerated(false);
                setErrors({});
              }}
              description={`At least ${MIN_PORTAL_PASSWORD_CHARS} characters.${generated ? ' Generated: copy it for your client before you save, it cannot be shown again later.' : ''}`}
              error={errors.password}
              trailing={
                <AriaButton
                  aria-label={visible ? 'Hide password' : 'Show password'}
                  aria-pressed={visible}
                  onPress={() => setVisible((shown) => !shown)}
                  className="grid size-11 shrink-0 cursor-pointer place-items-center rounded-lg border border-border-strong bg-surface text-fg-muted outline-none hover:bg-surface-muted hover:text-fg data-focus-visible:ring-2 data-focus-visible:ring-ring"
                >
                  {visible ? (
                    <EyeOff aria-hidden="true" size={18} />
                  ) : (
                    <Eye aria-hidden="true" size={18} />
                  )}
                </AriaButton>
              }
            />
            <div className="flex flex-wrap gap-2">
              <Button variant="secondary" onPress={generate}>
                <Dices aria-hidden="true" size={16} />
                Generate
              </Button>
              {generated && password ? (
                <Button variant="ghost" onPress={() => void copyPassword()}>
                  <Copy aria-hidden="true" size={16} />
                  Copy password
                </Button>
              ) : null}
            </div>
            {portal.hasPassword ? (
              <p className="flex items-start gap-2 rounded-lg bg-surface-muted p-3 text-sm text-fg">
                <TriangleAlert aria-hidden="true" size={16} className="mt-0.5 shrink-0" />
                <span>
                  Your client will need the new password. Saving it ends the{' '}
                  {portal.openSessions === 0
                    ? 'open portal sessions (none right now)'
                    : sessionsWords(portal.openSessions)}
                  .
                </span>
              </p>
            ) : null}
            <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-end">
              {errors.form ? (
                <p role="alert" className="text-sm text-danger sm:mr-auto">
                  {errors.form}
                </p>
              ) : null}
              <Button type="submit" isPending={saving === 'password'}>
                {portal.hasPassword
                  ? 'Change password'
                  : !portal.enabled
                    ? 'Set password and turn on'
                    : 'Set password'}
              </Button>
            </div>
          </form>
        </>
      )}
      <SheetActions>
        <Button variant="secondary" onPress={onClose}>
          Done
        </Button>
      </SheetActions>
    </Sheet>
  );
}

/**
 * "Client portal…" for the project's header, and the dialog it opens. react-aria hands focus
 * back to this button when the dialog closes.
 */
export function PortalAccessButton({
  projectId,
  projectName,
  callEndpoint: override,
}: {
  projectId: string;
  projectName?: string;
  callEndpoint?: CallEndpoint;
}) {
  const [open, setOpen] = useState(false);
  const callEndpoint = useCallEndpoint(override);
  const online = useOnline();
  return (
    <>
      {/* "Portal" on phones, where the project's name needs the room; the name stays the same. */}
      <Button
        variant="secondary"
        onPress={() => setOpen(true)}
        aria-label="Client portal…"
        className="shrink-0"
      >
        <DoorOpen aria-hidden="true" size={16} />
        <span className="sm:hidden">Portal</span>
        <span className="hidden sm:inline">Client portal…</span>
      </Button>
      {open ? (
        <PortalAccessDialog
          projectId={projectId}
          projectName={projectName}
          online={online}
          callEndpoint={callEndpoint}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}
