/**
 * An invoice as a document (issue 16): the one view model that the member's web view, the
 * client's portal view and the PDF all render, so the three cannot say different things. It is
 * pure: the invoice, what was paid, the client and the workspace's business details in; every
 * word and formatted figure out.
 *
 * Invariants:
 * - Figures come from invoice-totals.ts only (integer minor units, rounding per line). A line's
 *   amount is its gross (quantity × price); its discount is shown on the line and summed in the
 *   Discount row, so the printed lines add up to the printed Subtotal.
 * - Dates and money are formatted in the workspace's locale (not the viewer's), so the member,
 *   the client and the PDF read the same text.
 * - A draft has no number: its heading and file name say Draft.
 */
import {
  invoiceNumberText,
  paymentTermsWords,
  type InvoiceLine,
  type PaymentTerms,
} from './invoice.ts';
import {
  amountDue,
  amountPaid,
  formatMoney,
  invoiceState,
  invoiceStateWords,
  invoiceTotals,
  lineAmounts,
  type InvoiceState,
  type PaymentInput,
} from './invoice-totals.ts';

/** The longest business address a workspace keeps (settings.businessAddress). */
export const MAX_BUSINESS_ADDRESS = 1000;

type DocumentLine = Pick<
  InvoiceLine,
  'id' | 'description' | 'quantity' | 'unitPrice' | 'taxRate' | 'discountPercent'
>;

export interface InvoiceDocumentInput {
  invoice: {
    number: number | null;
    title: string;
    currency: string;
    issueDate: string | null;
    dueDate: string | null;
    /** Null where the terms are not known (the portal's answer before it carried them). */
    paymentTerms: PaymentTerms | null;
    lines: readonly DocumentLine[];
    notes: string | null;
  };
  /** Derived by the caller with invoiceState (the device, the portal answer, the server). */
  state: InvoiceState;
  /** Payments less refunds, minor units. */
  paid: number;
  client: {
    name: string;
    company?: string | null;
    email?: string | null;
    address?: string | null;
  } | null;
  business: InvoiceBusiness;
}

/** The workspace as an invoice shows it. */
export interface InvoiceBusiness {
  name: string;
  address: string | null;
  /** Only a logo that is safe to embed: see `embeddableLogo`. */
  logoUrl: string | null;
  /** BCP 47; money and dates are written in it. */
  locale: string;
  paymentInstructions: string | null;
}

export interface InvoiceDocumentLine {
  id: string;
  description: string;
  /** "10% off (−$5.00)", or null. */
  discountNote: string | null;
  quantity: string;
  unitPrice: string;
  taxRate: string;
  amount: string;
}

export interface InvoiceDocumentRow {
  label: string;
  value: string;
  /** Total and Balance due stand out. */
  strong: boolean;
}

export interface InvoiceDocument {
  /** "INV-0007", or "Draft invoice". */
  heading: string;
  /** "INV-0007", or "Draft". */
  numberText: string;
  draft: boolean;
  title: string;
  state: InvoiceState;
  stateText: string;
  /** "Invoice-0007.pdf", "Invoice-draft.pdf". */
  fileName: string;
  from: { name: string; addressLines: string[]; logoUrl: string | null };
  billTo: { name: string; lines: string[] } | null;
  /** Issued, Due, Terms: label and formatted value. */
  dates: { label: string; value: string }[];
  lines: InvoiceDocumentLine[];
  totals: InvoiceDocumentRow[];
  notes: string | null;
  paymentInstructions: string | null;
}

function splitLines(text: string | null | undefined): string[] {
  if (!text) return [];
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function safeLocale(locale: string): string {
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? 'en-US';
  } catch {
    return 'en-US';
  }
}

/** "Mar 31, 2026" in the locale; the date is a calendar day, so it is read in UTC. */
export function formatInvoiceDate(date: string, locale: string): string {
  const at = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(at.getTime())) return date;
  return new Intl.DateTimeFormat(safeLocale(locale), {
    dateStyle: 'medium',
    timeZone: 'UTC',
  }).format(at);
}

function formatNumber(value: number, locale: string, maxDigits: number): string {
  return new Intl.NumberFormat(safeLocale(locale), { maximumFractionDigits: maxDigits }).format(
    value,
  );
}

/** "Invoice-0007.pdf": the name the PDF is saved under. */
export function invoiceFileName(number: number | null): string {
  return number === null ? 'Invoice-draft.pdf' : `Invoice-${String(number).padStart(4, '0')}.pdf`;
}

/**
 * A logo the server may put in the PDF without fetching anything: an inline PNG or JPEG
 * (`data:` URL). Any other address is someone else's server: fetching it from ours would let a
 * workspace make the server request internal addresses (SSRF), so the name is shown instead.
 */
export function embeddableLogo(logoUrl: string | null | undefined): string | null {
  if (!logoUrl) return null;
  return /^data:image\/(png|jpe?g);base64,[A-Za-z0-9+/=\s]+$/i.test(logoUrl) ? logoUrl : null;
}

