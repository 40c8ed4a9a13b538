import { TriangleAlert } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import {
  deleteAccount,
  DELETE_ACCOUNT_CONFIRMATION,
  getAccountDeletionPlan,
  type AccountDeletionPlan,
  type AccountDeletionWorkspace,
} from '#contract/endpoints/account.ts';
import { useAuthServices } from '../../auth/auth-services.tsx';
import { Button } from '../../ui/button.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { focusFirstInvalid, type FieldErrors } from '../auth/field-errors.ts';
import { FormAlert } from '../auth/form-alert.tsx';
import { apiErrorMessage } from './api-error-message.ts';
import { formatBytes } from './format-bytes.ts';

export interface DeleteAccountSettingsProps {
  callEndpoint: CallEndpoint;
  /** After the server deleted the account: sign out on this device and show the farewell page. */
  onDeleted: () => void | Promise<void>;
}

/** Settings > Profile, last: the danger zone. The dialog does the asking. */
export function DeleteAccountSettings({ callEndpoint, onDeleted }: DeleteAccountSettingsProps) {
  const headingId = useId();
  const [isOpen, setOpen] = useState(false);
  const openerRef = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    // The dialog is unmounted, not hidden: focus goes back to the button that opened it.
    requestAnimationFrame(() => openerRef.current?.focus());
  };
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-danger/50 bg-surface p-5 shadow-xs sm:p-6"
    >
      <div className="flex items-start gap-3">
        <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-danger/10 text-danger">
          <TriangleAlert aria-hidden="true" size={20} />
        </span>
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold text-fg">
            Delete account
          </h2>
          <p className="mt-1 text-sm text-fg-muted">
            Deletes your account and signs you out on every device. Workspaces you share pass to
            another member; workspaces only you use are deleted with everything in them. This cannot
            be undone.
          </p>
        </div>
      </div>
      <div className="mt-5">
        <Button ref={openerRef} variant="danger" onPress={() => setOpen(true)}>
          Delete account…
        </Button>
      </div>
      {isOpen ? (
        <DeleteAccountDialog callEndpoint={callEndpoint} onCancel={close} onDeleted={onDeleted} />
      ) : null}
    </section>
  );
}

type Loaded =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; plan: AccountDeletionPlan };

type Field = 'password' | 'nonce' | 'confirmation';

interface ErrorDetails {
  reason?: string;
  field?: string;
}

