/**
 * Issue 16, money:
 * - The invoice PDF: generation time (view model and layout by @react-pdf/renderer, the server's
 *   own modules, in this Node) of a 200-line invoice, median and p95 of 20, beside a one-line
 *   invoice in the same run, the two alternating so machine noise falls on both.
 * - The invoices list with 5,000 invoices opens offline: headless Chromium against the production
 *   build and the real server; 5,000 invoices (and 50 clients) written straight into the device's
 *   IndexedDB, as a long pull would leave them; a new tab with the network off opens /invoices,
 *   timed from navigation start to the first frame with the first row on screen (read in the page),
 *   median of 5, alternating with the same open on another member's device that holds one invoice.
 *
 * `runInvoiceBenchmarks({distDir})` returns the rows; `npx tsx bench/invoice-benchmarks.ts
 * [distDir]` prints them and rewrites the invoice-bench table in BENCHMARKS.md.
 */
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from '@playwright/test';
import { invoiceDocument } from '../contract/entities/invoice-document.ts';
import { renderInvoicePdf } from '../server/pdf/invoice-pdf.ts';
import { withTarget, type BenchRow } from './bench-row.ts';
import { launchBenchChromium, signUpAndIn, startServer } from './cold-open-benchmark.ts';
import { runSectionAlone } from './section-run.ts';

const PDF_RUNS = 20;
const PDF_LINES = 200;
const INVOICES = 5_000;
const OPENS = 5;
const LIST_TARGET_MS = 1000;

const quantile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
const median = (values: readonly number[]) => quantile(values, 0.5);

function pdfLines(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    id: `line-${i}`,
    description: `Design and build, part ${i + 1}: ${'pages, components and reviews '.repeat(1 + (i % 3))}`,
    quantity: 1 + (i % 7) * 0.5,
    unitPrice: 9_500 + i * 37,
    taxRate: i % 4 === 0 ? 0 : 20,
    discountPercent: i % 5 === 0 ? 10 : 0,
  }));
}

/** The document and the PDF, as the server makes them for one call. */
async function timePdf(lines: number): Promise<number> {
  const started = performance.now();
  const doc = invoiceDocument({
    invoice: {
      number: 7,
      title: 'Website rebuild',
      currency: 'EUR',
      issueDate: '2026-11-01',
      dueDate: '2026-12-01',
      paymentTerms: 'net_30',
      lines: pdfLines(lines),
      notes: 'Thank you for your business.',
    },
    state: 'sent',
    paid: 0,
    client: { name: 'Acme', company: 'Acme Holdings', address: 'Main Road 5\nBergen' },
    business: {
      name: 'Studio North',
      address: '1 Harbour Street\nOslo 0150',
      logoUrl: null,
      locale: 'en-GB',
      paymentInstructions: 'Bank transfer to IBAN NO93 8601 1117 947',
    },
  });
  const bytes = await renderInvoicePdf(doc);
  if (bytes.byteLength < 1000) throw new Error('the PDF came out empty');
  return performance.now() - started;
}

export async function runInvoicePdfBenchmark(): Promise<BenchRow[]> {
  // The first render loads fonts and warms the layout engine: not what a call costs after.
  await timePdf(1);
  await timePdf(PDF_LINES);
  const big: number[] = [];
  const small: number[] = [];
  for (let run = 0; run < PDF_RUNS; run += 1) {
    big.push(await timePdf(PDF_LINES));
    small.push(await timePdf(1));
  }
  const figure = median(big);
  const reference = median(small);
  return [
    {
      what: `Invoice PDF with ${PDF_LINES} lines (view model and @react-pdf/renderer layout, in Node), median of ${PDF_RUNS} (p95 ${quantile(big, 0.95).toFixed(0)} ms)`,
      figure: `${figure.toFixed(0)} ms`,
      reference: `${reference.toFixed(0)} ms (a one-line invoice, alternating; p95 ${quantile(small, 0.95).toFixed(0)} ms)`,
      ratio: `${(figure / reference).toFixed(2)}x`,
    },
  ];
}

