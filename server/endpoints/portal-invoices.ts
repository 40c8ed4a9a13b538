/**
 * A client's invoices in the portal and paying them by card (issue 16):
 * - `get-invoices` answers the client's sent and void invoices billed to the session's project
 *   or to no project (never drafts, never another client's), with what is due, and marks each
 *   sent one viewed the first time the client is shown it (recorded, so members see "Viewed");
 * - `pay-invoice` opens a Stripe Checkout for what is due now (never a cached amount), tagged
 *   `metadata.kind = 'invoice'` so its webhook comes back here; without Stripe it is a 503 and
 *   the portal shows the workspace's payment instructions instead;
 * - the webhook's 'invoice' handler re-reads the Checkout session from Stripe and, once paid,
 *   records one `stripe` payment per session (a partial unique index makes a retried or
 *   duplicated event a no-op), recorded in the change log, and notifies the members live;
 * - money Stripe took that is not owed (a second Checkout paid for the same invoice, a payment
 *   beside it, or the invoice voided meanwhile: judged under the invoice's row lock) is still
 *   recorded as charged, never dropped, with "refund" written on the payment and told to every
 *   member; the invoice's state stays derived (paid once, void stays void) and a refund recorded
 *   against it (allowed on a void invoice too) settles it.
 */
import type Stripe from 'stripe';
import {
  invoiceEntity,
  invoiceNumberText,
  invoicePaymentEntity,
  type InvoiceLine,
} from '#contract/entities/invoice.ts';
import {
  amountDue,
  amountPaid,
  formatMoney,
  invoiceState,
  invoiceTotals,
} from '#contract/entities/invoice-totals.ts';
import { portalPath } from '#contract/endpoints/client-portal.ts';
import type { PortalInvoice } from '#contract/endpoints/invoice.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import type { NotificationStore } from '../realtime/notification-store.ts';
import type { RealtimePublisher } from '../realtime/realtime-publisher.ts';
import type { StripeEventHandler } from '../stripe/stripe-event-handler.ts';
import { PAYMENTS_NOT_CONFIGURED, type StripeGateway } from '../stripe/stripe-gateway.ts';
import { createChangeRecorder } from '../sync/change-recorder.ts';
import { entitySql } from './entity-sql.ts';
import { workspacePlan } from './plan-limits.ts';
import { invoiceBusiness } from '#contract/entities/invoice-document.ts';
import { invoicePdfAnswer, loadInvoiceDocument } from '../pdf/invoice-pdf-answer.ts';

type Row = Record<string, unknown>;
const invoiceSql = entitySql(invoiceEntity as never);

export interface PortalInvoiceDeps {
  gateway: StripeGateway | null;
  /** Where the app is served: Checkout returns to its billing result pages. */
  publicUrl: string;
}

function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

async function paymentsOf(tx: Queryable, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, number>();
  const { rows } = await tx.query<{
    invoice_id: string;
    kind: 'payment' | 'refund';
    amount: string | number;
  }>('SELECT invoice_id, kind, amount FROM invoice_payment WHERE invoice_id = ANY($1::uuid[])', [
    ids,
  ]);
  const paid = new Map<string, number>();
  for (const row of rows) {
    const amount = amountPaid([{ kind: row.kind, amount: Number(row.amount) }]);
    paid.set(row.invoice_id, (paid.get(row.invoice_id) ?? 0) + amount);
  }
  return paid;
}

/** Whether the workspace's plan lets its clients pay by card (Free does not). */
async function takesCardPayments(tx: Queryable, workspaceId: string): Promise<boolean> {
  return (await workspacePlan(tx, workspaceId)).limits.cardPayments;
}

export function toPortalInvoice(
  row: Row,
  paid: number,
  payable: boolean,
  today: string,
): PortalInvoice {
  const lines = row.lines as InvoiceLine[];
  const total = invoiceTotals(lines).total;
  const due = row.status === 'sent' ? amountDue(total, paid) : 0;
  return {
    id: String(row.id),
    number: Number(row.number),
    title: String(row.title),
    currency: String(row.currency),
    issueDate: (row.issueDate as string | null) ?? null,
    dueDate: (row.dueDate as string | null) ?? null,
    lines: lines.map((line) => ({
      id: line.id,
      description: line.description,
      quantity: line.quantity,
      unitPrice: line.unitPrice,
      taxRate: line.taxRate,
      discountPercent: line.discountPercent,
    })),
    notes: (row.notes as string | null) ?? null,
    paymentTerms: (row.paymentTerms as PortalInvoice['paymentTerms']) ?? null,
    total,
    paid,
    due,
    state: invoiceState(
      {
        status: row.status as 'sent' | 'void',
        dueDate: (row.dueDate as string | null) ?? null,
        viewedAt: (row.viewedAt as string | null) ?? null,
        total,
        paid,
      },
      today,
    ),
    payable: payable && due > 0,
  };
}

