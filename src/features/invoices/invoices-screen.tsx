/**
 * /invoices: the workspace's invoices from the local database (instant, offline), with what is
 * outstanding, overdue and paid this month, filtered by state (URL state). "New invoice" (shortcut
 * n) drafts one for a client, offline too, and opens it. Rows show number, client, total, due date
 * and a state computed from the lines and payments (src/data/invoices.ts).
 */
import {
  formatMoney,
  invoiceStates,
  invoiceStateWords,
  type InvoiceState,
} from '#contract/entities/invoice-totals.ts';
import { useNavigate } from '@tanstack/react-router';
import { Plus, ReceiptText, SearchX } from 'lucide-react';
import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useClients } from '../../data/client-queries.ts';
import {
  invoiceWrites,
  localToday,
  moneyFigures,
  useInvoiceList,
  type InvoiceView,
} from '../../data/invoices.ts';
import { useProjects } from '../../data/project-queries.ts';
import { writeErrorFields, type WriteErrorFields } from '../../data/write-error-fields.ts';
import { Button } from '../../ui/button.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Sheet, SheetActions } from '../../ui/sheet.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { TextLink } from '../../ui/text-link.tsx';
import { useKeyShortcut } from '../../ui/use-key-shortcut.ts';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { useCallEndpoint, useOnline } from '../activity/activity-timeline.tsx';
import { useSync, useWriteContext } from '../workspace/sync-context.tsx';
import { useWorkspace, WorkspaceGate } from '../workspace/workspace-gate.tsx';
import { InvoiceList } from './invoice-list.tsx';
import type { InvoicesSearch } from './invoices-search.ts';
import { BusinessAddress, PaymentInstructions } from './payment-instructions.tsx';

export interface InvoicesScreenProps {
  search: InvoicesSearch;
  onSearchChange: (next: InvoicesSearch) => void;
}

const HEADING_ID = 'invoices-heading';

export function InvoicesScreen(props: InvoicesScreenProps) {
  usePageTitle('Invoices');
  return (
    <div>
      <PageHeading id={HEADING_ID}>Invoices</PageHeading>
      <p className="mt-2 max-w-prose text-fg-muted">
        Bill your clients for milestones, changes and anything else, and keep track of what was
        paid.
      </p>
      <div className="mt-6">
        <WorkspaceGate>
          <InvoicesContent {...props} />
        </WorkspaceGate>
      </div>
    </div>
  );
}

type StateFilter = 'all' | 'open' | InvoiceState;
const stateOptions: { id: StateFilter; label: string }[] = [
  { id: 'all', label: 'All invoices' },
  { id: 'open', label: 'Awaiting payment' },
  ...invoiceStates.map((id) => ({ id, label: invoiceStateWords[id] })),
];

function matchesState(view: InvoiceView, filter: StateFilter): boolean {
  if (filter === 'all') return true;
  if (filter === 'open') return view.due > 0;
  return view.state === filter;
}

function InvoicesContent({ search, onSearchChange }: InvoicesScreenProps) {
  const { handle } = useSync();
  const db = handle.db;
  const workspace = useWorkspace();
  const navigate = useNavigate();
  // The newest page first, then all (figures and state filters wait for all).
  const { views, complete } = useInvoiceList(db, workspace.id);
  const clients = useClients(db, workspace.id, { includeArchived: true });
  const [creating, setCreating] = useState(false);
  const callEndpoint = useCallEndpoint();
  const online = useOnline();
  const filter: StateFilter = search.state ?? 'all';
  useKeyShortcut('n', () => setCreating(true), !creating);

  const clientNames = useMemo(
    () => new Map((clients ?? []).map((client) => [client.id, client.name])),
    [clients],
  );
  const shown = useMemo(
    () =>
      filter === 'all' || complete
        ? views?.filter((view) => matchesState(view, filter))
        : undefined,
    [views, filter, complete],
  );
  const figures = useMemo(
    () => (views && complete ? moneyFigures(views, localToday()) : []),
    [views, complete],
  );

  let body: ReactNode;
  if (views === undefined || clients === undefined || shown === undefined) {
    body = (
      <div role="status" className="flex items-center justify-center gap-2 py-16 text-fg-muted">
        <Spinner size="small" />
        Loading invoices…
      </div>
    );
  } else if (views.length === 0) {
    body = (
      <EmptyState
        icon={
          <span className="grid size-14 place-items-center rounded-2xl bg-brand-soft text-brand">
            <ReceiptText aria-hidden="true" size={28} />
          </span>
        }
        title="No invoices yet"
        action={
          <Button onPress={() => setCreating(true)}>
            <Plus aria-hidden="true" size={18} />
            New invoice
          </Button>
        }
      >
        Draft an invoice from a project&apos;s milestones or line by line, even offline. When you
        send it, it gets its number and your client gets an email.
      </EmptyState>
    );
  } else if (shown?.length === 0) {
    body = (
      <EmptyState
        icon={<SearchX aria-hidden="true" size={28} className="text-fg-muted" />}
        title="No invoices match"
        action={
          <Button variant="secondary" onPress={() => onSearchChange({})}>
            Show all invoices
          </Button>
        }
      >
        No invoice is in this state right now.
      </EmptyState>
    );
  } else {
    body = <InvoiceList views={shown ?? []} clientNames={clientNames} locale={workspace.locale} />;
  }

  return (
    <>
      <div className="flex flex-col gap-5">
        {figures.length > 0 ? <MoneySummary figures={figures} /> : null}
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div hidden={views?.length === 0}>
            <SelectField
              label="Show"
              isLabelHidden
              options={stateOptions}
              value={filter}
              onChange={(value) => onSearchChange(value === 'all' ? {} : { state: value })}
              className="min-w-0 sm:w-56"
            />
          </div>
          <Button onPress={() => setCreating(true)} aria-keyshortcuts="n" className="sm:ml-auto">
            <Plus aria-hidden="true" size={18} />
            New invoice
          </Button>
        </div>
        {body}
        {views !== undefined && views.length > 0 ? (
          <div className="grid gap-4 lg:grid-cols-2">
            <PaymentInstructions
              callEndpoint={callEndpoint}
              workspaceId={workspace.id}
              online={online}
            />
            <BusinessAddress
              callEndpoint={callEndpoint}
              workspaceId={workspace.id}
              online={online}
            />
          </div>
        ) : null}
      </div>
      {creating ? (
        <NewInvoiceSheet
          onClose={() => setCreating(false)}
          onCreated={(id) => {
            setCreating(false);
            void navigate({ to: '/invoices/$invoiceId', params: { invoiceId: id } });
          }}
        />
      ) : null}
    </>
  );
}

