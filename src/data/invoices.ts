/**
 * Invoices on the device (issue 16): reads for the invoices list, one invoice and the dashboard's
 * money figures, all from the local database (offline, live), and the writes a member makes
 * (draft, edit lines, record a payment, void, delete a draft) through the outbox. Sending is the
 * one call that needs the network (it numbers the invoice on the server): see `sendInvoice` in
 * the screens, which waits for this device's queued changes to the draft first.
 *
 * Invariant: an invoice's figures (total, paid, due, state) are computed here from its lines and
 * payments with contract/entities/invoice-totals.ts, never stored, so the list, the invoice, the
 * dashboard, the portal and the PDF cannot disagree.
 */
import { v7 as uuidV7 } from 'uuid';
import {
  invoiceEntity,
  invoicePaymentEntity,
  type InvoiceLine,
} from '#contract/entities/invoice.ts';
import {
  amountDue,
  amountPaid,
  invoiceState,
  invoiceTotals,
  type InvoiceState,
  type InvoiceTotals,
} from '#contract/entities/invoice-totals.ts';
import type { AppDatabase, LocalRow } from '../db/app-database.ts';
import { useLiveQuery } from '../db/live-query.ts';
import { entityWrites } from './entity-writes.ts';

export type LocalInvoice = LocalRow<'invoice'>;
export type LocalInvoicePayment = LocalRow<'invoice-payment'>;

export const invoiceWrites = entityWrites(invoiceEntity);
export const invoicePaymentWrites = entityWrites(invoicePaymentEntity);

/** An invoice with what its lines and payments come to. */
export interface InvoiceView {
  invoice: LocalInvoice;
  totals: InvoiceTotals;
  paid: number;
  due: number;
  state: InvoiceState;
  payments: LocalInvoicePayment[];
}

/** Today where the device is (YYYY-MM-DD), for overdue. */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export function viewInvoice(
  invoice: LocalInvoice,
  payments: LocalInvoicePayment[],
  today: string,
): InvoiceView {
  const totals = invoiceTotals(invoice.lines);
  const paid = amountPaid(payments);
  return {
    invoice,
    totals,
    paid,
    due: invoice.status === 'sent' ? amountDue(totals.total, paid) : 0,
    state: invoiceState({ ...invoice, total: totals.total, paid }, today),
    payments,
  };
}

/** Newest first, drafts (no number) with the rest by when they were made. */
function newestFirst(a: LocalInvoice, b: LocalInvoice): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function paymentsByInvoice(
  payments: readonly LocalInvoicePayment[],
): Map<string, LocalInvoicePayment[]> {
  const byInvoice = new Map<string, LocalInvoicePayment[]>();
  for (const payment of payments) {
    if (payment._deleted) continue;
    const list = byInvoice.get(payment.invoiceId);
    if (list) list.push(payment);
    else byInvoice.set(payment.invoiceId, [payment]);
  }
  return byInvoice;
}

export async function listInvoiceViews(
  db: AppDatabase,
  workspaceId: string,
  today: string = localToday(),
): Promise<InvoiceView[]> {
  const [invoices, payments] = await Promise.all([
    db.invoices.where('workspaceId').equals(workspaceId).toArray(),
    db.invoicePayments.where('workspaceId').equals(workspaceId).toArray(),
  ]);
  const byInvoice = paymentsByInvoice(payments);
  return invoices
    .filter((invoice) => !invoice._deleted)
    .sort(newestFirst)
    .map((invoice) => viewInvoice(invoice, byInvoice.get(invoice.id) ?? [], today));
}

export function useInvoiceViews(db: AppDatabase, workspaceId: string): InvoiceView[] | undefined {
  return useLiveQuery(() => listInvoiceViews(db, workspaceId), [db, workspaceId]);
}

/**
 * The newest `limit` invoices with their payments, read by the `[workspaceId+createdAt]` index:
 * the invoices list's first screen, which so does not wait for every invoice of the workspace
 * (IndexedDB answers one big read before the next: 5,000 invoices hold the first row back by a
 * few hundred ms). The same rows in the same order as listInvoiceViews' first ones, but for
 * invoices made in the same millisecond at the page's edge (the index breaks that tie by id
 * descending): the whole list replaces this page a moment later.
 */
export async function listNewestInvoiceViews(
  db: AppDatabase,
  workspaceId: string,
  limit: number,
  today: string = localToday(),
): Promise<InvoiceView[]> {
  const invoices = await db.invoices
    .where('[workspaceId+createdAt]')
    .between([workspaceId, ''], [workspaceId, '\uffff'], true, true)
    .reverse()
    .filter((invoice) => !invoice._deleted)
    .limit(limit)
    .toArray();
  const payments = await db.invoicePayments
    .where('invoiceId')
    .anyOf(invoices.map((invoice) => invoice.id))
    .toArray();
  const byInvoice = paymentsByInvoice(payments);
  return invoices
    .sort(newestFirst)
    .map((invoice) => viewInvoice(invoice, byInvoice.get(invoice.id) ?? [], today));
}

