/**
 * An invoice as a PDF (issue 16), laid out with @react-pdf/renderer from the same view model the
 * web views render (contract/entities/invoice-document.ts), so the PDF says exactly what the
 * screen says. Server only: the renderer never enters the app's bundle.
 *
 * - Text is set in Liberation Sans (shipped with pdfjs-dist, SIL OFL): the PDF standard fonts
 *   lack characters money needs (−, narrow no-break spaces of some locales), and an embedded
 *   font keeps the text extractable as written.
 * - The logo is embedded only when the view model passed one (an inline PNG or JPEG); nothing is
 *   ever fetched from here. Otherwise the workspace's name stands in its place.
 * - The lines' table header and a footer naming the invoice repeat on each page, and a line is
 *   never split across pages. Pages are not numbered "n of m": that needs a second layout pass
 *   (react-pdf's render props), which made a 200-line invoice about a third slower here.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  Document,
  Font,
  Image,
  Page,
  StyleSheet,
  Text,
  View,
  renderToBuffer,
} from '@react-pdf/renderer';
// eslint-disable-next-line no-restricted-imports -- @react-pdf lays a PDF out from React elements on the server; no browser code
import { createElement as h, type ReactElement } from 'react';
import type { InvoiceDocument } from '#contract/entities/invoice-document.ts';

const FAMILY = 'InvoiceSans';
let fontsRegistered = false;

function registerFonts(): void {
  if (fontsRegistered) return;
  fontsRegistered = true;
  const fonts = join(
    dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')),
    'standard_fonts',
  );
  Font.register({
    family: FAMILY,
    fonts: [
      { src: join(fonts, 'LiberationSans-Regular.ttf') },
      { src: join(fonts, 'LiberationSans-Bold.ttf'), fontWeight: 'bold' },
    ],
  });
  // Long descriptions wrap at spaces only: no hyphens invented in a client's words.
  Font.registerHyphenationCallback((word) => [word]);
}

const ink = '#1f2328';
const muted = '#5b6470';
const rule = '#d8dce1';

const styles = StyleSheet.create({
  page: { fontFamily: FAMILY, fontSize: 10, color: ink, padding: 40, paddingBottom: 56 },
  top: { flexDirection: 'row', justifyContent: 'space-between', marginBottom: 24 },
  logo: { maxWidth: 160, maxHeight: 56, objectFit: 'contain', marginBottom: 6 },
  businessName: { fontSize: 14, fontWeight: 'bold', marginBottom: 4 },
  heading: { fontSize: 20, fontWeight: 'bold', textAlign: 'right' },
  draftMark: { fontSize: 12, fontWeight: 'bold', color: '#b42318', textAlign: 'right' },
  state: { textAlign: 'right', color: muted, marginTop: 2 },
  muted: { color: muted },
  parties: { flexDirection: 'row', justifyContent: 'space-between', marginBottom: 20 },
  label: { fontSize: 8, color: muted, textTransform: 'uppercase', marginBottom: 3 },
  strong: { fontWeight: 'bold' },
  dateRow: { flexDirection: 'row', justifyContent: 'flex-end', gap: 8 },
  title: { fontSize: 12, fontWeight: 'bold', marginBottom: 8 },
  tableHead: {
    flexDirection: 'row',
    borderBottomWidth: 1,
    borderBottomColor: ink,
    paddingBottom: 4,
    fontWeight: 'bold',
  },
  row: {
    flexDirection: 'row',
    borderBottomWidth: 0.5,
    borderBottomColor: rule,
    paddingVertical: 5,
  },
  colDescription: { flexGrow: 1, flexShrink: 1, flexBasis: 0, paddingRight: 8 },
  colQty: { width: 50, textAlign: 'right' },
  colPrice: { width: 80, textAlign: 'right' },
  colTax: { width: 50, textAlign: 'right' },
  colAmount: { width: 90, textAlign: 'right' },
  totals: { marginTop: 10, marginLeft: 'auto', width: 240 },
  totalRow: { flexDirection: 'row', justifyContent: 'space-between', paddingVertical: 2 },
  totalStrong: {
    flexDirection: 'row',
    justifyContent: 'space-between',
    paddingVertical: 3,
    borderTopWidth: 1,
    borderTopColor: ink,
    fontWeight: 'bold',
  },
  block: { marginTop: 18 },
  footer: {
    position: 'absolute',
    bottom: 24,
    left: 40,
    right: 40,
    flexDirection: 'row',
    justifyContent: 'space-between',
    fontSize: 8,
    color: muted,
  },
});

function header(doc: InvoiceDocument): ReactElement {
  return h(
    View,
    { style: styles.top },
    h(
      View,
      { style: { maxWidth: 260 } },
      doc.from.logoUrl ? h(Image, { src: doc.from.logoUrl, style: styles.logo }) : null,
      h(Text, { style: styles.businessName }, doc.from.name),
      ...doc.from.addressLines.map((line, index) =>
        h(Text, { key: `a${index}`, style: styles.muted }, line),
      ),
    ),
    h(
      View,
      null,
      h(Text, { style: styles.heading }, doc.draft ? 'Invoice' : `Invoice ${doc.numberText}`),
      doc.draft ? h(Text, { style: styles.draftMark }, 'Draft: not yet sent') : null,
      h(Text, { style: styles.state }, doc.stateText),
    ),
  );
}

function parties(doc: InvoiceDocument): ReactElement {
  return h(
    View,
    { style: styles.parties },
    h(
      View,
      { style: { maxWidth: 260 } },
      doc.billTo ? h(Text, { style: styles.label }, 'Bill to') : null,
      doc.billTo ? h(Text, { style: styles.strong }, doc.billTo.name) : null,
      ...(doc.billTo?.lines ?? []).map((line, index) => h(Text, { key: `b${index}` }, line)),
    ),
    h(
      View,
      null,
      ...doc.dates.map((date) =>
        h(
          View,
          { key: date.label, style: styles.dateRow },
          h(Text, { style: styles.muted }, date.label),
          h(Text, null, date.value),
        ),
      ),
    ),
  );
}

function linesTable(doc: InvoiceDocument): ReactElement {
  return h(
    View,
    null,
    h(
      View,
      { style: styles.tableHead, fixed: true },
      h(Text, { style: styles.colDescription }, 'Description'),
      h(Text, { style: styles.colQty }, 'Qty'),
      h(Text, { style: styles.colPrice }, 'Price'),
      h(Text, { style: styles.colTax }, 'Tax'),
      h(Text, { style: styles.colAmount }, 'Amount'),
    ),
    ...doc.lines.map((line) =>
      h(
        View,
        { key: line.id, style: styles.row, wrap: false },
        h(
          View,
          { style: styles.colDescription },
          h(Text, null, line.description),
          line.discountNote ? h(Text, { style: styles.muted }, line.discountNote) : null,
        ),
        h(Text, { style: styles.colQty }, line.quantity),
        h(Text, { style: styles.colPrice }, line.unitPrice),
        h(Text, { style: styles.colTax }, line.taxRate),
        h(Text, { style: styles.colAmount }, line.amount),
      ),
    ),
  );
}

function totals(doc: InvoiceDocument): ReactElement {
  return h(
    View,
    { style: styles.totals, wrap: false },
    ...doc.totals.map((row) =>
      h(
        View,
        { key: row.label, style: row.strong ? styles.totalStrong : styles.totalRow },
        h(Text, null, row.label),
        h(Text, null, row.value),
      ),
    ),
  );
}

function textBlock(label: string, text: string | null): ReactElement | null {
  if (!text) return null;
  return h(
    View,
    { style: styles.block, wrap: false },
    h(Text, { style: styles.label }, label),
    h(Text, null, text),
  );
}

export function invoicePdfElement(doc: InvoiceDocument): ReactElement {
  const pageLabel = doc.draft ? 'Draft invoice' : `Invoice ${doc.numberText}`;
  return h(
    Document,
    { title: `${pageLabel} · ${doc.from.name}`, author: doc.from.name, language: 'en' },
    h(
      Page,
      { size: 'A4', style: styles.page },
      header(doc),
      parties(doc),
      h(Text, { style: styles.title }, doc.title),
      linesTable(doc),
      totals(doc),
      textBlock('Notes', doc.notes),
      textBlock('How to pay', doc.paymentInstructions),
      h(
        View,
        { style: styles.footer, fixed: true },
        h(Text, null, `${doc.from.name} · ${pageLabel}`),
        h(Text, null, doc.title),
      ),
    ),
  );
}

/** The invoice's PDF bytes. */
export async function renderInvoicePdf(doc: InvoiceDocument): Promise<Uint8Array> {
  registerFonts();
  const buffer = await renderToBuffer(
    invoicePdfElement(doc) as Parameters<typeof renderToBuffer>[0],
  );
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}
