/**
 * The /invoices URL state: the state filter lives in the query string, so "overdue invoices" can
 * be bookmarked and linked to from the dashboard. A bad value falls back to all invoices.
 */
import * as v from 'valibot';
import { invoiceStates } from '#contract/entities/invoice-totals.ts';
import { optionalSearch as optional } from '../shell/search-values.ts';

export const invoicesSearchSchema = v.object({
  state: optional(v.picklist(['open', ...invoiceStates])),
});

export type InvoicesSearch = v.InferOutput<typeof invoicesSearchSchema>;
