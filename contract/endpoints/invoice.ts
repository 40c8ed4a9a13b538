/**
 * Invoice calls beside the derived CRUD of resource `payment` (contract/entities/invoice.ts).
 * Sending needs the network: it numbers the invoice (the workspace's next number, in the sending
 * transaction) and mails the client, so it is a direct call, never queued in the outbox.
 */
import * as v from 'valibot';
import { defineEndpoint } from '../define-endpoint.ts';
import { invoiceEntity, paymentTerms } from '../entities/invoice.ts';
import { invoiceStates } from '../entities/invoice-totals.ts';
import { idSchema } from '../entities/ids.ts';
import { text } from '../text.ts';
import { fileAnswerSchema } from '../file-answer.ts';

export const sendInvoice = defineEndpoint({
  resource: 'payment',
  operation: 'send-invoice',
  method: 'POST',
  auth: 'user',
  summary:
    "Send a draft invoice: it gets the workspace's next number, its issue and due dates, and the client is emailed a link to it in the portal.",
  query: v.strictObject({ id: idSchema }),
  body: v.strictObject({
    /**
     * The version of the draft the sender saw: a draft changed since (another device's edit not
     * yet on this one) is a 409, so what is sent is what was read.
     */
    version: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    /** A few words above the link in the client's mail. */
    message: v.optional(
      v.pipe(text(), v.trim(), v.maxLength(2000, 'The message is at most 2,000 characters')),
    ),
  }),
  output: v.object({ invoice: invoiceEntity.rowSchema, emailed: v.boolean() }),
});

/** An invoice as its client sees it in the portal: what they owe, never the member's fields. */
export const portalInvoiceSchema = v.object({
  id: text(),
  number: v.number(),
  title: text(),
  currency: text(),
  issueDate: v.nullable(text()),
  dueDate: v.nullable(text()),
  lines: v.array(
    v.object({
      id: text(),
      description: text(),
      quantity: v.number(),
      unitPrice: v.number(),
      taxRate: v.number(),
      discountPercent: v.number(),
    }),
  ),
  notes: v.nullable(text()),
  /** Absent from answers of servers before the invoice PDF. */
  paymentTerms: v.optional(v.nullable(v.picklist(paymentTerms))),
  total: v.number(),
  paid: v.number(),
  due: v.number(),
  state: v.picklist(invoiceStates),
  /** Card payment through Stripe Checkout is offered (Stripe configured, money due). */
  payable: v.boolean(),
});
export type PortalInvoice = v.InferOutput<typeof portalInvoiceSchema>;

export const getPortalInvoices = defineEndpoint({
  resource: 'client-portal',
  operation: 'get-invoices',
  method: 'GET',
  auth: 'portal',
  summary:
    "The client's sent invoices for the session's project (and those billed to no project), newest first, with what is due, and the workspace's payment instructions.",
  query: v.strictObject({ projectId: idSchema }),
  output: v.object({
    invoices: v.array(portalInvoiceSchema),
    paymentInstructions: v.nullable(text()),
    /** Who the invoices are from, as they print it (the same words as the PDF). */
    business: v.optional(
      v.object({
        name: text(),
        address: v.nullable(text()),
        /** Only an inline image (never another server's address). */
        logoUrl: v.nullable(text()),
        locale: text(),
      }),
    ),
    /** The session's client, as the invoices address it. */
    billTo: v.optional(
      v.nullable(
        v.object({
          name: text(),
          company: v.nullable(text()),
          email: v.nullable(text()),
          address: v.nullable(text()),
        }),
      ),
    ),
  }),
});

export const payPortalInvoice = defineEndpoint({
  resource: 'client-portal',
  operation: 'pay-invoice',
  method: 'POST',
  auth: 'portal',
  summary:
    'Start paying an invoice by card: answers the Stripe Checkout page to open (only when Stripe is configured and money is due).',
  query: v.strictObject({}),
  body: v.strictObject({ projectId: idSchema, invoiceId: idSchema }),
  output: v.object({ url: text() }),
});

/**
 * An invoice's PDF for a member of its workspace (any state; a draft is marked Draft). Answers
 * application/pdf as an attachment named like Invoice-0007.pdf (contract/file-answer.ts).
 */
export const getInvoicePdf = defineEndpoint({
  resource: 'payment',
  operation: 'get-invoice-pdf',
  method: 'GET',
  auth: 'user',
  summary:
    "An invoice as a PDF (application/pdf, attachment named like Invoice-0007.pdf): the same content as the invoice's page, with the workspace's address and logo. Any invoice of the caller's workspace; a draft is marked Draft.",
  query: v.strictObject({ id: idSchema }),
  output: fileAnswerSchema,
});

/** The client's own sent (or void) invoice as a PDF, through the portal session. */
export const getPortalInvoicePdf = defineEndpoint({
  resource: 'client-portal',
  operation: 'get-invoice-pdf',
  method: 'GET',
  auth: 'portal',
  summary:
    "One of the session client's sent invoices of this project (or of no project) as a PDF; a draft, another client's invoice and an unknown id all answer the same 404.",
  query: v.strictObject({ projectId: idSchema, invoiceId: idSchema }),
  output: fileAnswerSchema,
});
