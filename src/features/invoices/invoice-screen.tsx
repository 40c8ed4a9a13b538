/**
 * /invoices/$invoiceId: one invoice. A draft is edited here, offline too: its client's project,
 * currency, dates and terms, its lines (typed, or added from the project's milestones with their
 * amounts), its notes; every change is saved when a field is left. Send needs the network: it
 * waits for this device's queued changes to the draft, then the server numbers it and emails the
 * client. A sent invoice is read-only: payments and refunds are recorded against it (offline
 * too), and it can be voided while nothing is paid. A void one that money reached anyway (a card
 * payment as it was voided) keeps its payments in view and takes the refund.
 */
import { invoiceNumberText, paymentTerms, paymentTermsWords } from '#contract/entities/invoice.ts';
import { invoiceBusiness, invoiceDocument } from '#contract/entities/invoice-document.ts';
import { getInvoicePdf, sendInvoice } from '#contract/endpoints/invoice.ts';
import { useNavigate } from '@tanstack/react-router';
import { ArrowLeft, Flag, GitPullRequestArrow, Send, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAuthServices } from '../../auth/auth-services.tsx';
import { useClient } from '../../data/client-queries.ts';
import { invoiceWrites, useInvoiceView, type InvoiceView } from '../../data/invoices.ts';
import { useProjects } from '../../data/project-queries.ts';
import { writeErrorFields, type WriteErrorFields } from '../../data/write-error-fields.ts';
import { useLiveQuery } from '../../db/live-query.ts';
import { Button } from '../../ui/button.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { TextLink } from '../../ui/text-link.tsx';
import { useDraft } from '../../ui/use-draft.ts';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { useToast } from '../../ui/use-toast.ts';
import { useCallEndpoint, useOnline } from '../activity/activity-timeline.tsx';
import { readSubmitFailure } from '../marketing/form-errors.ts';
import { focusWhenReady } from '../../ui/focus-when-ready.ts';
import { useSync, useWriteContext } from '../workspace/sync-context.tsx';
import { useWorkspace, WorkspaceGate } from '../workspace/workspace-gate.tsx';
import { downloadFile } from './download-file.ts';
import {
  InvoiceDocumentLines,
  InvoiceDocumentTotals,
  InvoiceParties,
  InvoicePdfActions,
} from './invoice-document-view.tsx';
import { InvoiceLinesEditor } from './invoice-lines-editor.tsx';
import { InvoicePanel } from './invoice-panel.tsx';
import { InvoicePayments } from './invoice-payments.tsx';
import { InvoiceStateBadge } from './invoice-state-badge.tsx';
import { BillableLinesSheet, type BillableKind } from './billable-lines-sheet.tsx';
import {
  datesBlocker,
  DUE_DATE_FIELD_ID,
  ISSUE_DATE_FIELD_ID,
  type SendBlocker,
} from './send-blockers.ts';

const HEADING_ID = 'invoice-heading';

export function InvoiceScreen({ invoiceId }: { invoiceId: string }) {
  return (
    <div>
      <TextLink
        href="/invoices"
        data-print-hide
        className="mb-4 inline-flex items-center gap-1 text-sm"
      >
        <ArrowLeft aria-hidden="true" size={16} />
        Invoices
      </TextLink>
      <WorkspaceGate>
        <InvoiceContent invoiceId={invoiceId} />
      </WorkspaceGate>
    </div>
  );
}

function InvoiceContent({ invoiceId }: { invoiceId: string }) {
  const { handle } = useSync();
  const view = useInvoiceView(handle.db, invoiceId);
  usePageTitle(view ? `${invoiceNumberText(view.invoice.number)} · Invoices` : 'Invoice');
  if (view === undefined) {
    return (
      <div role="status" className="flex items-center justify-center gap-2 py-16 text-fg-muted">
        <Spinner size="small" />
        Loading the invoice…
      </div>
    );
  }
  if (view === null) {
    return (
      <div>
        <PageHeading id={HEADING_ID}>Invoice not found</PageHeading>
        <p className="mt-2 text-fg-muted">
          This invoice is not on this device: it may have been deleted, or it has not synced yet.{' '}
          <TextLink href="/invoices">Back to invoices</TextLink>
        </p>
      </div>
    );
  }
  return <InvoiceBody view={view} />;
}

