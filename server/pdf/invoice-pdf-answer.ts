/**
 * What both PDF calls answer (the member's `payment/get-invoice-pdf` and the portal's
 * `client-portal/get-invoice-pdf`): the invoice's document, built in the request's transaction
 * from its payments, its client and its workspace, then rendered after commit.
 */
import {
  invoiceBusiness,
  invoiceDocumentFromRows,
  type InvoiceDocument,
} from '#contract/entities/invoice-document.ts';
import type { InvoiceLine, PaymentTerms } from '#contract/entities/invoice.ts';
import type { FileAnswer } from '#contract/file-answer.ts';
import type { Queryable } from '../db/database.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';

type Row = Record<string, unknown>;

/** Today in a time zone (YYYY-MM-DD); UTC when the zone is unknown. */
export function todayInZone(timeZone: string | null): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone: timeZone ?? 'UTC' }).format(new Date());
  } catch {
    return new Date().toISOString().slice(0, 10);
  }
}

/**
 * The document of an invoice row (as entitySql's toRow gives it). `today`: the day its state is
 * judged on; null takes the workspace's own today.
 */
export async function loadInvoiceDocument(
  tx: Queryable,
  invoice: Row,
  today: string | null,
): Promise<InvoiceDocument> {
  const [{ rows: payments }, { rows: clients }, { rows: workspaces }] = await Promise.all([
    tx.query<{ kind: 'payment' | 'refund'; amount: string | number }>(
      'SELECT kind, amount FROM invoice_payment WHERE invoice_id = $1',
      [invoice.id],
    ),
    tx.query<{
      name: string;
      company: string | null;
      email: string | null;
      address: string | null;
    }>('SELECT name, company, email, address FROM client WHERE id = $1', [invoice.clientId]),
    tx.query<{
      name: string;
      logo_url: string | null;
      locale: string;
      time_zone: string;
      settings: Record<string, unknown> | null;
    }>('SELECT name, logo_url, locale, time_zone, settings FROM workspace WHERE id = $1', [
      invoice.workspaceId,
    ]),
  ]);
  const workspace = workspaces[0];
  return invoiceDocumentFromRows({
    invoice: {
      number: (invoice.number as number | null) ?? null,
      status: invoice.status as 'draft' | 'sent' | 'void',
      viewedAt: (invoice.viewedAt as string | null) ?? null,
      title: String(invoice.title),
      currency: String(invoice.currency),
      issueDate: (invoice.issueDate as string | null) ?? null,
      dueDate: (invoice.dueDate as string | null) ?? null,
      paymentTerms: (invoice.paymentTerms as PaymentTerms | null) ?? null,
      lines: invoice.lines as InvoiceLine[],
      notes: (invoice.notes as string | null) ?? null,
    },
    payments: payments.map((row) => ({ kind: row.kind, amount: Number(row.amount) })),
    client: clients[0] ?? null,
    business: invoiceBusiness({
      name: workspace?.name ?? '',
      logoUrl: workspace?.logo_url ?? null,
      locale: workspace?.locale ?? 'en-US',
      settings: workspace?.settings ?? {},
    }),
    today: today ?? todayInZone(workspace?.time_zone ?? null),
  });
}

export function invoicePdfAnswer(doc: InvoiceDocument): FileAnswer {
  return {
    fileName: doc.fileName,
    contentType: 'application/pdf',
    render: () => renderInvoicePdf(doc),
  };
}