/** `count` invoices (and 50 clients) into the signed-in member's IndexedDB. */
async function seedInvoices(page: Page, count: number): Promise<void> {
  await page.evaluate(async (total) => {
    const name = (await indexedDB.databases())
      .map((db) => db.name ?? '')
      .find((n) => n.startsWith('satchel-'));
    if (!name) throw new Error('no local database');
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(new Error(request.error?.message ?? 'IndexedDB error'));
    });
    const workspace = await new Promise<{ id: string }>((resolve, reject) => {
      const request = db.transaction('workspaces').objectStore('workspaces').getAll();
      request.onsuccess = () => resolve((request.result as { id: string }[])[0]!);
      request.onerror = () => reject(new Error(request.error?.message ?? 'IndexedDB error'));
    });
    const tx = db.transaction(['clients', 'invoices'], 'readwrite');
    const clients = tx.objectStore('clients');
    const invoices = tx.objectStore('invoices');
    const start = Date.now() - total * 3_600_000;
    const common = (at: string) => ({
      workspaceId: workspace.id,
      createdAt: at,
      createdBy: 'bench',
      updatedAt: at,
      updatedBy: 'bench',
      version: 1,
      _v: 1,
      _pending: 0,
      _deleted: false,
      _base: {},
    });
    const clientCount = Math.min(50, total);
    for (let c = 0; c < clientCount; c += 1) {
      clients.put({
        ...common(new Date(start).toISOString()),
        id: `00000000-0000-7000-8000-c${String(c).padStart(11, '0')}`,
        name: `Client ${String(c).padStart(2, '0')}`,
        company: null,
        email: null,
        phone: null,
        address: null,
        website: null,
        notesSummary: null,
        tags: [],
        status: 'active',
        currency: 'EUR',
        locale: null,
        timeZone: null,
        archived: false,
      });
    }
    for (let i = 0; i < total; i += 1) {
      const at = new Date(start + i * 3_600_000).toISOString();
      const sent = i < total - 20; // the newest few are drafts
      const issued = at.slice(0, 10);
      invoices.put({
        ...common(at),
        id: `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`,
        clientId: `00000000-0000-7000-8000-c${String(i % clientCount).padStart(11, '0')}`,
        projectId: null,
        title: `Invoice for work ${i}`,
        status: sent ? 'sent' : 'draft',
        number: sent ? i + 1 : null,
        currency: 'EUR',
        issueDate: sent ? issued : null,
        dueDate: sent ? issued : null,
        paymentTerms: 'net_30',
        lines: Array.from({ length: 1 + (i % 5) }, (_, l) => ({
          id: `00000000-0000-7000-8000-l${String(i * 10 + l).padStart(11, '0')}`,
          description: `Line ${l + 1}`,
          quantity: 1 + l,
          unitPrice: 10_000 + i,
          taxRate: 20,
          discountPercent: 0,
          milestoneId: null,
          changeRequestId: null,
        })),
        notes: null,
        sentAt: sent ? at : null,
        viewedAt: null,
      });
    }
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(new Error(tx.error?.message ?? 'IndexedDB error'));
    });
    db.close();
  }, count);
}

/** New tab, network off: navigation start until the list's first row is on screen. */
async function openOffline(context: BrowserContext): Promise<number> {
  await context.setOffline(true);
  const page = await context.newPage();
  try {
    await page.goto('/invoices', { waitUntil: 'commit' });
    // Read in the page at the first frame showing the row (as the chat bench does): a locator's
    // wait polls at growing intervals (up to 500 ms apart), which would time the poll, not the page.
    const handle = await page.waitForFunction(
      () => {
        const row = document.querySelector('ul[aria-label="Invoices"] li');
        return row && row.getBoundingClientRect().height > 0 ? performance.now() : undefined;
      },
      undefined,
      { timeout: 30_000, polling: 'raf' },
    );
    return (await handle.jsonValue()) as number;
  } finally {
    await page.close();
    await context.setOffline(false);
  }
}

export async function runInvoiceListBenchmark(options: { distDir: string }): Promise<BenchRow[]> {
  const server = await startServer(options.distDir);
  const browser = await launchBenchChromium();
  try {
    const many = await signUpAndIn(browser, server.origin, 'invoices-many');
    await seedInvoices(many.page, INVOICES);
    await many.page.close();
    const one = await signUpAndIn(browser, server.origin, 'invoices-one');
    await seedInvoices(one.page, 1);
    await one.page.close();
    // Warm the service worker's cache and Chromium, as a returning user's would be.
    await openOffline(many.context);
    await openOffline(one.context);
    const big: number[] = [];
    const small: number[] = [];
    for (let run = 0; run < OPENS; run += 1) {
      big.push(await openOffline(many.context));
      small.push(await openOffline(one.context));
    }
    const figure = median(big);
    const reference = median(small);
    return [
      withTarget(
        {
          what: `Invoices list offline with ${INVOICES.toLocaleString('en-US')} invoices on the device: a new tab on /invoices, navigation start to the first frame showing the first row (read in the page), median of ${OPENS} (min ${Math.min(...big).toFixed(0)}, max ${Math.max(...big).toFixed(0)} ms)`,
          figure: `${figure.toFixed(0)} ms`,
          reference: `${reference.toFixed(0)} ms (the same open with one invoice on the device, alternating)`,
          ratio: `${(figure / reference).toFixed(2)}x`,
        },
        `< ${LIST_TARGET_MS} ms`,
        figure < LIST_TARGET_MS,
      ),
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}

export async function runInvoiceBenchmarks(options: { distDir: string }): Promise<BenchRow[]> {
  return [...(await runInvoicePdfBenchmark()), ...(await runInvoiceListBenchmark(options))];
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  await runSectionAlone({
    name: 'invoice',
    run: (distDir) => runInvoiceBenchmarks({ distDir }),
  });
}
