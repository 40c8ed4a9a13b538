/**
 * Settings > Workspace > Logo: the workspace's logo, on its invoices (the page and the PDF) and in
 * the client portal (on plans with the workspace's own branding). A PNG or JPEG chosen or dropped
 * here is read on the device, checked against the contract's rule (`logoUrlProblem`: at most
 * 256 KiB, really a PNG or JPEG) and kept inline in the workspace's settings as a `data:` URL, the
 * only form the server embeds in a PDF: it never fetches an address it is given. Owners and admins
 * change it, online; others see it. On a plan without portal branding it says so, with the way
 * to upgrade.
 */
import { ImageUp, Trash2 } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { FileTrigger } from 'react-aria-components';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { getWorkspaceSettings, updateWorkspaceSettings } from '#contract/endpoints/workspace.ts';
import {
  logoImageTypes,
  logoUrlProblem,
  MAX_LOGO_BYTES,
  type WorkspaceRole,
} from '#contract/entities/workspace.ts';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { useFileDrop } from '../../ui/use-file-drop.ts';
import { useCallEndpoint, useOnline } from '../activity/activity-timeline.tsx';
import { FormAlert } from '../auth/form-alert.tsx';
import { UpgradePlanLink, useKnownPlan } from '../billing/upgrade-plan-link.tsx';
import { readSubmitFailure } from '../marketing/form-errors.ts';
import { useOptionalSync } from '../workspace/sync-context.tsx';
import { useWorkspaceChoices } from '../workspace/use-workspace.ts';
import { SettingsSection } from './settings-section.tsx';

export interface WorkspaceLogoSettingsProps {
  /** The API client; the app's from the router context by default. */
  callEndpoint?: CallEndpoint;
  /** The workspace and the user's role there; by default the current one from the sync session. */
  workspaceId?: string;
  role?: WorkspaceRole | null;
}

const MAX_KIB = MAX_LOGO_BYTES / 1024;
export const LOGO_OFFLINE_TEXT = 'The logo is changed online. Connect to change it.';

export function WorkspaceLogoSettings(props: WorkspaceLogoSettingsProps) {
  if (props.workspaceId) {
    return <Logo {...props} workspaceId={props.workspaceId} role={props.role ?? null} />;
  }
  return <FromSync {...props} />;
}

function FromSync(props: WorkspaceLogoSettingsProps) {
  const sync = useOptionalSync();
  if (!sync) return <Loading />;
  return <WithWorkspace {...props} />;
}

function WithWorkspace(props: WorkspaceLogoSettingsProps) {
  const choices = useWorkspaceChoices();
  const current = choices?.current;
  if (!current) return <Loading />;
  const role = choices.choices.find((choice) => choice.workspace.id === current.id)?.role ?? null;
  return <Logo {...props} workspaceId={current.id} role={role} />;
}

function Loading() {
  return (
    <p role="status" className="flex items-center gap-2 text-fg-muted">
      <Spinner size="small" /> Loading…
    </p>
  );
}

function kib(bytes: number): string {
  return `${Math.ceil(bytes / 1024).toLocaleString('en-US')} KiB`;
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}

/** The file as a logo `data:` URL, or the sentence saying why it cannot be one. */
export async function logoFromFile(file: File): Promise<{ dataUrl: string } | { problem: string }> {
  const name = `“${file.name}”`;
  if (!(logoImageTypes as readonly string[]).includes(file.type)) {
    return { problem: `${name} is not a PNG or JPEG image. Choose a .png or .jpg file.` };
  }
  if (file.size > MAX_LOGO_BYTES) {
    return { problem: `${name} is ${kib(file.size)}: a logo is at most ${MAX_KIB} KiB.` };
  }
  let dataUrl: string;
  try {
    dataUrl = await readAsDataUrl(file);
  } catch {
    return { problem: `${name} could not be read. Try another file.` };
  }
  const problem = logoUrlProblem(dataUrl);
  return problem ? { problem: `${name}: ${problem}.` } : { dataUrl };
}

