/**
 * The parts of an invoice document (contract/entities/invoice-document.ts) as the web shows
 * them: who it is from and to, its dates, its lines and its totals. The member's invoice screen
 * and the client's portal render these from the same view model the PDF is laid out from, so the
 * screen, the print-out and the PDF say the same things.
 */
import type { InvoiceDocument } from '#contract/entities/invoice-document.ts';
import { Download, Printer } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../ui/button.tsx';
import { OFFLINE_DOWNLOAD } from './download-file.ts';

export function InvoiceParties({ doc }: { doc: InvoiceDocument }) {
  return (
    <div className="grid gap-4 text-sm sm:grid-cols-3">
      <div>
        <p className="text-xs font-medium tracking-wide text-fg-muted uppercase">From</p>
        {doc.from.logoUrl ? (
          <img src={doc.from.logoUrl} alt="" className="my-1 max-h-12 max-w-40 object-contain" />
        ) : null}
        <p className="font-semibold text-fg">{doc.from.name}</p>
        {doc.from.addressLines.map((line, index) => (
          <p key={index} className="text-fg-muted">
            {line}
          </p>
        ))}
      </div>
      <div>
        {doc.billTo ? (
          <>
            <p className="text-xs font-medium tracking-wide text-fg-muted uppercase">Bill to</p>
            <p className="font-semibold text-fg">{doc.billTo.name}</p>
            {doc.billTo.lines.map((line, index) => (
              <p key={index} className="break-words text-fg-muted">
                {line}
              </p>
            ))}
          </>
        ) : null}
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 self-start sm:justify-self-end">
        {doc.dates.map((date) => (
          <div key={date.label} className="contents">
            <dt className="text-fg-muted">{date.label}</dt>
            <dd className="text-fg tabular-nums">{date.value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

export function InvoiceDocumentLines({ doc }: { doc: InvoiceDocument }) {
  return (
    <table className="w-full text-sm">
      <thead>
        <tr className="text-left text-fg-muted">
          <th scope="col" className="py-2 font-medium">
            Description
          </th>
          <th scope="col" className="py-2 text-right font-medium">
            Qty
          </th>
          <th
            scope="col"
            className="hidden py-2 text-right font-medium sm:table-cell print:table-cell"
          >
            Price
          </th>
          <th
            scope="col"
            className="hidden py-2 text-right font-medium sm:table-cell print:table-cell"
          >
            Tax
          </th>
          <th scope="col" className="py-2 text-right font-medium">
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {doc.lines.map((line) => (
          <tr key={line.id} className="border-t border-border align-top">
            <td className="py-2 pr-2 break-words text-fg">
              {line.description}
              {line.discountNote ? (
                <span className="block text-fg-muted">{line.discountNote}</span>
              ) : null}
            </td>
            <td className="py-2 text-right tabular-nums">{line.quantity}</td>
            <td className="hidden py-2 text-right tabular-nums sm:table-cell print:table-cell">
              {line.unitPrice}
            </td>
            <td className="hidden py-2 text-right tabular-nums sm:table-cell print:table-cell">
              {line.taxRate}
            </td>
            <td className="py-2 pl-2 text-right whitespace-nowrap tabular-nums">{line.amount}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function InvoiceDocumentTotals({ doc }: { doc: InvoiceDocument }) {
  return (
    <dl className="mt-2 ml-auto grid max-w-xs grid-cols-[1fr_auto] gap-x-6 gap-y-1 text-sm">
      {doc.totals.map((row) => (
        <div key={row.label} className="contents">
          <dt
            className={
              row.strong ? 'border-t border-border pt-1 font-semibold text-fg' : 'text-fg-muted'
            }
          >
            {row.label}
          </dt>
          <dd
            className={`text-right tabular-nums ${
              row.strong ? 'border-t border-border pt-1 font-semibold text-fg' : ''
            }`}
          >
            {row.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Download PDF (made on the server, so online only: offline it says so) and, on the member's
 * screen, Print (the browser's, offline too, with the print stylesheet of src/ui/styles.css).
 */
export function InvoicePdfActions({
  online,
  onDownload,
  print = false,
}: {
  online: boolean;
  onDownload: () => Promise<void>;
  print?: boolean;
}) {
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const download = async () => {
    setFailure(null);
    setPending(true);
    try {
      await onDownload();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : OFFLINE_DOWNLOAD);
    } finally {
      setPending(false);
    }
  };
  return (
    <div data-print-hide className="flex flex-col gap-1">
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          isDisabled={!online}
          isPending={pending}
          onPress={() => void download()}
        >
          <Download aria-hidden="true" size={18} />
          Download PDF
        </Button>
        {print ? (
          <Button variant="secondary" onPress={() => window.print()}>
            <Printer aria-hidden="true" size={18} />
            Print
          </Button>
        ) : null}
      </div>
      {!online ? (
        <p className="text-sm text-fg-muted">
          {print
            ? 'The PDF needs a connection; Print works offline.'
            : 'The PDF needs a connection.'}
        </p>
      ) : null}
      {failure ? (
        <p role="alert" className="text-sm font-medium text-danger">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
