import { formatMoney } from '#contract/entities/invoice-totals.ts';
import { Link } from '@tanstack/react-router';
import { ReceiptText } from 'lucide-react';
import { useId } from 'react';
import { useMoneyFigures } from '../../data/invoices.ts';
import { useSync } from '../workspace/sync-context.tsx';

/**
 * The dashboard's money, from the invoices on this device (offline too): what clients owe, how
 * much of it is late, and what came in this month, a row per currency billed in.
 */
export function DashboardMoney({ workspaceId }: { workspaceId: string }) {
  const { handle } = useSync();
  const figures = useMoneyFigures(handle.db, workspaceId);
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="min-w-0 rounded-2xl border border-border bg-surface p-5"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 id={headingId} className="flex items-center gap-2 font-semibold text-fg">
          <ReceiptText aria-hidden="true" size={18} />
          Money
        </h2>
        <Link to="/invoices" className="text-sm font-medium text-brand hover:underline">
          All invoices
        </Link>
      </div>
      {figures === undefined ? (
        <p className="mt-3 text-sm text-fg-muted">Loading…</p>
      ) : figures.length === 0 ? (
        <p className="mt-3 text-sm text-fg-muted">
          No invoices sent yet. Draft one from Invoices, from a project&apos;s milestones or line by
          line.
        </p>
      ) : (
        <table className="mt-3 w-full text-sm">
          <thead>
            <tr className="text-left text-fg-muted">
              <th scope="col" className="pb-1 font-medium">
                Outstanding
              </th>
              <th scope="col" className="pb-1 font-medium">
                Overdue
              </th>
              <th scope="col" className="pb-1 font-medium">
                Paid this month
              </th>
            </tr>
          </thead>
          <tbody>
            {figures.map((row) => (
              <tr key={row.currency} className="text-base font-semibold tabular-nums text-fg">
                <td className="py-1 pr-2">{formatMoney(row.outstanding, row.currency)}</td>
                <td className="py-1 pr-2">
                  {row.overdueCount > 0 ? (
                    <Link
                      to="/invoices"
                      search={{ state: 'overdue' }}
                      className="text-danger hover:underline"
                    >
                      {formatMoney(row.overdue, row.currency)}
                    </Link>
                  ) : (
                    formatMoney(row.overdue, row.currency)
                  )}
                </td>
                <td className="py-1">{formatMoney(row.paidThisMonth, row.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