function InvoiceBody({ view }: { view: InvoiceView }) {
  const { handle } = useSync();
  const ctx = useWriteContext();
  const toaster = useToast();
  const navigate = useNavigate();
  const { invoice } = view;
  const client = useClient(handle.db, invoice.clientId);
  const workspace = useWorkspace();
  const auth = useAuthServices();
  const online = useOnline();
  const projects = useProjects(handle.db, invoice.workspaceId, { includeArchived: true });
  const [errors, setErrors] = useState<WriteErrorFields>({});
  const [adding, setAdding] = useState<BillableKind | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [confirmVoid, setConfirmVoid] = useState(false);
  // The dates as typed: one the device refused stays on screen, and Send judges what is seen.
  const [issueText, setIssueText] = useDraft(invoice.issueDate ?? '');
  const [dueText, setDueText] = useDraft(invoice.dueDate ?? '');
  // Read when Send is pressed, after the field it left has saved (not a render's worth later).
  const lineProblem = useRef<SendBlocker | null>(null);
  const setLineProblem = useCallback((problem: SendBlocker | null) => {
    lineProblem.current = problem;
  }, []);
  const draft = invoice.status === 'draft';
  const project = projects?.find((candidate) => candidate.id === invoice.projectId);
  const clientProjects = (projects ?? []).filter(
    (candidate) => candidate.clientId === invoice.clientId && !candidate.archived,
  );

  const save = async (patch: Parameters<typeof invoiceWrites.update>[2]) => {
    try {
      await invoiceWrites.update(ctx, invoice.id, patch);
      setErrors({});
      return true;
    } catch (error) {
      setErrors(writeErrorFields(error));
      return false;
    }
  };

  const sendBlocker = (): SendBlocker | null => {
    const dates = datesBlocker({
      paymentTerms: invoice.paymentTerms,
      issueDate: issueText,
      dueDate: dueText,
    });
    if (dates) {
      // Beside the field too: another field's save clears the message a refused date left.
      setErrors((current) => ({ ...current, dueDate: current.dueDate ?? dates.fieldError }));
      return dates;
    }
    return lineProblem.current;
  };

  // The same view model as the PDF and the portal: what this page shows is what they show.
  const doc = invoiceDocument({
    invoice,
    state: view.state,
    paid: view.paid,
    client: client ?? null,
    business: invoiceBusiness(workspace),
  });
  const downloadPdf = async () => {
    const token = auth ? (await auth.client.getSession()).data.session?.access_token : null;
    const params = new URLSearchParams({ endpoint: getInvoicePdf.operation, id: invoice.id });
    await downloadFile(
      `/api/${getInvoicePdf.resource}?${params.toString()}`,
      token ? { headers: { Authorization: `Bearer ${token}` } } : {},
      doc.fileName,
    );
  };

  return (
    <div data-print-root className="flex flex-col gap-6">
      <header className="flex flex-col gap-2">
        <div className="flex flex-wrap items-center gap-3">
          <PageHeading id={HEADING_ID}>
            {draft ? 'Draft invoice' : invoiceNumberText(invoice.number)}
          </PageHeading>
          <InvoiceStateBadge state={view.state} />
        </div>
        <p className="text-fg-muted">
          {doc.title}
          {' · '}
          {client ? (
            <TextLink href={`/clients/${encodeURIComponent(client.id)}`}>{client.name}</TextLink>
          ) : (
            'A client not on this device'
          )}
          {project ? ` · ${project.name}` : null}
        </p>
        <InvoicePdfActions online={online} onDownload={downloadPdf} print />
      </header>

      <section
        aria-label="From, bill to and dates"
        className="rounded-2xl border border-border bg-surface p-4 sm:p-6"
      >
        <InvoiceParties doc={doc} />
      </section>

      {draft ? (
        <InvoicePanel id="invoice-details" title="Details" printHide>
          <div className="grid gap-4 sm:grid-cols-2">
            <BlurField
              label="Title"
              value={invoice.title}
              error={errors.title}
              onCommit={(title) => save({ title })}
            />
            <SelectField
              label="Project"
              options={[
                { id: 'none', label: 'No project' },
                ...clientProjects.map((candidate) => ({ id: candidate.id, label: candidate.name })),
              ]}
              value={invoice.projectId ?? 'none'}
              onChange={(value) => void save({ projectId: value === 'none' ? null : value })}
              error={errors.projectId}
            />
            <BlurField
              label="Currency"
              value={invoice.currency}
              error={errors.currency}
              description="An ISO 4217 code, like EUR or USD."
              onCommit={(currency) => save({ currency })}
            />
            <SelectField
              label="Payment terms"
              options={paymentTerms.map((id) => ({ id, label: paymentTermsWords[id] }))}
              value={invoice.paymentTerms}
              onChange={(value) =>
                void save(
                  value === 'custom'
                    ? { paymentTerms: value }
                    : { paymentTerms: value, dueDate: null },
                )
              }
              error={errors.paymentTerms}
            />
            <BlurField
              id={ISSUE_DATE_FIELD_ID}
              label="Issue date"
              type="date"
              value={invoice.issueDate ?? ''}
              draft={[issueText, setIssueText]}
              description="Empty: the day it is sent."
              error={errors.issueDate}
              onCommit={(value) => save({ issueDate: value === '' ? null : value })}
            />
            <BlurField
              id={DUE_DATE_FIELD_ID}
              label="Due date"
              type="date"
              value={invoice.dueDate ?? ''}
              draft={[dueText, setDueText]}
              description={
                invoice.paymentTerms !== 'custom'
                  ? 'Empty: set from the payment terms when sent.'
                  : dueText === ''
                    ? 'Required before sending.'
                    : undefined
              }
              error={errors.dueDate}
              onCommit={(value) =>
                save(value === '' ? { dueDate: null } : { dueDate: value, paymentTerms: 'custom' })
              }
            />
          </div>
        </InvoicePanel>
      ) : null}

      <InvoicePanel
        id="invoice-lines"
        title="Lines"
        action={
          draft && invoice.projectId ? (
            <div className="flex flex-wrap gap-2 print:hidden">
              <Button variant="secondary" onPress={() => setAdding('milestones')}>
                <Flag aria-hidden="true" size={18} />
                Add milestones
              </Button>
              <Button variant="secondary" onPress={() => setAdding('changes')}>
                <GitPullRequestArrow aria-hidden="true" size={18} />
                Add approved changes
              </Button>
            </div>
          ) : null
        }
      >
        <div>
          {draft ? (
            <>
              <div className="print:hidden">
                <InvoiceLinesEditor
                  lines={invoice.lines}
                  currency={invoice.currency}
                  onSave={(lines) => save({ lines })}
                  onProblemChange={setLineProblem}
                />
              </div>
              {/* A draft prints as the invoice it will be, not as its editor. */}
              <div className="hidden print:block">
                <InvoiceDocumentLines doc={doc} />
              </div>
            </>
          ) : (
            <InvoiceDocumentLines doc={doc} />
          )}
          {errors.lines ? (
            <p role="alert" className="mt-2 text-sm font-medium text-danger">
              {errors.lines}
            </p>
          ) : null}
        </div>
        <InvoiceDocumentTotals doc={doc} />
      </InvoicePanel>

      {draft ? (
        <InvoicePanel id="invoice-notes" title="Notes" hideTitle printHide>
          <BlurField
            label="Notes on the invoice"
            value={invoice.notes ?? ''}
            description="Printed under the lines: thanks, scope, how to pay."
            error={errors.notes}
            onCommit={(value) => save({ notes: value.trim() === '' ? null : value })}
          />
        </InvoicePanel>
      ) : doc.notes ? (
        <InvoicePanel id="invoice-notes" title="Notes">
          <p className="whitespace-pre-wrap text-fg">{doc.notes}</p>
        </InvoicePanel>
      ) : null}

      {doc.paymentInstructions && !draft ? (
        <InvoicePanel id="invoice-how-to-pay" title="How to pay">
          <p className="whitespace-pre-wrap text-fg">{doc.paymentInstructions}</p>
        </InvoicePanel>
      ) : null}

      {draft ? (
        <SendPanel view={view} blocker={sendBlocker} onDelete={() => setConfirmDelete(true)} />
      ) : invoice.status === 'sent' ? (
        <>
          <div data-print-hide className="flex flex-col gap-6">
            <InvoicePayments view={view} locale={workspace.locale} />
          </div>
          {view.paid === 0 ? (
            <div data-print-hide>
              <Button variant="secondary" onPress={() => setConfirmVoid(true)}>
                Void invoice
              </Button>
            </div>
          ) : null}
        </>
      ) : (
        <>
          <p className="text-fg-muted">
            This invoice is void: it stays on record with its number and is no longer owed.
          </p>
          {/* Money can still reach it (a card payment as it was voided): kept in view to refund. */}
          {view.payments.length > 0 ? (
            <div data-print-hide className="flex flex-col gap-6">
              <InvoicePayments view={view} locale={workspace.locale} />
            </div>
          ) : null}
        </>
      )}

      {adding && invoice.projectId ? (
        <BillableLinesSheet
          kind={adding}
          invoice={invoice}
          projectId={invoice.projectId}
          onClose={() => setAdding(null)}
          onAdd={async (lines) => {
            if (await save({ lines: [...invoice.lines, ...lines] })) {
              setAdding(null);
              toaster.show({
                tone: 'success',
                message: `${lines.length} ${lines.length === 1 ? 'line' : 'lines'} added`,
              });
            }
          }}
        />
      ) : null}
      <ConfirmDialog
        isOpen={confirmDelete}
        title="Delete this draft?"
        confirmLabel="Delete draft"
        isDestructive
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => {
          setConfirmDelete(false);
          invoiceWrites
            .delete(ctx, invoice.id)
            .then(() => {
              toaster.show({ message: 'Draft deleted' });
              void navigate({ to: '/invoices' });
            })
            .catch((error: unknown) => setErrors(writeErrorFields(error)));
        }}
      >
        It has no number yet, so nothing is skipped in your numbering.
      </ConfirmDialog>
      <ConfirmDialog
        isOpen={confirmVoid}
        title={`Void ${invoiceNumberText(invoice.number)}?`}
        confirmLabel="Void invoice"
        isDestructive
        onCancel={() => setConfirmVoid(false)}
        onConfirm={() => {
          setConfirmVoid(false);
          void save({ status: 'void' }).then((done) => {
            if (done) toaster.show({ message: `${invoiceNumberText(invoice.number)} voided` });
          });
        }}
      >
        It stays on record with its number and is no longer owed. To bill again, draft a new
        invoice.
      </ConfirmDialog>
    </div>
  );
}