/** How many invoices the list's first screen reads before the rest (more than a tall screen shows). */
export const FIRST_INVOICES_PAGE = 40;

/**
 * The invoices list: the newest page at once, then every invoice (the money figures and the state
 * filters need them all). `complete` says which one `views` is.
 */
export function useInvoiceList(
  db: AppDatabase,
  workspaceId: string,
): { views: InvoiceView[] | undefined; complete: boolean } {
  const first = useLiveQuery(
    () => listNewestInvoiceViews(db, workspaceId, FIRST_INVOICES_PAGE),
    [db, workspaceId],
  );
  const firstLoaded = first !== undefined;
  // Started once the first page is in, so the big read never queues ahead of it.
  const all = useLiveQuery(
    () => (firstLoaded ? listInvoiceViews(db, workspaceId) : Promise.resolve(null)),
    [db, workspaceId, firstLoaded],
  );
  return all ? { views: all, complete: true } : { views: first, complete: false };
}

export async function readInvoiceView(
  db: AppDatabase,
  id: string,
  today: string = localToday(),
): Promise<InvoiceView | null> {
  const invoice = await db.invoices.get(id);
  if (!invoice || invoice._deleted) return null;
  const payments = (await db.invoicePayments.where('invoiceId').equals(id).toArray())
    .filter((payment) => !payment._deleted)
    .sort((a, b) =>
      a.paidOn === b.paidOn ? (a.createdAt < b.createdAt ? -1 : 1) : a.paidOn < b.paidOn ? -1 : 1,
    );
  return viewInvoice(invoice, payments, today);
}

export function useInvoiceView(db: AppDatabase, id: string): InvoiceView | null | undefined {
  return useLiveQuery(() => readInvoiceView(db, id), [db, id]);
}

/** The dashboard's money: per currency, since a workspace may bill in several. */
export interface MoneyFigures {
  currency: string;
  outstanding: number;
  overdue: number;
  paidThisMonth: number;
  overdueCount: number;
}

export function moneyFigures(views: readonly InvoiceView[], today: string): MoneyFigures[] {
  const month = today.slice(0, 7);
  const byCurrency = new Map<string, MoneyFigures>();
  const figures = (currency: string) => {
    let found = byCurrency.get(currency);
    if (!found) {
      found = { currency, outstanding: 0, overdue: 0, paidThisMonth: 0, overdueCount: 0 };
      byCurrency.set(currency, found);
    }
    return found;
  };
  for (const view of views) {
    const { invoice } = view;
    if (invoice.status !== 'sent') continue;
    const row = figures(invoice.currency);
    row.outstanding += view.due;
    if (view.state === 'overdue') {
      row.overdue += view.due;
      row.overdueCount += 1;
    }
    for (const payment of view.payments) {
      if (payment.paidOn.slice(0, 7) !== month) continue;
      row.paidThisMonth += payment.kind === 'refund' ? -payment.amount : payment.amount;
    }
  }
  return [...byCurrency.values()].sort((a, b) => b.outstanding - a.outstanding);
}

export function useMoneyFigures(db: AppDatabase, workspaceId: string): MoneyFigures[] | undefined {
  return useLiveQuery(async () => {
    const today = localToday();
    return moneyFigures(await listInvoiceViews(db, workspaceId, today), today);
  }, [db, workspaceId]);
}

/** A blank line (one of something, no tax, no discount). */
export function newInvoiceLine(overrides: Partial<InvoiceLine> = {}): InvoiceLine {
  return {
    id: uuidV7(),
    description: '',
    quantity: 1,
    unitPrice: 0,
    taxRate: 0,
    discountPercent: 0,
    milestoneId: null,
    changeRequestId: null,
    ...overrides,
  };
}

/**
 * Milestones and approved changes already on an invoice that is not void: billing one twice is
 * then a choice the screen points out, not an accident.
 */
export function billedSources(views: readonly InvoiceView[]): {
  milestones: Map<string, LocalInvoice>;
  changeRequests: Map<string, LocalInvoice>;
} {
  const milestones = new Map<string, LocalInvoice>();
  const changeRequests = new Map<string, LocalInvoice>();
  for (const { invoice } of views) {
    if (invoice.status === 'void') continue;
    for (const line of invoice.lines) {
      if (line.milestoneId) milestones.set(line.milestoneId, invoice);
      if (line.changeRequestId) changeRequests.set(line.changeRequestId, invoice);
    }
  }
  return { milestones, changeRequests };
}

export function useBilledSources(db: AppDatabase, workspaceId: string) {
  return useLiveQuery(
    async () => billedSources(await listInvoiceViews(db, workspaceId)),
    [db, workspaceId],
  );
}
