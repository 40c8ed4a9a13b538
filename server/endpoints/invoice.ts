/**
 * Invoice rules beside the derived CRUD of resource `payment` (contract/entities/invoice.ts):
 * - a draft's project is one of its client's, and its lines' milestones and change requests are
 *   the workspace's (422 naming the entry);
 * - a sent invoice is fixed: nothing but voiding changes it, and only a draft is deleted (a sent
 *   one is a record with a number: voided, never removed), each a 422 saying what to do instead;
 * - `send-invoice` numbers a draft in the sending transaction (invoice_counter's row lock orders
 *   concurrent sends; a rollback returns the number), dates it and mails the client after commit;
 * - a payment is for a sent invoice and no more than is due; a refund no more than was paid (on a
 *   void invoice too: a card payment may reach one, portal-invoices.ts); the invoice row is
 *   locked while they are counted, so two devices' payments cannot both take the last amount due.
 */
import {
  invoiceEntity,
  termsDays,
  addDays,
  type PaymentTerms,
} from '#contract/entities/invoice.ts';
import { amountPaid, invoiceTotals, formatMoney } from '#contract/entities/invoice-totals.ts';
import { invoiceNumberText } from '#contract/entities/invoice.ts';
import { portalPath } from '#contract/endpoints/client-portal.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { EntityHooks } from './entity-handlers.ts';
import { entitySql } from './entity-sql.ts';
import { unlinkFromProjects } from './calendar-event.ts';
import { requireWorkspaceRole } from './workspace-access.ts';
import { invoicePdfAnswer, loadInvoiceDocument } from '../pdf/invoice-pdf-answer.ts';

type Row = Record<string, unknown>;

export interface InvoiceDeps {
  mailer: Mailer;
  /** Where the app is served, for the portal link; null: the mail carries the figures only. */
  publicUrl: string | null;
}

const NO_SUCH_INVOICE = 'No such invoice.';
const SENT_IS_FIXED = 'A sent invoice cannot be changed: void it and issue a new one.';

function businessRule(message: string, path: string, detail: string): AppError {
  return new AppError(ErrorCode.BUSINESS_RULE, message, { details: [{ path, message: detail }] });
}

async function requireClientProject(
  tx: Queryable,
  projectId: unknown,
  clientId: unknown,
  workspaceId: unknown,
) {
  if (typeof projectId !== 'string') return;
  const { rowCount } = await tx.query(
    'SELECT 1 FROM project WHERE id = $1 AND client_id = $2 AND workspace_id = $3',
    [projectId, clientId, workspaceId],
  );
  if (rowCount === 0) {
    throw businessRule(
      "Bill a project of this invoice's client.",
      'body.projectId',
      "Not one of this client's projects",
    );
  }
}

/** Lines that name a milestone or change request name ones of this workspace. */
async function requireLineSources(tx: Queryable, lines: unknown, workspaceId: unknown) {
  if (!Array.isArray(lines)) return;
  for (const [table, key] of [
    ['milestone', 'milestoneId'],
    ['change_request', 'changeRequestId'],
  ] as const) {
    const ids = [
      ...new Set(
        lines.map((line: Row) => line[key]).filter((id): id is string => typeof id === 'string'),
      ),
    ];
    if (ids.length === 0) continue;
    const { rows } = await tx.query<{ id: string }>(
      `SELECT id FROM ${table} WHERE id = ANY($1::uuid[]) AND workspace_id = $2`,
      [ids, workspaceId],
    );
    const found = new Set(rows.map((row) => row.id));
    const index = lines.findIndex(
      (line: Row) => typeof line[key] === 'string' && !found.has(line[key]),
    );
    if (index >= 0) {
      throw businessRule(
        'A line comes from something that is not in this workspace.',
        `body.lines.${index}.${key}`,
        'Unknown in this workspace',
      );
    }
  }
}

/** The sum of an invoice's payments less its refunds, read under the invoice's row lock. */
async function paidOn(tx: Queryable, invoiceId: string): Promise<number> {
  const { rows } = await tx.query<{ kind: 'payment' | 'refund'; amount: string | number }>(
    'SELECT kind, amount FROM invoice_payment WHERE invoice_id = $1',
    [invoiceId],
  );
  return amountPaid(rows.map((row) => ({ kind: row.kind, amount: Number(row.amount) })));
}

