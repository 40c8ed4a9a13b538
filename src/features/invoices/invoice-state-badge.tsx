import { invoiceStateWords, type InvoiceState } from '#contract/entities/invoice-totals.ts';

const tone: Record<InvoiceState, string> = {
  draft: 'bg-surface-muted text-fg-muted',
  sent: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
  viewed: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
  partly_paid: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  paid: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  overdue: 'bg-rose-100 text-rose-900 dark:bg-rose-950 dark:text-rose-200',
  void: 'bg-surface-muted text-fg-muted line-through',
};

/** An invoice's state in words, coloured by what it asks of the member. */
export function InvoiceStateBadge({ state }: { state: InvoiceState }) {
  return (
    <span
      className={`inline-flex shrink-0 items-center rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${tone[state]}`}
    >
      {invoiceStateWords[state]}
    </span>
  );
}
