/**
 * The invoices as a virtualized list: only the rows in view (plus a few) are in the DOM, so a
 * workspace with 5,000 invoices opens as fast as one with five (bench/invoice-benchmarks.ts).
 * The page itself scrolls (window virtualizer), as on the clients list; rows are measured, since
 * a row is one line wide and two on a phone. Tab moves from link to link: the browser scrolls the
 * focused row into view and the rows after it are rendered as it goes.
 */
import { invoiceNumberText } from '#contract/entities/invoice.ts';
import { formatMoney } from '#contract/entities/invoice-totals.ts';
import { formatInvoiceDate } from '#contract/entities/invoice-document.ts';
import { Link } from '@tanstack/react-router';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef, useState } from 'react';
import type { InvoiceView } from '../../data/invoices.ts';
import { InvoiceStateBadge } from './invoice-state-badge.tsx';

const ROW_ESTIMATE = 76;
const GAP = 8;

export function InvoiceList({
  views,
  clientNames,
  locale,
}: {
  views: readonly InvoiceView[];
  clientNames: ReadonlyMap<string, string>;
  /** The workspace's: a due date reads as on the invoice itself. */
  locale: string;
}) {
  const listRef = useRef<HTMLUListElement>(null);
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    setOffset(listRef.current?.offsetTop ?? 0);
  }, []);
  const virtualizer = useWindowVirtualizer({
    count: views.length,
    estimateSize: () => ROW_ESTIMATE,
    gap: GAP,
    overscan: 8,
    scrollMargin: offset,
    getItemKey: (index) => views[index]?.invoice.id ?? index,
  });
  return (
    <ul
      ref={listRef}
      aria-label="Invoices"
      className="relative"
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().map((item) => {
        const view = views[item.index];
        if (!view) return null;
        return (
          <InvoiceRow
            key={item.key}
            index={item.index}
            setSize={views.length}
            measure={virtualizer.measureElement}
            top={item.start - virtualizer.options.scrollMargin}
            view={view}
            clientName={clientNames.get(view.invoice.clientId) ?? 'A client not on this device'}
            locale={locale}
          />
        );
      })}
    </ul>
  );
}

function InvoiceRow({
  view,
  clientName,
  index,
  setSize,
  measure,
  top,
  locale,
}: {
  view: InvoiceView;
  clientName: string;
  locale: string;
  index: number;
  setSize: number;
  measure: (element: Element | null) => void;
  top: number;
}) {
  const { invoice, totals } = view;
  return (
    <li
      ref={measure}
      data-index={index}
      aria-setsize={setSize}
      aria-posinset={index + 1}
      className="absolute inset-x-0 top-0 rounded-2xl border border-border bg-surface transition-colors hover:border-border-strong"
      style={{ transform: `translateY(${top}px)` }}
    >
      <Link
        to="/invoices/$invoiceId"
        params={{ invoiceId: invoice.id }}
        className="grid grid-cols-[1fr_auto] items-center gap-x-4 gap-y-1 rounded-2xl p-4 outline-none focus-visible:ring-2 focus-visible:ring-ring sm:grid-cols-[8rem_1fr_auto_auto]"
      >
        <span className="font-semibold text-fg tabular-nums">
          {invoiceNumberText(invoice.number)}
        </span>
        <span className="text-right font-semibold tabular-nums text-fg sm:order-3">
          {formatMoney(totals.total, invoice.currency)}
        </span>
        <span className="min-w-0 text-sm text-fg-muted sm:order-2">
          <span className="block truncate text-fg">{clientName}</span>
          <span className="block truncate">{invoice.title}</span>
        </span>
        <span className="flex items-center justify-end gap-2 text-sm text-fg-muted sm:order-4">
          {invoice.dueDate && view.due > 0 ? (
            <span>Due {formatInvoiceDate(invoice.dueDate, locale)}</span>
          ) : null}
          <InvoiceStateBadge state={view.state} />
        </span>
      </Link>
    </li>
  );
}
