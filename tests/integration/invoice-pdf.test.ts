// The invoice PDF, through the app (PGlite, the real renderer, text read back with pdfjs): the
// member's call and the portal's both answer application/pdf named like Invoice-0001.pdf, and the
// PDF's text holds every line, amount and total of the same view model the web views render, the
// workspace's address and the client's; a draft says Draft; another workspace's invoice, another
// client's, a draft and an unknown id are refused with the contract's 404.
import { randomUUID } from 'node:crypto';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  invoiceBusiness,
  invoiceDocumentFromRows,
  type InvoiceDocument,
} from '../../contract/entities/invoice-document.ts';
import { jsonRequest } from '../fixtures/create-test-app.ts';
import { openPortalSession, type PortalSession } from '../fixtures/portal-session.ts';
import { createRegisteredUserApp, type RegisteredUserApp } from '../fixtures/registered-user.ts';
import { bearer, newTestUser } from '../fixtures/test-tokens.ts';

type Json = Record<string, any>;

const line = (description: string, quantity: number, unitPrice: number, tax = 0, off = 0) => ({
  id: randomUUID(),
  description,
  quantity,
  unitPrice,
  taxRate: tax,
  discountPercent: off,
  milestoneId: null,
  changeRequestId: null,
});

/** The PDF's text, whitespace (spaces of any width, line breaks) made single spaces. */
async function pdfText(bytes: ArrayBuffer): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
  const parts: string[] = [];
  for (let page = 1; page <= pdf.numPages; page += 1) {
    const content = await (await pdf.getPage(page)).getTextContent();
    for (const item of content.items) if ('str' in item) parts.push(item.str);
  }
  await pdf.destroy();
  return squash(parts.join(' '));
}
const squash = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, ' ').trim();

/** Every word and figure of the document is in the text. */
function expectAllOf(doc: InvoiceDocument, text: string) {
  const expected = [
    doc.numberText === 'Draft' ? 'Draft' : doc.numberText,
    doc.title,
    doc.stateText,
    doc.from.name,
    ...doc.from.addressLines,
    ...(doc.billTo ? [doc.billTo.name, ...doc.billTo.lines] : []),
    ...doc.dates.flatMap((date) => [date.label, date.value]),
    ...doc.lines.flatMap((row) => [
      row.description,
      row.quantity,
      row.unitPrice,
      row.taxRate,
      row.amount,
      ...(row.discountNote ? [row.discountNote] : []),
    ]),
    ...doc.totals.flatMap((row) => [row.label, row.value]),
    ...(doc.notes ? [doc.notes] : []),
    ...(doc.paymentInstructions ? [doc.paymentInstructions] : []),
  ];
  for (const piece of expected) expect(text, `the PDF shows "${piece}"`).toContain(squash(piece));
}

