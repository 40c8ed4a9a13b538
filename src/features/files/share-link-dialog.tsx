/**
 * A file's share links: make one (expiry, optional download cap and password), copy it, turn it
 * off, and see how often each was used. Links are server state (contract/endpoints/
 * file-share-link.ts), so this dialog needs the network and says so offline instead of queueing.
 */
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { shareLinksLimitMessage } from '#contract/entities/plan.ts';
import {
  createFileShareLink,
  createFileShareLinkInputSchema,
  getFileShareLinks,
  revokeFileShareLink,
  type FileShareLink,
} from '#contract/endpoints/file-share-link.ts';
import { Check, Copy, KeyRound, Link2Off } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import type { LocalFile } from '../../data/files.ts';
import { Button } from '../../ui/button.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Sheet, SheetActions } from '../../ui/sheet.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { UpgradePlanLink } from '../billing/upgrade-plan-link.tsx';
import { checkPlanLimit } from '../billing/workspace-plan.ts';
import { readSubmitFailure, validateForm } from '../marketing/form-errors.ts';
import { formatFileDateTime } from './file-format.ts';

const expiryChoices = [
  { id: '60', label: '1 hour' },
  { id: '1440', label: '1 day' },
  { id: '10080', label: '7 days' },
  { id: '43200', label: '30 days' },
] as const;
type ExpiryChoice = (typeof expiryChoices)[number]['id'];

type LinkState = 'active' | 'expired' | 'revoked' | 'used-up';

export function linkState(link: FileShareLink, now: number): LinkState {
  if (link.revokedAt) return 'revoked';
  if (Date.parse(link.expiresAt) <= now) return 'expired';
  if (link.maxDownloads !== null && link.downloadCount >= link.maxDownloads) return 'used-up';
  return 'active';
}

const stateWords: Record<LinkState, string> = {
  active: 'Active',
  expired: 'Expired',
  revoked: 'Turned off',
  'used-up': 'Used up',
};

export function downloadsWords(link: FileShareLink): string {
  const count = `${link.downloadCount} download${link.downloadCount === 1 ? '' : 's'}`;
  return link.maxDownloads === null ? count : `${count} of ${link.maxDownloads}`;
}

type Fields = 'expiryMinutes' | 'maxDownloads' | 'password' | 'form';

/** Whether a refusal is the plan's (no share links on it), by its details. */
function isShareLinksRefusal(error: unknown): boolean {
  const details = (error as { body?: { error?: { details?: { limit?: unknown } } } } | null)?.body
    ?.error?.details;
  return details?.limit === 'shareLinks';
}