export const invoiceHooks: EntityHooks = {
  async beforeCreate({ tx, body }) {
    await requireClientProject(tx, body.projectId, body.clientId, body.workspaceId);
    await requireLineSources(tx, body.lines, body.workspaceId);
  },
  async beforeUpdate({ tx, current, patch }) {
    const keys = Object.keys(patch);
    if (current.status === 'void') {
      throw new AppError(ErrorCode.CONFLICT, 'This invoice is void: issue a new one instead.');
    }
    if ('status' in patch && patch.status !== current.status) {
      if (patch.status === 'sent') {
        throw businessRule(
          'An invoice is sent with Send, which numbers it and emails the client.',
          'body.status',
          'Use send-invoice',
        );
      }
      if (patch.status === 'draft') {
        throw businessRule(SENT_IS_FIXED, 'body.status', 'A sent invoice stays sent or is voided');
      }
      if (current.status === 'draft') {
        throw businessRule(
          'A draft has no number yet: delete it instead of voiding it.',
          'body.status',
          'Delete the draft instead',
        );
      }
      if ((await paidOn(tx, String(current.id))) > 0) {
        throw businessRule(
          'This invoice has payments: refund them before voiding it.',
          'body.status',
          'Refund its payments first',
        );
      }
    }
    if (current.status !== 'draft') {
      const changed = keys.filter(
        (key) => key !== 'status' && JSON.stringify(patch[key]) !== JSON.stringify(current[key]),
      );
      if (changed.length > 0) {
        throw new AppError(ErrorCode.BUSINESS_RULE, SENT_IS_FIXED, {
          details: changed.map((key) => ({ path: `body.${key}`, message: 'Fixed once sent' })),
        });
      }
      return;
    }
    if ('projectId' in patch) {
      await requireClientProject(tx, patch.projectId, current.clientId, current.workspaceId);
    }
    if ('lines' in patch) await requireLineSources(tx, patch.lines, current.workspaceId);
  },
  beforeDelete({ current }) {
    if (current.status !== 'draft') {
      throw new AppError(
        ErrorCode.BUSINESS_RULE,
        `${invoiceNumberText(current.number as number)} was sent, so it is kept: void it instead of deleting it.`,
      );
    }
    return Promise.resolve();
  },
};

/** Refuses to delete a client whose sent invoices would go with it (they are records). */
export async function keepClientsWithSentInvoices({
  tx,
  current,
}: {
  tx: Queryable;
  current: Row;
}): Promise<void> {
  const { rows } = await tx.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM invoice WHERE client_id = $1 AND status <> 'draft'",
    [current.id],
  );
  const sent = rows[0]?.n ?? 0;
  if (sent > 0) {
    throw new AppError(
      ErrorCode.BUSINESS_RULE,
      `This client has ${sent} sent invoice${sent === 1 ? '' : 's'}, which are kept as records: archive the client instead.`,
    );
  }
}

/** A deleted project leaves its invoices, unlinked: they are the client's records. */
export const unlinkProjectInvoices: NonNullable<EntityHooks['beforeDelete']> = (ctx) =>
  unlinkFromProjects(invoiceEntity, ctx, 'project_id = $1', String(ctx.current.id));

const invoiceSql = entitySql(invoiceEntity as never);

async function lockInvoice(tx: Queryable, id: string, workspaceId: string): Promise<Row> {
  const { rows } = await tx.query<Row>(
    `SELECT ${invoiceSql.select} FROM invoice WHERE id = $1 AND workspace_id = $2 FOR UPDATE`,
    [id, workspaceId],
  );
  if (!rows[0]) throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_INVOICE);
  return invoiceSql.toRow(rows[0]);
}