type Figures = ReturnType<typeof moneyFigures>[number];
const summaryCards: readonly [string, (row: Figures) => number][] = [
  ['Outstanding', (row) => row.outstanding],
  ['Overdue', (row) => row.overdue],
  ['Paid this month', (row) => row.paidThisMonth],
];

/** Outstanding, overdue and paid this month, a line per currency billed in. */
export function MoneySummary({ figures }: { figures: readonly Figures[] }) {
  return (
    <section aria-label="Money" className="grid grid-cols-3 gap-2 sm:gap-3">
      {summaryCards.map(([label, value]) => (
        <div key={label} className="min-w-0 rounded-2xl border border-border bg-surface p-3 sm:p-4">
          <p className="text-xs font-medium text-fg-muted sm:text-sm">{label}</p>
          {figures.map((row) => (
            <p
              key={row.currency}
              className="mt-1 text-sm font-bold break-words tabular-nums text-fg sm:text-2xl"
            >
              {formatMoney(value(row), row.currency)}
            </p>
          ))}
        </div>
      ))}
    </section>
  );
}

function NewInvoiceSheet({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (id: string) => void;
}) {
  const { handle } = useSync();
  const ctx = useWriteContext();
  const workspace = useWorkspace();
  const clients = useClients(handle.db, workspace.id);
  const projects = useProjects(handle.db, workspace.id);
  const [clientId, setClientId] = useState('');
  const [projectId, setProjectId] = useState('none');
  const [errors, setErrors] = useState<WriteErrorFields>({});
  const [saving, setSaving] = useState(false);
  const chosen = clientId || clients?.[0]?.id || '';
  const clientProjects = (projects ?? []).filter((project) => project.clientId === chosen);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const client = clients?.find((candidate) => candidate.id === chosen);
    if (!client) {
      setErrors({ clientId: 'Choose a client' });
      return;
    }
    setSaving(true);
    try {
      const project = clientProjects.find((candidate) => candidate.id === projectId);
      const created = await invoiceWrites.create(ctx, {
        workspaceId: workspace.id,
        clientId: client.id,
        projectId: project?.id ?? null,
        title: project ? project.name : 'Invoice',
        currency: project?.currency ?? client.currency,
      });
      onCreated(created.id);
    } catch (error) {
      setErrors(writeErrorFields(error));
      setSaving(false);
    }
  };

  return (
    <Sheet title="New invoice" onClose={onClose}>
      {clients !== undefined && clients.length === 0 ? (
        <>
          <p className="text-fg-muted">
            An invoice is for a client. <TextLink href="/clients">Add a client</TextLink> first.
          </p>
          <SheetActions>
            <Button variant="secondary" onPress={onClose}>
              Close
            </Button>
          </SheetActions>
        </>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4">
          <SelectField
            label="Client"
            options={(clients ?? []).map((client) => ({ id: client.id, label: client.name }))}
            value={chosen}
            onChange={(value) => {
              setClientId(value);
              setProjectId('none');
            }}
            error={errors.clientId}
          />
          <SelectField
            label="Project"
            options={[
              { id: 'none', label: 'No project' },
              ...clientProjects.map((project) => ({ id: project.id, label: project.name })),
            ]}
            value={projectId}
            onChange={setProjectId}
            description="Bill a project to add its milestones as lines, and to show the invoice in its client portal."
            error={errors.projectId}
          />
          {errors.form ? (
            <p role="alert" className="text-sm font-medium text-danger">
              {errors.form}
            </p>
          ) : null}
          <SheetActions>
            <Button variant="secondary" onPress={onClose}>
              Cancel
            </Button>
            <Button type="submit" isPending={saving}>
              Create draft
            </Button>
          </SheetActions>
        </form>
      )}
    </Sheet>
  );
}