export function createPortalInvoiceHandlers(
  deps: PortalInvoiceDeps,
): Pick<
  ResourceHandlers<'client-portal'>,
  'client-portal/get-invoices' | 'client-portal/pay-invoice' | 'client-portal/get-invoice-pdf'
> {
  return {
    async 'client-portal/get-invoice-pdf'({ query, portal, tx }) {
      const { rows } = await tx.query<Row>(
        `SELECT ${invoiceSql.select} FROM invoice
         WHERE id = $1 AND workspace_id = $2 AND client_id = $3 AND status <> 'draft'
           AND (project_id = $4 OR project_id IS NULL)`,
        [query.invoiceId, portal.workspaceId, portal.clientId, portal.projectId],
      );
      // Another client's invoice, another project's, a draft or an unknown id: one answer.
      if (!rows[0] || query.projectId !== portal.projectId) {
        throw new AppError(ErrorCode.NOT_FOUND, 'No such invoice in this portal.');
      }
      // Judged on the same day as the portal's list (UTC), so the PDF and the list agree.
      const doc = await loadInvoiceDocument(tx, invoiceSql.toRow(rows[0]), todayUtc());
      return invoicePdfAnswer(doc);
    },

    async 'client-portal/get-invoices'({ query, portal, tx, changes }) {
      if (query.projectId !== portal.projectId) {
        throw new AppError(ErrorCode.FORBIDDEN, 'This portal session opens another project.');
      }
      const { rows } = await tx.query<Row>(
        `SELECT ${invoiceSql.select} FROM invoice
         WHERE workspace_id = $1 AND client_id = $2 AND status <> 'draft'
           AND (project_id = $3 OR project_id IS NULL)
         ORDER BY number DESC`,
        [portal.workspaceId, portal.clientId, portal.projectId],
      );
      const invoices = rows.map((row) => invoiceSql.toRow(row));
      // First shown to the client: viewed (members see it; recorded like any change).
      const now = new Date().toISOString();
      for (const invoice of invoices) {
        if (invoice.status !== 'sent' || invoice.viewedAt !== null) continue;
        const seq = await changes.record({
          workspaceId: portal.workspaceId,
          table: invoiceEntity.table,
          entityId: String(invoice.id),
          op: 'upsert',
        });
        await tx.query(
          'UPDATE invoice SET viewed_at = $2, version = $3 WHERE id = $1 AND viewed_at IS NULL',
          [invoice.id, now, seq],
        );
        invoice.viewedAt = now;
      }
      const paid = await paymentsOf(
        tx,
        invoices.map((invoice) => String(invoice.id)),
      );
      const { rows: settings } = await tx.query<{
        settings: Record<string, unknown> | null;
        name: string;
        logo_url: string | null;
        locale: string;
      }>('SELECT settings, name, logo_url, locale FROM workspace WHERE id = $1', [
        portal.workspaceId,
      ]);
      const { rows: clients } = await tx.query<{
        name: string;
        company: string | null;
        email: string | null;
        address: string | null;
      }>('SELECT name, company, email, address FROM client WHERE id = $1', [portal.clientId]);
      const instructions = settings[0]?.settings?.paymentInstructions;
      const business = invoiceBusiness({
        name: settings[0]?.name ?? '',
        logoUrl: settings[0]?.logo_url ?? null,
        locale: settings[0]?.locale ?? 'en-US',
        settings: settings[0]?.settings ?? {},
      });
      const today = todayUtc();
      const takesCards = deps.gateway !== null && (await takesCardPayments(tx, portal.workspaceId));
      return {
        invoices: invoices.map((invoice) =>
          toPortalInvoice(invoice, paid.get(String(invoice.id)) ?? 0, takesCards, today),
        ),
        paymentInstructions:
          typeof instructions === 'string' && instructions.trim() !== ''
            ? instructions.trim()
            : null,
        business: {
          name: business.name,
          address: business.address,
          logoUrl: business.logoUrl,
          locale: business.locale,
        },
        billTo: clients[0] ?? null,
      };
    },

    async 'client-portal/pay-invoice'({ body, portal, tx, requestId }) {
      if (body.projectId !== portal.projectId) {
        throw new AppError(ErrorCode.FORBIDDEN, 'This portal session opens another project.');
      }
      const gateway = deps.gateway;
      if (!gateway) throw new AppError(ErrorCode.UNAVAILABLE, PAYMENTS_NOT_CONFIGURED);
      // Card payments are a paid plan's (the pricing page says so); the client cannot change the
      // plan, so the answer points them to the invoice's own instructions.
      if (!(await takesCardPayments(tx, portal.workspaceId))) {
        throw new AppError(
          ErrorCode.BUSINESS_RULE,
          'This workspace does not take card payments. Pay as the invoice says.',
          { details: { limit: 'cardPayments' } },
        );
      }
      const { rows } = await tx.query<Row>(
        `SELECT ${invoiceSql.select} FROM invoice
         WHERE id = $1 AND workspace_id = $2 AND client_id = $3 AND status <> 'draft'
           AND (project_id = $4 OR project_id IS NULL)`,
        [body.invoiceId, portal.workspaceId, portal.clientId, portal.projectId],
      );
      // Another client's invoice, a draft or an unknown id: the same answer, nothing to probe.
      if (!rows[0]) throw new AppError(ErrorCode.FORBIDDEN, 'This invoice is not in this portal.');
      const invoice = invoiceSql.toRow(rows[0]);
      if (invoice.status === 'void')
        throw new AppError(ErrorCode.CONFLICT, 'This invoice is void.');
      const paid = (await paymentsOf(tx, [String(invoice.id)])).get(String(invoice.id)) ?? 0;
      const due = amountDue(invoiceTotals(invoice.lines as never).total, paid);
      if (due <= 0) throw new AppError(ErrorCode.CONFLICT, 'This invoice is already paid.');
      const back = encodeURIComponent(portalPath(portal.clientId, portal.projectId));
      const number = invoiceNumberText(invoice.number as number);
      let session: Stripe.Checkout.Session;
      try {
        session = await gateway.stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: String(invoice.currency).toLowerCase(),
                  unit_amount: due,
                  product_data: { name: `Invoice ${number}: ${String(invoice.title)}` },
                },
              },
            ],
            metadata: {
              kind: 'invoice',
              invoiceId: String(invoice.id),
              workspaceId: portal.workspaceId,
            },
            payment_intent_data: { metadata: { kind: 'invoice', invoiceId: String(invoice.id) } },
            success_url: `${deps.publicUrl}/billing-success?back=${back}&session_id={CHECKOUT_SESSION_ID}`,
            cancel_url: `${deps.publicUrl}/billing-error?back=${back}`,
          },
          // A retried request (same request id) gets the same Checkout; a new amount due, a new one.
          { idempotencyKey: `invoice:${String(invoice.id)}:${due}:${requestId}` },
        );
      } catch {
        throw new AppError(
          ErrorCode.UNAVAILABLE,
          'The card payment page could not be opened. Try again in a moment.',
        );
      }
      if (!session.url) {
        throw new AppError(ErrorCode.UNAVAILABLE, 'The card payment page could not be opened.');
      }
      return { url: session.url };
    },
  };
}