export const invoicePaymentHooks: EntityHooks = {
  async beforeCreate({ tx, body }) {
    const invoice = await lockInvoice(tx, String(body.invoiceId), String(body.workspaceId));
    if (invoice.status === 'draft') {
      throw businessRule(
        'Send the invoice before recording a payment against it.',
        'body.invoiceId',
        'The invoice is a draft',
      );
    }
    // A void invoice owes nothing, but money can still reach it (a card payment Stripe took as
    // it was voided): the refund of it is recorded here, so only refunds are taken.
    if (invoice.status === 'void' && body.kind !== 'refund') {
      throw businessRule('This invoice is void.', 'body.invoiceId', 'The invoice is void');
    }
    if (body.method === 'stripe') {
      throw businessRule(
        'Stripe payments are recorded by Stripe itself.',
        'body.method',
        'Choose how it was paid',
      );
    }
    const total = invoiceTotals(invoice.lines as never).total;
    const paid = await paidOn(tx, String(invoice.id));
    const amount = Number(body.amount);
    const currency = String(invoice.currency);
    if (body.kind === 'refund' && amount > paid) {
      throw businessRule(
        `A refund cannot exceed what was paid (${formatMoney(paid, currency, 'en-US')}).`,
        'body.amount',
        `At most ${formatMoney(paid, currency, 'en-US')}`,
      );
    }
    if (body.kind !== 'refund' && amount > total - paid) {
      const due = Math.max(0, total - paid);
      throw businessRule(
        `That is more than the ${formatMoney(due, currency, 'en-US')} still due.`,
        'body.amount',
        `At most ${formatMoney(due, currency, 'en-US')}`,
      );
    }
  },
  async beforeDelete({ tx, current }) {
    if (current.kind === 'refund') return;
    await lockInvoice(tx, String(current.invoiceId), String(current.workspaceId));
    const paid = await paidOn(tx, String(current.invoiceId));
    if (paid - Number(current.amount) < 0) {
      throw new AppError(
        ErrorCode.BUSINESS_RULE,
        'Refunds were recorded against this payment: remove them first.',
      );
    }
  },
};

/** Today's date where the workspace is. */
function todayIn(timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
  } catch {
    return new Date().toISOString().slice(0, 10);
  }
}

interface SendTarget {
  email: string | null;
  client_name: string;
  workspace_name: string;
  time_zone: string;
  portal_on: boolean;
  settings: Record<string, unknown> | null;
}

export function invoiceMail(
  target: SendTarget & { email: string },
  invoice: Row,
  options: { portalUrl: string | null; message: string | undefined },
): { to: string; subject: string; text: string } {
  const number = invoiceNumberText(invoice.number as number);
  const currency = String(invoice.currency);
  const total = invoiceTotals(invoice.lines as never).total;
  const lines = [`Hello ${target.client_name},`, ''];
  if (options.message) lines.push(options.message, '');
  lines.push(
    `${target.workspace_name} sent you invoice ${number} for ${formatMoney(total, currency, 'en-US')}.`,
    `Due: ${String(invoice.dueDate)}`,
    '',
  );
  if (options.portalUrl) lines.push(`See and download it in your portal: ${options.portalUrl}`, '');
  const instructions = target.settings?.paymentInstructions;
  if (typeof instructions === 'string' && instructions.trim() !== '') {
    lines.push('How to pay:', instructions.trim(), '');
  }
  return {
    to: target.email,
    subject: `Invoice ${number} from ${target.workspace_name}`,
    text: lines.join('\n'),
  };
}

