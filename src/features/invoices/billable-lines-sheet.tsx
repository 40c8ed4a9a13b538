/**
 * Adds what a project has to bill to a draft as lines: its milestones, each at its amount, or its
 * approved (or client-accepted) changes, each at its cost; one of each, no tax. One already on
 * another invoice that is not void says which, so billing it twice is a choice rather than an
 * accident; one in another currency than the invoice is left out, since its amount would be wrong
 * here.
 */
import { changeGoesAhead } from '#contract/entities/change-request.ts';
import { invoiceNumberText, type InvoiceLine } from '#contract/entities/invoice.ts';
import { formatMoney } from '#contract/entities/invoice-totals.ts';
import { useState } from 'react';
import { Checkbox, CheckboxGroup, Label } from 'react-aria-components';
import { useChangeRequests } from '../../data/change-request-queries.ts';
import { newInvoiceLine, useBilledSources, type LocalInvoice } from '../../data/invoices.ts';
import { useMilestones } from '../../data/project-work.ts';
import { Button } from '../../ui/button.tsx';
import { Sheet, SheetActions } from '../../ui/sheet.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { useSync } from '../workspace/sync-context.tsx';

export type BillableKind = 'milestones' | 'changes';

/** One thing the project can bill: what the line says, its amount, where it came from. */
interface Billable {
  id: string;
  title: string;
  amount: number;
  currency: string;
}

const words: Record<
  BillableKind,
  { title: string; loading: string; none: (currency: string) => string; group: string }
> = {
  milestones: {
    title: 'Add milestones',
    loading: 'Loading milestones…',
    none: (currency) =>
      `No milestone of this project has an amount in ${currency} that is not already on this invoice. Give a milestone an amount on the project’s Milestones tab first.`,
    group: 'Milestones to bill',
  },
  changes: {
    title: 'Add approved changes',
    loading: 'Loading change requests…',
    none: (currency) =>
      `No approved change of this project has a cost in ${currency} that is not already on this invoice.`,
    group: 'Changes to bill',
  },
};

function useBillables(
  kind: BillableKind,
  workspaceId: string,
  projectId: string,
): Billable[] | undefined {
  const { handle } = useSync();
  const milestones = useMilestones(handle.db, workspaceId, projectId);
  const requests = useChangeRequests(handle.db, workspaceId);
  if (kind === 'milestones') {
    return milestones?.flatMap((milestone) =>
      milestone.amount === null
        ? []
        : [
            {
              id: milestone.id,
              title: milestone.title,
              amount: milestone.amount,
              currency: milestone.currency,
            },
          ],
    );
  }
  return requests?.flatMap((request) =>
    request.projectId === projectId &&
    changeGoesAhead(request.status) &&
    (request.costImpact ?? 0) > 0
      ? [
          {
            id: request.id,
            title: request.title,
            amount: request.costImpact ?? 0,
            currency: request.currency,
          },
        ]
      : [],
  );
}

export function BillableLinesSheet({
  kind,
  invoice,
  projectId,
  onClose,
  onAdd,
}: {
  kind: BillableKind;
  invoice: LocalInvoice;
  projectId: string;
  onClose: () => void;
  onAdd: (lines: InvoiceLine[]) => Promise<void>;
}) {
  const { handle } = useSync();
  const billables = useBillables(kind, invoice.workspaceId, projectId);
  const billed = useBilledSources(handle.db, invoice.workspaceId);
  const [chosen, setChosen] = useState<string[]>([]);
  const [adding, setAdding] = useState(false);
  const said = words[kind];
  const sourceOf = (line: InvoiceLine) =>
    kind === 'milestones' ? line.milestoneId : line.changeRequestId;
  const onThis = new Set(invoice.lines.map(sourceOf).filter(Boolean));
  const candidates = (billables ?? []).filter(
    (billable) => billable.currency === invoice.currency && !onThis.has(billable.id),
  );
  const billedElsewhere = kind === 'milestones' ? billed?.milestones : billed?.changeRequests;

  return (
    <Sheet title={said.title} onClose={onClose}>
      {billables === undefined || billed === undefined ? (
        <p role="status" className="flex items-center gap-2 text-fg-muted">
          <Spinner size="small" />
          {said.loading}
        </p>
      ) : candidates.length === 0 ? (
        <>
          <p className="text-fg-muted">{said.none(invoice.currency)}</p>
          <SheetActions>
            <Button variant="secondary" onPress={onClose}>
              Close
            </Button>
          </SheetActions>
        </>
      ) : (
        <form
          className="flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            const lines = candidates
              .filter((billable) => chosen.includes(billable.id))
              .map((billable) =>
                newInvoiceLine({
                  description: billable.title,
                  unitPrice: billable.amount,
                  ...(kind === 'milestones'
                    ? { milestoneId: billable.id }
                    : { changeRequestId: billable.id }),
                }),
              );
            if (lines.length === 0) return;
            setAdding(true);
            void onAdd(lines).finally(() => setAdding(false));
          }}
        >
          <CheckboxGroup value={chosen} onChange={setChosen} className="flex flex-col gap-2">
            <Label className="text-sm font-medium text-fg">{said.group}</Label>
            {candidates.map((billable) => {
              const elsewhere = billedElsewhere?.get(billable.id);
              return (
                <Checkbox
                  key={billable.id}
                  value={billable.id}
                  className="group flex cursor-pointer items-start gap-3 rounded-xl border border-border p-3 data-[focus-visible]:ring-2 data-[focus-visible]:ring-ring data-[selected]:border-brand"
                >
                  <span
                    aria-hidden="true"
                    className="mt-0.5 grid size-5 shrink-0 place-items-center rounded border border-border-strong text-on-brand group-data-[selected]:border-brand group-data-[selected]:bg-brand"
                  >
                    ✓
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="flex justify-between gap-3 text-fg">
                      <span className="min-w-0 break-words">{billable.title}</span>
                      <span className="tabular-nums">
                        {formatMoney(billable.amount, billable.currency)}
                      </span>
                    </span>
                    {elsewhere && elsewhere.id !== invoice.id ? (
                      <span className="block text-sm text-fg-muted">
                        Already on {invoiceNumberText(elsewhere.number)}
                        {elsewhere.number === null ? ` (${elsewhere.title})` : ''}
                      </span>
                    ) : null}
                  </span>
                </Checkbox>
              );
            })}
          </CheckboxGroup>
          <SheetActions>
            <Button variant="secondary" onPress={onClose}>
              Cancel
            </Button>
            <Button type="submit" isDisabled={chosen.length === 0} isPending={adding}>
              Add {chosen.length === 0 ? '' : chosen.length}{' '}
              {chosen.length === 1 ? 'line' : 'lines'}
            </Button>
          </SheetActions>
        </form>
      )}
    </Sheet>
  );
}