export function ShareLinkDialog({
  file,
  online,
  callEndpoint,
  onClose,
}: {
  file: LocalFile;
  online: boolean;
  callEndpoint: CallEndpoint | null;
  onClose: () => void;
}) {
  const [links, setLinks] = useState<FileShareLink[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [expiry, setExpiry] = useState<ExpiryChoice>('10080');
  const [cap, setCap] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Fields, string>>>({});
  const [saving, setSaving] = useState(false);
  const [copied, setCopied] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [announce, setAnnounce] = useState('');
  /** Why this workspace's plan makes no links (Free), or null when it does or is not known yet. */
  const [planRefusal, setPlanRefusal] = useState<string | null>(null);
  const rowRefs = useRef(new Map<string, HTMLLIElement>());
  const focusAfterRender = useRef<string | null>(null);
  const now = Date.now();

  const load = useCallback(async () => {
    if (!callEndpoint || !online) return;
    setLoadError(null);
    try {
      const answer = await callEndpoint(getFileShareLinks, { query: { fileId: file.id } });
      setLinks(answer.links);
    } catch (error) {
      setLoadError(readSubmitFailure(error).message);
    }
  }, [callEndpoint, online, file.id]);

  useEffect(() => {
    void load();
  }, [load]);

  // The plan decides before the form is filled: on Free the dialog offers the portal and the
  // upgrade instead of a form the server would refuse (a plan bought elsewhere is asked for).
  useEffect(() => {
    if (!callEndpoint || !online) return;
    let live = true;
    void checkPlanLimit(callEndpoint, file.workspaceId, (plan) => plan.limits.shareLinks).then(
      ({ plan, fits }) => {
        if (live) setPlanRefusal(fits ? null : shareLinksLimitMessage(plan));
      },
    );
    return () => {
      live = false;
    };
  }, [callEndpoint, online, file.workspaceId]);

  // Focus follows the link an action changed (the new one, or the one just turned off).
  useEffect(() => {
    const id = focusAfterRender.current;
    if (!id) return;
    focusAfterRender.current = null;
    rowRefs.current.get(id)?.focus();
  });

  const copy = async (link: FileShareLink): Promise<boolean> => {
    try {
      await navigator.clipboard.writeText(link.url);
      setCopied(link.id);
      setAnnounce('Link copied.');
      return true;
    } catch {
      setAnnounce('Could not copy: select the link and copy it yourself.');
      return false;
    }
  };

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (!callEndpoint) return;
    const body = {
      fileId: file.id,
      expiryMinutes: Number(expiry),
      maxDownloads: cap.trim() === '' ? null : Number(cap.trim()),
      password: password === '' ? null : password,
    };
    const checked = validateForm<typeof createFileShareLinkInputSchema, Fields>(
      createFileShareLinkInputSchema,
      body,
    );
    if (!checked.ok) {
      // A field without its own input (the file's id) speaks at the form's level.
      const { fileId, ...fields } = checked.errors as Partial<Record<Fields | 'fileId', string>>;
      setErrors(fileId ? { ...fields, form: fileId } : fields);
      return;
    }
    setSaving(true);
    setErrors({});
    try {
      const { link } = await callEndpoint(createFileShareLink, { query: {}, body });
      setLinks((current) => [link, ...(current ?? [])]);
      setPassword('');
      setCap('');
      focusAfterRender.current = link.id;
      const isCopied = await copy(link);
      setAnnounce(
        isCopied ? 'Link created and copied.' : 'Link created. Copy it from the list below.',
      );
    } catch (error) {
      const failure = readSubmitFailure<Fields>(error);
      if (isShareLinksRefusal(error)) setPlanRefusal(failure.message);
      else setErrors({ ...failure.fieldErrors, form: failure.message });
    } finally {
      setSaving(false);
    }
  };

  const revoke = async (link: FileShareLink) => {
    if (!callEndpoint) return;
    try {
      const { link: revoked } = await callEndpoint(revokeFileShareLink, {
        query: { id: link.id },
      });
      setLinks(
        (current) => current?.map((item) => (item.id === revoked.id ? revoked : item)) ?? [],
      );
      setConfirming(null);
      focusAfterRender.current = link.id;
      setAnnounce('Link turned off. Nobody can download with it now.');
    } catch (error) {
      setConfirming(null);
      setLoadError(readSubmitFailure(error).message);
    }
  };

  return (
    <Sheet title={`Share “${file.name}”`} onClose={onClose} wide>
      <p className="text-sm text-fg-muted">
        Anyone with a link can download this file, without an account, until it expires or you turn
        it off. Every download is counted and shows in the project’s activity.
      </p>
      <div role="status" className="sr-only">
        {announce}
      </div>
      {!online || !callEndpoint ? (
        <p className="rounded-lg border border-border bg-surface-muted p-3 text-sm text-fg">
          You’re offline. Share links live on the server, so making and managing them needs a
          connection. Your files are still here.
        </p>
      ) : (
        <>
          {planRefusal ? (
            <div className="flex flex-col gap-2 rounded-xl border border-border bg-surface-muted p-4 text-sm text-fg">
              <p>{planRefusal}</p>
              <p>
                <UpgradePlanLink onPress={onClose}>See plans and upgrade</UpgradePlanLink>
              </p>
            </div>
          ) : (
            <form
              onSubmit={(event) => void create(event)}
              noValidate
              aria-label="New share link"
              className="grid gap-4 rounded-xl border border-border p-4 sm:grid-cols-3"
            >
              <SelectField
                label="Expires after"
                options={expiryChoices}
                value={expiry}
                onChange={setExpiry}
                error={errors.expiryMinutes}
              />
              <FormTextField
                label="Download limit"
                name="maxDownloads"
                inputMode="numeric"
                placeholder="No limit"
                value={cap}
                onChange={(value) => {
                  setCap(value);
                  setErrors({});
                }}
                error={errors.maxDownloads}
              />
              <FormTextField
                label="Password (optional)"
                name="password"
                type="password"
                autoComplete="new-password"
                value={password}
                onChange={(value) => {
                  setPassword(value);
                  setErrors({});
                }}
                error={errors.password}
              />
              <div className="flex flex-col gap-2 sm:col-span-3 sm:flex-row sm:items-center sm:justify-end">
                {errors.form ? (
                  <p role="alert" className="text-sm text-danger sm:mr-auto">
                    {errors.form}
                  </p>
                ) : null}
                <Button type="submit" isPending={saving}>
                  Create link
                </Button>
              </div>
            </form>
          )}

          <section aria-labelledby="share-links-heading" className="flex flex-col gap-2">
            <h3 id="share-links-heading" className="text-base font-semibold">
              Links to this file
            </h3>
            {loadError ? (
              <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-danger">
                {loadError}
                <Button variant="secondary" onPress={() => void load()}>
                  Try again
                </Button>
              </div>
            ) : links === null ? (
              <p className="flex items-center gap-2 text-sm text-fg-muted">
                <Spinner /> Loading links…
              </p>
            ) : links.length === 0 ? (
              <p className="text-sm text-fg-muted">
                {planRefusal
                  ? 'No links to this file.'
                  : 'No links yet. A link you create is copied, ready to paste into an email.'}
              </p>
            ) : (
              <ul className="flex flex-col gap-2">
                {links.map((link) => {
                  const state = linkState(link, now);
                  return (
                    <li
                      key={link.id}
                      ref={(element) => {
                        if (element) rowRefs.current.set(link.id, element);
                        else rowRefs.current.delete(link.id);
                      }}
                      tabIndex={-1}
                      aria-label={`${stateWords[state]} link, ${downloadsWords(link)}`}
                      className="flex flex-col gap-2 rounded-lg border border-border p-3 outline-none focus-visible:ring-2 focus-visible:ring-ring"
                    >
                      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                        <span
                          className={`rounded-full px-2 py-0.5 text-xs font-semibold ${state === 'active' ? 'bg-success/15 text-success' : 'bg-surface-muted text-fg-muted'}`}
                        >
                          {stateWords[state]}
                        </span>
                        <span>{downloadsWords(link)}</span>
                        <span className="text-fg-muted">
                          {state === 'expired' ? 'Expired' : 'Expires'}{' '}
                          {formatFileDateTime(link.expiresAt)}
                        </span>
                        {link.hasPassword ? (
                          <span className="inline-flex items-center gap-1 text-fg-muted">
                            <KeyRound aria-hidden="true" size={14} /> Password
                          </span>
                        ) : null}
                      </div>
                      {state === 'active' ? (
                        <input
                          readOnly
                          aria-label="Link"
                          value={link.url}
                          onFocus={(event) => event.currentTarget.select()}
                          className="min-h-10 w-full min-w-0 rounded-lg border border-border bg-surface-muted px-3 font-mono text-xs text-fg"
                        />
                      ) : null}
                      <p className="text-xs text-fg-muted">
                        Made by {link.createdByName || 'a former member'} on{' '}
                        {formatFileDateTime(link.createdAt)}
                        {link.lastDownloadedAt
                          ? ` · last downloaded ${formatFileDateTime(link.lastDownloadedAt)}`
                          : ''}
                      </p>
                      {state === 'active' && confirming === link.id ? (
                        <div className="flex flex-col gap-2 rounded-lg bg-surface-muted p-3 text-sm sm:flex-row sm:items-center">
                          <span className="sm:mr-auto">
                            Turn this link off? Anyone who has it can no longer download the file.
                          </span>
                          <Button variant="secondary" onPress={() => setConfirming(null)}>
                            Keep it
                          </Button>
                          <Button variant="danger" onPress={() => void revoke(link)} autoFocus>
                            Turn off
                          </Button>
                        </div>
                      ) : state === 'active' ? (
                        <div className="flex flex-wrap gap-2">
                          <Button variant="secondary" onPress={() => void copy(link)}>
                            {copied === link.id ? (
                              <Check aria-hidden="true" size={16} />
                            ) : (
                              <Copy aria-hidden="true" size={16} />
                            )}
                            {copied === link.id ? 'Copied' : 'Copy link'}
                          </Button>
                          <Button variant="ghost" onPress={() => setConfirming(link.id)}>
                            <Link2Off aria-hidden="true" size={16} />
                            Turn off…
                          </Button>
                        </div>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
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
