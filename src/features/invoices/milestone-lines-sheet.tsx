/**
 * Adds a project's milestones to a draft as lines, each at its amount (one of it, no tax). A
 * milestone already on another invoice that is not void says which, so billing it twice is a
 * choice rather than an accident; one in another currency than the invoice is left out, since its
 * amount would be wrong here.
 */
import { invoiceNumberText, type InvoiceLine } from '#contract/entities/invoice.ts';
import { formatMoney } from '#contract/entities/invoice-totals.ts';
import { useState } from 'react';
import { Checkbox, CheckboxGroup, Label } from 'react-aria-components';
import { newInvoiceLine, useBilledSources, type LocalInvoice } from '../../data/invoices.ts';
import { useMilestones } from '../../data/project-work.ts';
import { Button } from '../../ui/button.tsx';
import { Sheet, SheetActions } from '../../ui/sheet.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { useSync } from '../workspace/sync-context.tsx';

export function MilestoneLinesSheet({
  invoice,
  projectId,
  onClose,
  onAdd,
}: {
  invoice: LocalInvoice;
  projectId: string;
  onClose: () => void;
  onAdd: (lines: InvoiceLine[]) => Promise<void>;
}) {
  const { handle } = useSync();
  const milestones = useMilestones(handle.db, invoice.workspaceId, projectId);
  const billed = useBilledSources(handle.db, invoice.workspaceId);
  const [chosen, setChosen] = useState<string[]>([]);
  const [adding, setAdding] = useState(false);
  const onThis = new Set(invoice.lines.map((line) => line.milestoneId).filter(Boolean));
  const candidates = (milestones ?? []).filter(
    (milestone) =>
      milestone.amount !== null &&
      milestone.currency === invoice.currency &&
      !onThis.has(milestone.id),
  );

  return (
    <Sheet title="Add milestones" onClose={onClose}>
      {milestones === undefined || billed === undefined ? (
        <p role="status" className="flex items-center gap-2 text-fg-muted">
          <Spinner size="small" />
          Loading milestones…
        </p>
      ) : candidates.length === 0 ? (
        <>
          <p className="text-fg-muted">
            No milestone of this project has an amount in {invoice.currency} that is not already on
            this invoice. Give a milestone an amount on the project&apos;s Milestones tab first.
          </p>
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
              .filter((milestone) => chosen.includes(milestone.id))
              .map((milestone) =>
                newInvoiceLine({
                  description: milestone.title,
                  unitPrice: milestone.amount ?? 0,
                  milestoneId: milestone.id,
                }),
              );
            if (lines.length === 0) return;
            setAdding(true);
            void onAdd(lines).finally(() => setAdding(false));
          }}
        >
          <CheckboxGroup value={chosen} onChange={setChosen} className="flex flex-col gap-2">
            <Label className="text-sm font-medium text-fg">Milestones to bill</Label>
            {candidates.map((milestone) => {
              const elsewhere = billed.milestones.get(milestone.id);
              return (
                <Checkbox
                  key={milestone.id}
                  value={milestone.id}
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
                      <span className="min-w-0 break-words">{milestone.title}</span>
                      <span className="tabular-nums">
                        {formatMoney(milestone.amount ?? 0, milestone.currency)}
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