function detailsOf(error: unknown): ErrorDetails {
  const body = (error as { body?: { error?: { details?: unknown } } | null }).body;
  const details = body?.error?.details;
  return details && typeof details === 'object' ? details : {};
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** "3 projects, 2 clients and 5 files (1.2 MB)", or "nothing in it yet". */
export function deletionSummary(counts: AccountDeletionWorkspace['counts']): string {
  const parts = [
    counts.projects > 0 ? plural(counts.projects, 'project', 'projects') : null,
    counts.clients > 0 ? plural(counts.clients, 'client', 'clients') : null,
    counts.files > 0
      ? `${plural(counts.files, 'file', 'files')} (${formatBytes(counts.fileBytes)})`
      : null,
  ].filter((part): part is string => part !== null);
  if (parts.length === 0) return 'nothing in it yet';
  if (parts.length === 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1) ?? ''}`;
}

interface DialogProps {
  callEndpoint: CallEndpoint;
  onCancel: () => void;
  onDeleted: () => void | Promise<void>;
}

function DeleteAccountDialog({ callEndpoint, onCancel, onDeleted }: DialogProps) {
  const services = useAuthServices();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [owners, setOwners] = useState<Record<string, string>>({});
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [isPending, setPending] = useState(false);
  const [isSending, setSending] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const load = useCallback(async () => {
    setLoaded({ status: 'loading' });
    try {
      const { plan } = await callEndpoint(getAccountDeletionPlan, { query: {} });
      setOwners(
        Object.fromEntries(
          plan.workspaces
            .filter((workspace) => workspace.defaultNewOwnerId !== null)
            .map((workspace) => [workspace.workspaceId, workspace.defaultNewOwnerId ?? '']),
        ),
      );
      setLoaded({ status: 'ready', plan });
    } catch (error) {
      setLoaded({ status: 'failed', message: apiErrorMessage(error) });
    }
  }, [callEndpoint]);

  useEffect(() => {
    void load();
  }, [load]);

  const sendCode = async () => {
    if (!services) return;
    setSending(true);
    setFailure(null);
    const { error } = await services.client.reauthenticate();
    setSending(false);
    if (error) setFailure(error.message);
    else setNotice('We mailed you a 6-digit code. Enter it below.');
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (loaded.status !== 'ready' || isPending) return;
    const { plan } = loaded;
    const found: FieldErrors<Field> = {};
    if (plan.hasPassword && password === '') found.password = 'Enter your password';
    if (!plan.hasPassword && !/^\d{6}$/.test(code.trim())) {
      found.nonce = 'Enter the 6-digit code from the mail';
    }
    if (confirmation.trim() !== DELETE_ACCOUNT_CONFIRMATION) {
      found.confirmation = `Type ${DELETE_ACCOUNT_CONFIRMATION} to confirm`;
    }
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) {
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setPending(true);
    try {
      await callEndpoint(deleteAccount, {
        query: {},
        body: {
          ...(plan.hasPassword ? { password } : { nonce: code.trim() }),
          workspaces: plan.workspaces
            .filter((workspace) => workspace.fate === 'transfer')
            .map((workspace) => ({
              workspaceId: workspace.workspaceId,
              newOwnerId: owners[workspace.workspaceId] ?? workspace.defaultNewOwnerId,
            })),
        },
      });
    } catch (error) {
      setPending(false);
      const details = detailsOf(error);
      if (details.reason === 'reauthentication_failed') {
        const field: Field = details.field === 'nonce' ? 'nonce' : 'password';
        setErrors({ [field]: apiErrorMessage(error) });
        requestAnimationFrame(() => focusFirstInvalid(formRef.current));
        return;
      }
      setFailure(apiErrorMessage(error));
      // Membership changed meanwhile (someone joined or left): show the plan as it is now.
      if (details.reason === 'owner_decision_required') void load();
      return;
    }
    await onDeleted();
  };

  return (
    <ModalOverlay
      isOpen
      onOpenChange={(open) => {
        if (!open && !isPending) onCancel();
      }}
      isDismissable={!isPending}
      className="fixed inset-0 z-50 grid place-items-center overflow-y-auto bg-black/50 p-4"
    >
      <Modal className="w-full max-w-lg rounded-2xl border border-border bg-surface p-5 text-fg shadow-xl sm:p-6">
        <Dialog className="outline-none">
          <Heading slot="title" className="text-xl font-semibold">
            Delete your account?
          </Heading>
          {loaded.status === 'loading' ? (
            <p role="status" className="mt-4 flex items-center gap-2 text-fg-muted">
              <Spinner size="small" /> Checking your workspaces…
            </p>
          ) : loaded.status === 'failed' ? (
            <div className="mt-4 flex flex-col gap-4">
              <FormAlert>{loaded.message}</FormAlert>
              <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
                <Button variant="secondary" onPress={onCancel}>
                  Cancel
                </Button>
                <Button onPress={() => void load()}>Try again</Button>
              </div>
            </div>
          ) : (
            <form
              ref={formRef}
              noValidate
              onSubmit={(event) => void submit(event)}
              className="mt-4 flex flex-col gap-5"
            >
              <WorkspaceFates
                workspaces={loaded.plan.workspaces}
                owners={owners}
                onOwnerChange={(workspaceId, userId) =>
                  setOwners((current) => ({ ...current, [workspaceId]: userId }))
                }
                isDisabled={isPending}
              />
              <p className="text-sm text-fg-muted">
                Your profile, sessions and sign-in details are deleted. What you wrote in shared
                workspaces stays for the others, shown without your name. We mail a confirmation to{' '}
                <span className="font-medium text-fg">{loaded.plan.email}</span>.
              </p>
              {failure ? <FormAlert>{failure}</FormAlert> : null}
              {notice ? <FormAlert tone="info">{notice}</FormAlert> : null}
              {loaded.plan.hasPassword ? (
                <FormTextField
                  label="Your password"
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={setPassword}
                  error={errors.password}
                  isDisabled={isPending}
                  autoFocus
                />
              ) : (
                <div className="flex flex-col gap-3">
                  <p className="text-sm text-fg-muted">
                    Your account signs in with Google: confirm it is you with a code we mail you.
                  </p>
                  <div>
                    <Button
                      variant="secondary"
                      onPress={() => void sendCode()}
                      isPending={isSending}
                      isDisabled={isPending || !services}
                    >
                      Email me a code
                    </Button>
                  </div>
                  <FormTextField
                    label="Code from the mail"
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    value={code}
                    onChange={setCode}
                    error={errors.nonce}
                    isDisabled={isPending}
                  />
                </div>
              )}
              <FormTextField
                label={`Type ${DELETE_ACCOUNT_CONFIRMATION} to confirm`}
                autoComplete="off"
                value={confirmation}
                onChange={setConfirmation}
                error={errors.confirmation}
                isDisabled={isPending}
              />
              <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
                <Button variant="secondary" onPress={onCancel} isDisabled={isPending}>
                  Cancel
                </Button>
                <Button type="submit" variant="danger" isPending={isPending}>
                  Delete my account
                </Button>
              </div>
            </form>
          )}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

function WorkspaceFates({
  workspaces,
  owners,
  onOwnerChange,
  isDisabled,
}: {
  workspaces: readonly AccountDeletionWorkspace[];
  owners: Record<string, string>;
  onOwnerChange: (workspaceId: string, userId: string) => void;
  isDisabled: boolean;
}) {
  if (workspaces.length === 0) {
    return <p className="text-sm text-fg-muted">You are not in any workspace.</p>;
  }
  return (
    <ul aria-label="What happens to your workspaces" className="flex flex-col gap-3">
      {workspaces.map((workspace) => (
        <li
          key={workspace.workspaceId}
          className="rounded-xl border border-border bg-surface-muted p-3 text-sm"
        >
          <p className="font-semibold text-fg">{workspace.name}</p>
          {workspace.fate === 'delete' ? (
            <p className="mt-1 text-fg-muted">
              Only you are in it: it is deleted with {deletionSummary(workspace.counts)}.
            </p>
          ) : workspace.fate === 'leave' ? (
            <p className="mt-1 text-fg-muted">
              You leave it (you are {workspace.role === 'admin' ? 'an admin' : 'a member'}); its
              work stays with its members.
            </p>
          ) : (
            <div className="mt-2">
              <SelectField
                label={`New owner of ${workspace.name}`}
                options={workspace.candidates.map((candidate) => ({
                  id: candidate.userId,
                  label: `${candidate.name} (${candidate.role})`,
                }))}
                value={owners[workspace.workspaceId] ?? workspace.defaultNewOwnerId ?? ''}
                onChange={(userId) => onOwnerChange(workspace.workspaceId, userId)}
                description={
                  workspace.candidates.length > 1
                    ? 'It passes to them with all its work; everyone else stays in it.'
                    : 'It passes to them with all its work.'
                }
                isDisabled={isDisabled}
              />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