/**
 * A text field saved when left (Enter too), reset to the stored value when that changes; or, with
 * `draft`, showing the text its owner keeps (so the page can judge what is typed).
 */
function BlurField({
  id,
  label,
  value,
  draft,
  onCommit,
  error,
  description,
  type,
}: {
  id?: string;
  label: string;
  value: string;
  draft?: readonly [string, (text: string) => void];
  onCommit: (value: string) => Promise<boolean>;
  error: string | undefined;
  description?: string | undefined;
  type?: 'date';
}) {
  const [own, setOwn] = useState(value);
  useEffect(() => setOwn(value), [value]);
  const [text, setText] = draft ?? [own, setOwn];
  const commit = () => {
    if (text !== value) void onCommit(text);
  };
  return (
    <FormTextField
      label={label}
      value={text}
      onChange={setText}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
      }}
      error={error}
      {...(id ? { id } : {})}
      {...(description ? { description } : {})}
      {...(type ? { type } : {})}
    />
  );
}

/**
 * Send, or why not yet: offline, no lines, this device's changes still on their way, or what is
 * on screen not being what is stored (`blocker`, checked before the server is asked).
 */
function SendPanel({
  view,
  blocker,
  onDelete,
}: {
  view: InvoiceView;
  blocker: () => SendBlocker | null;
  onDelete: () => void;
}) {
  const { handle } = useSync();
  const callEndpoint = useCallEndpoint();
  const online = useOnline();
  const toaster = useToast();
  const { invoice } = view;
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const pending = useLiveQuery(
    () => handle.db.outbox.where('[entity+entityId]').equals(['invoice', invoice.id]).count(),
    [handle.db, invoice.id],
  );
  const waitingToSend = useRef(false);

  const send = async () => {
    if (!callEndpoint) return;
    setFailure(null);
    setSending(true);
    try {
      const answer = await callEndpoint(sendInvoice, { query: { id: invoice.id }, body: {} });
      toaster.show({
        tone: 'success',
        message: answer.emailed
          ? `${invoiceNumberText(answer.invoice.number)} sent: your client was emailed`
          : `${invoiceNumberText(answer.invoice.number)} is numbered and sent; the client has no email address, so send it yourself`,
      });
      handle.notifyOutboxChanged();
      // The Send panel goes once the sent invoice arrives: focus waits on the page's heading,
      // which becomes the invoice's number, rather than falling to the page's body.
      focusWhenReady(`#${HEADING_ID}`);
    } catch (error) {
      setFailure(readSubmitFailure(error).message);
    } finally {
      setSending(false);
    }
  };

  const sendWhenSaved = async () => {
    setFailure(null);
    setSending(true);
    // A field left by pressing Send saves first (its blur runs before this turn ends).
    await new Promise((resolve) => setTimeout(resolve, 0));
    const blocked = blocker();
    if (blocked) {
      setSending(false);
      setFailure(blocked.message);
      focusWhenReady(`#${CSS.escape(blocked.fieldId)}`);
      return;
    }
    const queued = await handle.db.outbox
      .where('[entity+entityId]')
      .equals(['invoice', invoice.id])
      .count();
    if (queued === 0) {
      void send();
      return;
    }
    waitingToSend.current = true;
    handle.notifyOutboxChanged();
  };

  // Queued changes to the draft go first: Send waits for them, then sends what was pushed.
  useEffect(() => {
    if (!waitingToSend.current || pending !== 0) return;
    waitingToSend.current = false;
    void send();
  });

  const reason = !online
    ? 'Sending needs a connection: it numbers the invoice and emails your client. Your draft is saved on this device.'
    : invoice.lines.length === 0
      ? 'Add a line before sending.'
      : null;

  return (
    <InvoicePanel id="invoice-send" title="Send" printHide>
      <p className="text-sm text-fg-muted">
        Sending gives this invoice the next number and emails your client a link to it. After that
        its lines are fixed: a mistake is voided and issued again.
      </p>
      {reason ? <p className="text-sm text-fg-muted">{reason}</p> : null}
      {failure ? (
        <p role="alert" className="text-sm font-medium text-danger">
          {failure}
        </p>
      ) : null}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
        <Button variant="secondary" onPress={onDelete}>
          <Trash2 aria-hidden="true" size={18} />
          Delete draft
        </Button>
        <Button
          isDisabled={reason !== null || callEndpoint === null}
          isPending={sending}
          onPress={() => void sendWhenSaved()}
        >
          <Send aria-hidden="true" size={18} />
          Send invoice
        </Button>
      </div>
    </InvoicePanel>
  );
}