/** The business address kept in the workspace's settings, or null. */
export function businessAddressOf(settings: Readonly<Record<string, unknown>>): string | null {
  const value = settings.businessAddress;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** The payment instructions kept in the workspace's settings, or null. */
export function paymentInstructionsOf(settings: Readonly<Record<string, unknown>>): string | null {
  const value = settings.paymentInstructions;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** The workspace as its invoices show it, from its row. */
export function invoiceBusiness(workspace: {
  name: string;
  logoUrl: string | null;
  locale: string;
  settings: Readonly<Record<string, unknown>>;
}): InvoiceBusiness {
  return {
    name: workspace.name,
    address: businessAddressOf(workspace.settings),
    logoUrl: embeddableLogo(workspace.logoUrl),
    locale: safeLocale(workspace.locale),
    paymentInstructions: paymentInstructionsOf(workspace.settings),
  };
}

export function invoiceDocument(input: InvoiceDocumentInput): InvoiceDocument {
  const { invoice, business, state } = input;
  const locale = business.locale;
  const money = (minor: number) => formatMoney(minor, invoice.currency, locale);
  const draft = invoice.number === null;
  const totals = invoiceTotals(invoice.lines);

  const dates: InvoiceDocument['dates'] = [];
  dates.push({
    label: 'Issued',
    value: invoice.issueDate
      ? formatInvoiceDate(invoice.issueDate, locale)
      : draft
        ? 'When sent'
        : '—',
  });
  if (invoice.dueDate)
    dates.push({ label: 'Due', value: formatInvoiceDate(invoice.dueDate, locale) });
  if (invoice.paymentTerms && invoice.paymentTerms !== 'custom') {
    dates.push({ label: 'Terms', value: paymentTermsWords[invoice.paymentTerms] });
  }

  const lines = invoice.lines.map((line): InvoiceDocumentLine => {
    const amounts = lineAmounts(line);
    return {
      id: line.id,
      description: line.description,
      discountNote:
        amounts.discount > 0
          ? `${formatNumber(line.discountPercent, locale, 3)}% off (−${money(amounts.discount)})`
          : null,
      quantity: formatNumber(line.quantity, locale, 3),
      unitPrice: money(line.unitPrice),
      taxRate: `${formatNumber(line.taxRate, locale, 3)}%`,
      amount: money(amounts.gross),
    };
  });

  const rows: InvoiceDocumentRow[] = [
    { label: 'Subtotal', value: money(totals.subtotal), strong: false },
  ];
  if (totals.discount > 0) {
    rows.push({ label: 'Discount', value: `−${money(totals.discount)}`, strong: false });
  }
  rows.push({ label: 'Tax', value: money(totals.tax), strong: false });
  rows.push({ label: 'Total', value: money(totals.total), strong: true });
  const owing = !draft && state !== 'void';
  if (owing) {
    rows.push({ label: 'Paid', value: money(input.paid), strong: false });
    rows.push({
      label: 'Balance due',
      value: money(amountDue(totals.total, input.paid)),
      strong: true,
    });
  }

  const client = input.client;
  const numberText = invoiceNumberText(invoice.number);
  return {
    heading: draft ? 'Draft invoice' : numberText,
    numberText,
    draft,
    title: invoice.title,
    state,
    stateText: invoiceStateWords[state],
    fileName: invoiceFileName(invoice.number),
    from: {
      name: business.name,
      addressLines: splitLines(business.address),
      logoUrl: business.logoUrl,
    },
    billTo: client
      ? {
          name: client.name,
          lines: [
            ...(client.company && client.company !== client.name ? [client.company] : []),
            ...splitLines(client.address),
            ...(client.email ? [client.email] : []),
          ],
        }
      : null,
    dates,
    lines,
    totals: rows,
    notes: invoice.notes && invoice.notes.trim() !== '' ? invoice.notes.trim() : null,
    paymentInstructions: state === 'void' || state === 'paid' ? null : business.paymentInstructions,
  };
}

/** From the rows themselves: the invoice, its payments, and today where the workspace is. */
export function invoiceDocumentFromRows(input: {
  invoice: InvoiceDocumentInput['invoice'] & {
    status: 'draft' | 'sent' | 'void';
    viewedAt: string | null;
  };
  payments: readonly PaymentInput[];
  client: InvoiceDocumentInput['client'];
  business: InvoiceBusiness;
  today: string;
}): InvoiceDocument {
  const paid = amountPaid(input.payments);
  const total = invoiceTotals(input.invoice.lines).total;
  const state = invoiceState(
    {
      status: input.invoice.status,
      dueDate: input.invoice.dueDate,
      viewedAt: input.invoice.viewedAt,
      total,
      paid,
    },
    input.today,
  );
  return invoiceDocument({
    invoice: input.invoice,
    state,
    paid,
    client: input.client,
    business: input.business,
  });
}