function Logo({
  callEndpoint: override,
  workspaceId,
  role,
}: {
  callEndpoint?: CallEndpoint;
  workspaceId: string;
  role: WorkspaceRole | null;
}) {
  const callEndpoint = useCallEndpoint(override);
  const online = useOnline();
  const canManage = role === 'owner' || role === 'admin';
  /** The saved logo; undefined while loading. */
  const [saved, setSaved] = useState<string | null | undefined>(undefined);
  const [loadFailed, setLoadFailed] = useState(false);
  /** A file read and checked, not saved yet. */
  const [chosen, setChosen] = useState<{ dataUrl: string; name: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const plan = useKnownPlan(workspaceId);
  const chooseRef = useRef<HTMLButtonElement>(null);
  /** Set when the button that had focus goes away: focus moves to Choose once it is enabled. */
  const refocus = useRef(false);
  const errorId = useId();
  const hintId = useId();

  useEffect(() => {
    if (!callEndpoint || !online) return;
    let live = true;
    callEndpoint(getWorkspaceSettings, { query: { workspaceId } }).then(
      ({ workspace }) => {
        if (!live) return;
        setSaved(workspace.logoUrl);
        setLoadFailed(false);
      },
      () => {
        if (live) setLoadFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [callEndpoint, workspaceId, online]);

  useEffect(() => {
    if (!busy && refocus.current) {
      refocus.current = false;
      chooseRef.current?.focus();
    }
  });

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setNotice(null);
    const result = await logoFromFile(file);
    if ('problem' in result) {
      setError(result.problem);
      return;
    }
    setError(null);
    setChosen({ dataUrl: result.dataUrl, name: file.name });
  };

  const save = async (logoUrl: string | null) => {
    if (!callEndpoint) return;
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const { workspace } = await callEndpoint(updateWorkspaceSettings, {
        query: { workspaceId },
        body: { logoUrl },
      });
      setSaved(workspace.logoUrl);
      setChosen(null);
      setNotice(logoUrl ? 'Logo saved.' : 'Logo removed.');
      // Save or Remove is gone: focus goes to Choose rather than to the page.
      refocus.current = true;
    } catch (failure) {
      const read = readSubmitFailure<'logoUrl'>(failure);
      setError(read.fieldErrors.logoUrl ?? read.message);
    } finally {
      setBusy(false);
    }
  };

  const { dragging, dropProps } = useFileDrop(
    (files) => void pick(files[0]),
    canManage && online && !busy,
  );

  const shown = chosen?.dataUrl ?? saved ?? null;
  const disabled = !online || busy || saved === undefined;

  return (
    <SettingsSection
      title="Logo"
      description={`On your invoices and their PDFs, and in the client portal on plans with your own branding. A PNG or JPEG of at most ${MAX_KIB} KiB.`}
      icon={<ImageUp aria-hidden="true" size={20} />}
    >
      <div className="flex flex-col gap-4">
        {!online ? <FormAlert tone="info">{LOGO_OFFLINE_TEXT}</FormAlert> : null}
        {online && loadFailed ? (
          <FormAlert>The logo could not be loaded just now.</FormAlert>
        ) : null}
        {online && saved === undefined && !loadFailed ? <Loading /> : null}

        <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
          <div className="grid h-20 w-40 shrink-0 place-items-center rounded-xl border border-border bg-surface-muted p-2">
            {shown ? (
              <img
                src={shown}
                alt={chosen ? `Chosen logo, ${chosen.name}, not saved yet` : 'Current logo'}
                className="max-h-full max-w-full object-contain"
                referrerPolicy="no-referrer"
              />
            ) : (
              <span className="text-sm text-fg-muted">
                {saved === undefined ? 'Logo' : 'No logo yet'}
              </span>
            )}
          </div>

          {canManage ? (
            <div
              {...dropProps}
              data-logo-drop
              className={`flex min-w-0 flex-1 flex-col gap-2 rounded-xl border-2 border-dashed p-4 transition-colors ${
                dragging ? 'border-brand bg-brand-soft' : 'border-border-strong'
              }`}
            >
              <div className="flex flex-wrap items-center gap-2">
                <FileTrigger
                  acceptedFileTypes={[...logoImageTypes]}
                  onSelect={(list) => void pick(list ? [...list][0] : undefined)}
                >
                  <Button
                    ref={chooseRef}
                    variant="secondary"
                    isDisabled={disabled}
                    aria-describedby={error ? `${errorId} ${hintId}` : hintId}
                  >
                    <ImageUp aria-hidden="true" size={16} />
                    {shown ? 'Choose another logo…' : 'Choose a logo…'}
                  </Button>
                </FileTrigger>
                {saved && !chosen ? (
                  <Button
                    variant="ghost"
                    isDisabled={disabled}
                    isPending={busy}
                    onPress={() => void save(null)}
                  >
                    <Trash2 aria-hidden="true" size={16} /> Remove logo
                  </Button>
                ) : null}
              </div>
              <p id={hintId} className="text-sm text-fg-muted">
                Or drop a PNG or JPEG file here (at most {MAX_KIB} KiB).
              </p>
            </div>
          ) : (
            <p className="text-sm text-fg-muted">Owners and admins change the logo.</p>
          )}
        </div>

        {canManage && plan.limits.portalBranding === 'satchel' ? (
          <p className="text-sm text-fg-muted">
            Your {plan.name} plan does not include portal branding: clients see Satchel’s logo in
            the portal, and yours on invoices. <UpgradePlanLink />
          </p>
        ) : null}

        {saved && !saved.startsWith('data:') && !chosen ? (
          <p className="text-sm text-fg-muted">
            This logo is a web address: the portal shows it, but invoice PDFs show only a logo
            uploaded here.
          </p>
        ) : null}

        {error ? (
          <p id={errorId} role="alert" className="text-sm font-medium text-danger">
            {error}
          </p>
        ) : null}
        {notice ? <FormAlert tone="success">{notice}</FormAlert> : null}

        {chosen && canManage ? (
          <div className="flex flex-wrap gap-3">
            <Button isPending={busy} isDisabled={!online} onPress={() => void save(chosen.dataUrl)}>
              Save logo
            </Button>
            <Button
              variant="secondary"
              isDisabled={busy}
              onPress={() => {
                setChosen(null);
                setError(null);
                refocus.current = true;
              }}
            >
              Cancel
            </Button>
          </div>
        ) : null}
      </div>
    </SettingsSection>
  );
}