export interface InvoiceEventDeps {
  notifications: Pick<NotificationStore, 'createNotification'>;
  publisher: Pick<RealtimePublisher, 'publishTablesInvalidated'>;
}

/** The webhook's 'invoice' kind: a Checkout a client finished in the portal. */
export function createInvoiceEventHandler(deps: InvoiceEventDeps): StripeEventHandler {
  return async (event, { gateway, db }) => {
    const object = event.data.object as { object?: string; id?: string };
    if (object.object !== 'checkout.session' || !object.id) return null;
    // The event is a trigger: what counts is the session as Stripe has it now.
    const session = await gateway.stripe.checkout.sessions.retrieve(object.id);
    const invoiceId = session.metadata?.invoiceId;
    if (session.payment_status !== 'paid' || !invoiceId || !session.amount_total) return null;
    const { rows } = await db.query<{
      workspace_id: string;
      project_id: string | null;
      client_id: string;
    }>('SELECT workspace_id, project_id, client_id FROM invoice WHERE id = $1', [invoiceId]);
    const found = rows[0];
    if (!found || found.workspace_id !== session.metadata?.workspaceId) return null;
    const amount = session.amount_total;
    const summary: Record<string, unknown> = { invoiceId, session: session.id, amount };
    const after: (() => Promise<void>)[] = [];
    return {
      summary,
      apply: async (tx) => {
        const { rows: locked } = await tx.query<Row>(
          `SELECT ${invoiceSql.select} FROM invoice WHERE id = $1 FOR UPDATE`,
          [invoiceId],
        );
        const invoice = locked[0] ? invoiceSql.toRow(locked[0]) : null;
        if (!invoice) return;
        const { rowCount } = await tx.query(
          'SELECT 1 FROM invoice_payment WHERE workspace_id = $1 AND external_id = $2',
          [found.workspace_id, session.id],
        );
        if (rowCount) {
          summary.outcome = 'already recorded';
          return;
        }
        // Judged under the row lock: a void, a manual payment or another Checkout for the same
        // invoice may have landed since this session was opened for what was then due.
        const total = invoiceTotals(invoice.lines as never).total;
        const paidBefore = (await paymentsOf(tx, [invoiceId])).get(invoiceId) ?? 0;
        const due = invoice.status === 'sent' ? amountDue(total, paidBefore) : 0;
        const currency = String(invoice.currency);
        const excess = Math.max(0, amount - due);
        const number = invoiceNumberText(invoice.number as number);
        // Stripe has taken the money, so it is recorded as it was charged (the record matches
        // Stripe's, to the cent), and what is owed back is said on it and to every member. The
        // invoice cannot turn paid twice or a void one paid: state is derived, void stays void,
        // and a refund recorded for the excess brings it back to exactly what was billed.
        const problem =
          invoice.status === 'void'
            ? {
                outcome: 'recorded on a void invoice',
                note: `arrived after ${number} was voided: refund it`,
                title: `paid ${formatMoney(amount, currency, 'en-US')} on ${number}, which is void`,
                body: `Refund ${formatMoney(amount, currency, 'en-US')} in Stripe, then record the refund on the invoice.`,
              }
            : excess > 0
              ? {
                  outcome: 'overpaid',
                  note: `overpaid by ${formatMoney(excess, currency, 'en-US')}: refund the excess`,
                  title: `paid ${formatMoney(excess, currency, 'en-US')} more than was due on ${number}`,
                  body: `Paid ${formatMoney(amount, currency, 'en-US')} by card, ${formatMoney(due, currency, 'en-US')} was due. Refund ${formatMoney(excess, currency, 'en-US')} in Stripe, then record the refund on the invoice.`,
                }
              : null;
        const changes = createChangeRecorder(tx);
        const paymentId = crypto.randomUUID();
        const seq = await changes.record({
          workspaceId: found.workspace_id,
          table: invoicePaymentEntity.table,
          entityId: paymentId,
          op: 'upsert',
        });
        const { rows: members } = await tx.query<{ user_id: string; role: string }>(
          'SELECT user_id, role FROM workspace_member WHERE workspace_id = $1 ORDER BY user_id',
          [found.workspace_id],
        );
        // Recorded as by the workspace's owner: a payment row names a member who wrote it.
        const by =
          members.find((member) => member.role === 'owner')?.user_id ?? members[0]?.user_id;
        if (!by) return;
        await tx.query(
          `INSERT INTO invoice_payment (id, workspace_id, invoice_id, kind, amount, method, paid_on,
             reference, external_id, created_by, updated_by, version)
           VALUES ($1, $2, $3, 'payment', $4, 'stripe', $5::date, $6, $7, $8, $8, $9)`,
          [
            paymentId,
            found.workspace_id,
            invoiceId,
            amount,
            todayUtc(),
            // Shown beside the payment on the invoice (at most 200 characters, as typed ones).
            `Card payment (${session.id})${problem ? ` ${problem.note}` : ''}`.slice(0, 200),
            session.id,
            by,
            seq,
          ],
        );
        summary.outcome = problem?.outcome ?? 'recorded';
        if (problem) Object.assign(summary, { due, excess });
        const { rows: clients } = await tx.query<{ name: string }>(
          'SELECT name FROM client WHERE id = $1',
          [found.client_id],
        );
        const who = clients[0]?.name ?? 'Your client';
        const paid = paidBefore + amount;
        for (const member of members) {
          await deps.notifications.createNotification(
            { tx, afterCommit: (effect) => void after.push(effect) },
            {
              userId: member.user_id,
              type: 'payment-recorded',
              title: problem
                ? `${who} ${problem.title}`
                : `${who} paid ${formatMoney(amount, currency, 'en-US')} on ${number}`,
              body:
                problem?.body ??
                (paid >= total
                  ? 'The invoice is paid in full.'
                  : `Still due: ${formatMoney(total - paid, currency, 'en-US')}`),
              link: `/invoices/${invoiceId}`,
              workspaceId: found.workspace_id,
              ...(found.project_id ? { projectId: found.project_id } : {}),
            },
          );
        }
        after.push(() =>
          deps.publisher.publishTablesInvalidated({
            workspaceId: found.workspace_id,
            tables: [invoicePaymentEntity.table],
            seq,
            originClientId: null,
          }),
        );
      },
      afterCommit: async () => {
        for (const effect of after) await effect();
      },
    };
  };
}
