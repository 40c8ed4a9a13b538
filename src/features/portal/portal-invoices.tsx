/**
 * The portal's "Invoices" section: the client's invoices for this project, what each comes to and
 * what is still due, and Pay by card when the workspace takes cards (Stripe Checkout, a page of
 * Stripe's; paying needs the network and is never queued). Without card payments, the workspace's
 * payment instructions say how to pay. Read when the page loads and again when the browser is
 * back online. Each answer is kept on the device with the rest of the project's copy
 * (portal-snapshot.ts): it is all the list and each invoice's document are built from, so offline,
 * or read from the gate's saved copy, the client sees their invoices as of that time, with Pay and
 * the PDF there but off, and the reason said.
 */
import type { CallEndpoint, EndpointOutput } from '#contract/define-endpoint.ts';
import { invoiceNumberText } from '#contract/entities/invoice.ts';
import { invoiceDocument, type InvoiceDocument } from '#contract/entities/invoice-document.ts';
import { formatMoney, invoiceStateWords } from '#contract/entities/invoice-totals.ts';
import {
  getPortalInvoicePdf,
  getPortalInvoices,
  payPortalInvoice,
  type PortalInvoice,
} from '#contract/endpoints/invoice.ts';
import { CloudOff, CreditCard } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { Button } from '../../ui/button.tsx';
import { downloadFile } from '../invoices/download-file.ts';
import {
  InvoiceDocumentLines,
  InvoiceDocumentTotals,
  InvoiceParties,
  InvoicePdfActions,
} from '../invoices/invoice-document-view.tsx';
import { formatFileDateTime } from '../files/file-format.ts';
import { formatDate } from '../milestones/milestone-format.ts';
import { portalActionFailure } from './portal-action-result.ts';
import { readPortalSavedPart, writePortalSavedPart } from './portal-saved-parts.ts';

type Loaded = EndpointOutput<typeof getPortalInvoices>;

/** The invoice as the member's page and the PDF show it (contract/entities/invoice-document.ts). */
function documentOf(invoice: PortalInvoice, loaded: Loaded): InvoiceDocument {
  return invoiceDocument({
    invoice: { ...invoice, paymentTerms: invoice.paymentTerms ?? null },
    state: invoice.state,
    paid: invoice.paid,
    client: loaded.billTo ?? null,
    business: {
      name: loaded.business?.name ?? '',
      address: loaded.business?.address ?? null,
      logoUrl: loaded.business?.logoUrl ?? null,
      locale: loaded.business?.locale ?? 'en-US',
      paymentInstructions: null,
    },
  });
}

/** Saves the invoice's PDF (the portal cookie goes with a same-origin fetch). */
function downloadPdf(projectId: string, doc: InvoiceDocument, invoiceId: string) {
  const params = new URLSearchParams({
    endpoint: getPortalInvoicePdf.operation,
    projectId,
    invoiceId,
  });
  return downloadFile(
    `/api/${getPortalInvoicePdf.resource}?${params.toString()}`,
    { credentials: 'same-origin' },
    doc.fileName,
  );
}

const OFFLINE_NOTE_ID = 'portal-invoices-offline';