export function createInvoiceHandlers(
  deps: InvoiceDeps,
): Pick<ResourceHandlers<'payment'>, 'payment/send-invoice' | 'payment/get-invoice-pdf'> {
  return {
    async 'payment/get-invoice-pdf'({ query, identity, tx }) {
      const { rows: found } = await tx.query<{ workspace_id: string }>(
        'SELECT workspace_id FROM invoice WHERE id = $1',
        [query.id],
      );
      const workspaceId = found[0]?.workspace_id;
      if (!workspaceId) throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_INVOICE);
      try {
        await requireWorkspaceRole(tx, workspaceId, identity.userId);
      } catch {
        // Another workspace's invoice reads as a missing one: nothing to probe.
        throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_INVOICE);
      }
      const { rows } = await tx.query<Row>(
        `SELECT ${invoiceSql.select} FROM invoice WHERE id = $1 AND workspace_id = $2`,
        [query.id, workspaceId],
      );
      if (!rows[0]) throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_INVOICE);
      const doc = await loadInvoiceDocument(tx, invoiceSql.toRow(rows[0]), null);
      return invoicePdfAnswer(doc);
    },

    async 'payment/send-invoice'({ query, body, identity, tx, changes, afterCommit }) {
      const { rows: found } = await tx.query<{ workspace_id: string }>(
        'SELECT workspace_id FROM invoice WHERE id = $1',
        [query.id],
      );
      const workspaceId = found[0]?.workspace_id;
      if (!workspaceId) throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_INVOICE);
      try {
        await requireWorkspaceRole(tx, workspaceId, identity.userId);
      } catch {
        throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_INVOICE);
      }
      const invoice = await lockInvoice(tx, query.id, workspaceId);
      if (invoice.status !== 'draft') {
        throw new AppError(
          ErrorCode.CONFLICT,
          invoice.status === 'void'
            ? 'This invoice is void.'
            : `This invoice was already sent as ${invoiceNumberText(invoice.number as number)}.`,
        );
      }
      if (body.version !== undefined && body.version !== invoice.version) {
        throw new AppError(
          ErrorCode.CONFLICT,
          'This draft changed on another device since you opened it: look it over, then send.',
        );
      }
      const lines = invoice.lines as unknown[];
      if (lines.length === 0) {
        throw businessRule('Add at least one line before sending.', 'body.lines', 'No lines');
      }
      const { rows: targets } = await tx.query<SendTarget>(
        `SELECT c.email, c.name AS client_name, w.name AS workspace_name, w.time_zone,
                w.settings, coalesce(pp.enabled, false) AS portal_on
         FROM client c JOIN workspace w ON w.id = c.workspace_id
         LEFT JOIN project_portal pp ON pp.project_id = $2
         WHERE c.id = $1`,
        [invoice.clientId, invoice.projectId],
      );
      const target = targets[0] as SendTarget;
      const issueDate = (invoice.issueDate as string | null) ?? todayIn(target.time_zone);
      const days = termsDays(invoice.paymentTerms as PaymentTerms);
      const dueDate =
        (invoice.dueDate as string | null) ?? (days === null ? null : addDays(issueDate, days));
      if (dueDate === null) {
        throw businessRule(
          'Choose a due date, or payment terms that set one.',
          'body.dueDate',
          'Choose a due date',
        );
      }
      if (dueDate < issueDate) {
        throw businessRule(
          'The due date cannot be before the issue date.',
          'body.dueDate',
          'Before the issue date',
        );
      }
      const { rows: counter } = await tx.query<{ last_number: number }>(
        `INSERT INTO invoice_counter (workspace_id, last_number) VALUES ($1, 1)
         ON CONFLICT (workspace_id)
         DO UPDATE SET last_number = invoice_counter.last_number + 1
         RETURNING last_number`,
        [workspaceId],
      );
      const seq = await changes.record({
        workspaceId,
        table: invoiceEntity.table,
        entityId: query.id,
        op: 'upsert',
      });
      const { rows } = await tx.query<Row>(
        `UPDATE invoice SET status = 'sent', number = $2, issue_date = $3::date, due_date = $4::date,
                sent_at = $5, updated_at = now(), updated_by = $6, version = $7
         WHERE id = $1 RETURNING ${invoiceSql.select}`,
        [
          query.id,
          counter[0]?.last_number,
          issueDate,
          dueDate,
          new Date().toISOString(),
          identity.userId,
          seq,
        ],
      );
      const sent = invoiceSql.toRow(rows[0] as Row);
      const email = target.email;
      if (email) {
        const portalUrl =
          target.portal_on && deps.publicUrl && typeof sent.projectId === 'string'
            ? `${deps.publicUrl}${portalPath(String(sent.clientId), sent.projectId)}`
            : null;
        const mail = invoiceMail({ ...target, email }, sent, { portalUrl, message: body.message });
        afterCommit(() => deps.mailer.send(mail));
      }
      return { invoice: sent as never, emailed: Boolean(email) };
    },
  };
}