describe('invoice PDF', { timeout: 120_000 }, () => {
  let me: RegisteredUserApp;
  let clientId = '';
  let projectId = '';
  let cookie = '';
  let session: PortalSession;
  let sent: Json;
  let draft: Json;
  let otherClientInvoice: Json;

  const create = async (resource: string, operation: string, body: Json) => {
    const answer = await me.call('POST', `/api/${resource}?endpoint=${operation}`, {
      id: randomUUID(),
      workspaceId: me.workspaceId,
      ...body,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  };
  const send = async (id: string) => {
    const answer = await me.call('POST', `/api/payment?endpoint=send-invoice&id=${id}`, {});
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.invoice as Json;
  };
  const memberPdf = async (id: string, token?: string) =>
    me.t.app.request(`/api/payment?endpoint=get-invoice-pdf&id=${id}`, {
      headers: bearer(token ?? (await me.token())),
    });
  const portalPdf = (invoiceId: string) =>
    me.t.app.request(
      `/api/client-portal?endpoint=get-invoice-pdf&projectId=${projectId}&invoiceId=${invoiceId}`,
      { headers: { cookie } },
    );
  /** What the web views show for an invoice, built from the database's rows. */
  const documentOf = async (id: string, today: string | null = null) => {
    const invoice = (await me.call('GET', `/api/payment?endpoint=get-invoice&id=${id}`)).body
      .invoice as Json;
    const payments = (
      await me.t.db.query<Json>(
        'SELECT kind, amount::int AS amount FROM invoice_payment WHERE invoice_id = $1',
        [id],
      )
    ).rows;
    const client = (
      await me.t.db.query<Json>('SELECT name, company, email, address FROM client WHERE id = $1', [
        invoice.clientId,
      ])
    ).rows[0]!;
    const workspace = (
      await me.t.db.query<Json>(
        'SELECT name, logo_url, locale, time_zone, settings FROM workspace WHERE id = $1',
        [me.workspaceId],
      )
    ).rows[0]!;
    return invoiceDocumentFromRows({
      invoice: invoice as never,
      payments: payments as never,
      client: client as never,
      business: invoiceBusiness({
        name: workspace.name,
        logoUrl: workspace.logo_url,
        locale: workspace.locale,
        settings: workspace.settings,
      }),
      today: today ?? new Intl.DateTimeFormat('en-CA', { timeZone: workspace.time_zone }).format(),
    });
  };

  beforeAll(async () => {
    me = await createRegisteredUserApp({ publicUrl: 'https://satchel.example' });
    const settings = await me.call(
      'PATCH',
      `/api/workspace?endpoint=update-workspace-settings&workspaceId=${me.workspaceId}`,
      {
        name: 'Studio North',
        settings: {
          businessAddress: '1 Harbour Street\nOslo 0150',
          paymentInstructions: 'Bank transfer to IBAN NO93 8601 1117 947',
        },
      },
    );
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    clientId = (
      await create('client', 'create-client', {
        name: 'Acme',
        company: 'Acme Holdings',
        email: 'billing@acme.test',
        address: 'Main Road 5\nBergen',
      })
    ).client.id;
    projectId = (await create('project', 'create-project', { clientId, name: 'Site' })).project.id;
    const lines = [
      line('Discovery workshop', 1, 120_000, 25),
      line('Design, 12.5 hours', 12.5, 9_500, 25, 10),
      line('Hosting (année 1) — ünïcödé', 1, 24_000, 0),
    ];
    sent = await send(
      (
        await create('payment', 'create-invoice', {
          clientId,
          projectId,
          currency: 'EUR',
          title: 'Website, phase 1',
          notes: 'Thank you for your business.',
          lines,
        })
      ).invoice.id,
    );
    await create('payment', 'create-invoice-payment', {
      invoiceId: sent.id,
      amount: 50_000,
      paidOn: '2026-11-20',
    });
    draft = (
      await create('payment', 'create-invoice', {
        clientId,
        projectId,
        currency: 'EUR',
        title: 'Phase 2',
        lines: [line('Development', 3, 80_000)],
      })
    ).invoice;
    const other = (await create('client', 'create-client', { name: 'Globex' })).client.id;
    otherClientInvoice = await send(
      (
        await create('payment', 'create-invoice', {
          clientId: other,
          currency: 'EUR',
          lines: [line('Other work', 1, 1_000)],
        })
      ).invoice.id,
    );
    session = await openPortalSession(me, projectId);
    cookie = session.cookie;
  });
  afterAll(async () => {
    await me.t.cleanup();
  });

  it('gives the member a PDF holding every line, amount and total of the invoice', async () => {
    const response = await memberPdf(sent.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toContain(
      `filename="Invoice-${String(sent.number).padStart(4, '0')}.pdf"`,
    );
    const bytes = await response.arrayBuffer();
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const doc = await documentOf(sent.id);
    expect(doc.lines).toHaveLength(3);
    expect(doc.totals.map((row) => row.label)).toEqual([
      'Subtotal',
      'Discount',
      'Tax',
      'Total',
      'Paid',
      'Balance due',
    ]);
    const text = await pdfText(bytes);
    expectAllOf(doc, text);
    expect(text).toContain('1 Harbour Street');
    expect(text).toContain('Bank transfer to IBAN');
    expect(text).not.toContain('Draft');
  });

  it('marks a draft Draft', async () => {
    const response = await memberPdf(draft.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toContain('Invoice-draft.pdf');
    const text = await pdfText(await response.arrayBuffer());
    expect(text).toContain('Draft');
    expectAllOf(await documentOf(draft.id), text);
  });

  it('gives the client the same PDF of their own sent invoice in the portal', async () => {
    const response = await portalPdf(sent.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const text = await pdfText(await response.arrayBuffer());
    // The portal judges state on UTC's day, like its list.
    expectAllOf(await documentOf(sent.id, new Date().toISOString().slice(0, 10)), text);
  });

  it('refuses another client’s invoice, a draft and an unknown id in the portal alike', async () => {
    const answers = await Promise.all(
      [otherClientInvoice.id, draft.id, randomUUID()].map(async (id) => {
        const response = await portalPdf(id);
        return { status: response.status, body: (await response.json()) as Json };
      }),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body.error.message).toBe(answers[0]!.body.error.message);
    }
    const noSession = await me.t.app.request(
      `/api/client-portal?endpoint=get-invoice-pdf&projectId=${projectId}&invoiceId=${sent.id}`,
    );
    expect(noSession.status).toBe(401);
  });

  it('refuses another workspace’s member, as if the invoice did not exist', async () => {
    const stranger = newTestUser('eve');
    const token = await me.tokens.sign(stranger);
    const registered = await me.t.app.request(
      '/api/register?endpoint=register-user',
      jsonRequest(
        'POST',
        { id: stranger.id, email: stranger.email, firstName: 'Eve' },
        bearer(token),
      ),
    );
    expect(registered.status).toBe(200);
    const theirs = await memberPdf(sent.id, token);
    expect(theirs.status).toBe(404);
    const missing = await memberPdf(randomUUID(), token);
    expect(missing.status).toBe(404);
    expect(((await theirs.json()) as Json).error.message).toBe(
      ((await missing.json()) as Json).error.message,
    );
    const signedOut = await me.t.app.request(`/api/payment?endpoint=get-invoice-pdf&id=${sent.id}`);
    expect(signedOut.status).toBe(401);
  });
});