export function PortalInvoices({
  callEndpoint,
  projectId,
  offline,
  storage = globalThis.localStorage,
  now = Date.now,
  go = (url) => window.location.assign(url),
}: {
  callEndpoint: CallEndpoint;
  projectId: string;
  offline: boolean;
  /** Where the invoices' part of the project's saved copy is kept (localStorage). */
  storage?: Storage | undefined;
  now?: () => number;
  /** Opens Stripe's page (a test records it instead). */
  go?: (url: string) => void;
}) {
  const [saved] = useState(() => readPortalSavedPart(storage, projectId, 'invoices'));
  const [loaded, setLoaded] = useState<Loaded | null>(saved?.answer ?? null);
  const [savedAt, setSavedAt] = useState(saved?.savedAt ?? null);
  const [failed, setFailed] = useState(false);
  const [paying, setPaying] = useState<string | null>(null);
  const [payError, setPayError] = useState<{ id: string; message: string } | null>(null);

  const load = useCallback(async () => {
    try {
      const answer = await callEndpoint(getPortalInvoices, { query: { projectId } });
      const at = now();
      writePortalSavedPart(storage, projectId, 'invoices', { savedAt: at, answer });
      setLoaded(answer);
      setSavedAt(at);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, [callEndpoint, now, projectId, storage]);

  useEffect(() => {
    if (!offline) void load();
  }, [load, offline]);

  const pay = async (invoice: PortalInvoice) => {
    setPaying(invoice.id);
    setPayError(null);
    try {
      const { url } = await callEndpoint(payPortalInvoice, {
        query: {},
        body: { projectId, invoiceId: invoice.id },
      });
      go(url);
    } catch (error) {
      const failure = portalActionFailure(error, 'You are offline: paying needs a connection.');
      setPayError({ id: invoice.id, message: failure.ok ? '' : failure.message });
      setPaying(null);
    }
  };

  const docs = new Map(
    loaded ? loaded.invoices.map((invoice) => [invoice.id, documentOf(invoice, loaded)]) : [],
  );

  // Nothing billed to this project yet: no section (most projects, most of the time).
  if (loaded && loaded.invoices.length === 0) return null;
  if (!loaded && !failed) return null;

  return (
    <section aria-labelledby="portal-invoices" className="flex flex-col gap-3">
      <h2 id="portal-invoices" className="text-xl font-semibold text-fg">
        Invoices
      </h2>
      {failed && !offline ? (
        <p role="status" className="text-sm text-fg-muted">
          {loaded
            ? 'Invoices could not be refreshed just now; showing the ones you saw last.'
            : 'Your invoices could not be loaded just now.'}
        </p>
      ) : null}
      {offline && loaded ? (
        <p id={OFFLINE_NOTE_ID} className="flex items-start gap-2 text-sm text-fg-muted">
          <CloudOff aria-hidden="true" size={16} className="mt-0.5 shrink-0" />
          <span>
            You are offline: paying needs a connection, and so does the PDF.
            {savedAt === null
              ? ''
              : ` These are your invoices as saved on this device, as of ${formatFileDateTime(new Date(savedAt).toISOString())}.`}
          </span>
        </p>
      ) : null}
      <ul className="flex flex-col gap-3">
        {(loaded?.invoices ?? []).map((invoice) => (
          <li
            key={invoice.id}
            className="flex flex-col gap-3 rounded-2xl border border-border bg-surface p-4 sm:p-5"
          >
            <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
              <h3 className="font-semibold text-fg">
                {invoiceNumberText(invoice.number)} · {invoice.title}
              </h3>
              <p className="font-semibold tabular-nums text-fg">
                {formatMoney(invoice.total, invoice.currency)}
              </p>
            </div>
            <p className="text-sm text-fg-muted">
              {invoiceStateWords[invoice.state]}
              {invoice.issueDate ? ` · Issued ${formatDate(invoice.issueDate)}` : ''}
              {invoice.dueDate && invoice.due > 0 ? ` · Due ${formatDate(invoice.dueDate)}` : ''}
            </p>
            <details className="text-sm">
              <summary className="cursor-pointer font-medium text-brand">
                {invoice.lines.length} {invoice.lines.length === 1 ? 'line' : 'lines'}
              </summary>
              <div className="mt-3 flex flex-col gap-3">
                <InvoiceParties doc={docs.get(invoice.id)!} />
                <InvoiceDocumentLines doc={docs.get(invoice.id)!} />
                <InvoiceDocumentTotals doc={docs.get(invoice.id)!} />
                {invoice.notes ? (
                  <p className="whitespace-pre-line text-fg-muted">{invoice.notes}</p>
                ) : null}
              </div>
            </details>
            <InvoicePdfActions
              online={!offline}
              onDownload={() => downloadPdf(projectId, docs.get(invoice.id)!, invoice.id)}
            />
            {invoice.due > 0 ? (
              <div className="flex flex-wrap items-center justify-between gap-3">
                <p className="text-sm text-fg">
                  Due:{' '}
                  <strong className="tabular-nums">
                    {formatMoney(invoice.due, invoice.currency)}
                  </strong>
                </p>
                {invoice.payable ? (
                  <Button
                    isDisabled={offline}
                    // Disabled offline: the line above says why.
                    {...(offline ? { 'aria-describedby': OFFLINE_NOTE_ID } : {})}
                    isPending={paying === invoice.id}
                    onPress={() => void pay(invoice)}
                  >
                    <CreditCard aria-hidden="true" size={18} />
                    Pay {formatMoney(invoice.due, invoice.currency)} by card
                  </Button>
                ) : null}
              </div>
            ) : null}
            {payError?.id === invoice.id ? (
              <p role="alert" className="text-sm font-medium text-danger">
                {payError.message}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
      {loaded?.invoices.some((invoice) => invoice.due > 0 && !invoice.payable) ? (
        <div className="rounded-2xl border border-border bg-surface-muted p-4 text-sm">
          <p className="font-semibold text-fg">How to pay</p>
          {/* No card payment and no instructions: the client is told whom to ask, not left
              with an amount due and no way to settle it. */}
          <p className="mt-1 whitespace-pre-line text-fg">
            {loaded.paymentInstructions ??
              `Ask ${loaded.business?.name || 'the team'} how to pay: they have not added payment details here yet.`}
          </p>
        </div>
      ) : null}
    </section>
  );
}
