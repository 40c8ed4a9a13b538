// The invoice PDF, through the app (PGlite, the real renderer, text read back with pdfjs): the
// member's call and the portal's both answer application/pdf named like Invoice-0001.pdf, and the
// PDF's text holds every line, amount and total of the same view model the web views render, the
// workspace's address and the client's; the workspace's logo is an image in it when it is an
// inline PNG (none without one, none for a web address: the server fetches nothing); a draft says
// Draft; another workspace's invoice, another client's, a draft and an unknown id are refused
// with the contract's 404.
import { randomUUID } from 'node:crypto';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
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
/** How many images the PDF paints, counted from its pages' drawing operators. */
async function paintedImages(bytes: ArrayBuffer): Promise<number> {
  // A copy: pdfjs takes the buffer it is given over (detaches it).
  const pdf = await getDocument({ data: new Uint8Array(bytes.slice(0)), isEvalSupported: false })
    .promise;
  let count = 0;
  for (let page = 1; page <= pdf.numPages; page += 1) {
    const { fnArray } = await (await pdf.getPage(page)).getOperatorList();
    count += fnArray.filter(
      (op) => op === OPS.paintImageXObject || op === OPS.paintInlineImageXObject,
    ).length;
  }
  await pdf.destroy();
  return count;
}
/** A 1x1 PNG. */
const PNG_LOGO =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

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

  it('embeds the workspace’s own PNG logo, and no image without one or for a web address', async () => {
    const setLogo = (logoUrl: string | null) =>
      me.call(
        'PATCH',
        `/api/workspace?endpoint=update-workspace-settings&workspaceId=${me.workspaceId}`,
        { logoUrl },
      );
    const pdfBytes = async () => {
      const response = await memberPdf(sent.id);
      expect(response.status).toBe(200);
      return response.arrayBuffer();
    };
    const hasImageXObject = (bytes: ArrayBuffer) =>
      Buffer.from(bytes).toString('latin1').includes('/Subtype /Image');

    const none = await pdfBytes();
    expect(await paintedImages(none)).toBe(0);
    expect(hasImageXObject(none)).toBe(false);

    // A web address is kept for the portal but never fetched: the PDF has no image.
    expect((await setLogo('https://127.0.0.1/logo.png')).status).toBe(200);
    const web = await pdfBytes();
    expect(await paintedImages(web)).toBe(0);
    expect(hasImageXObject(web)).toBe(false);

    // What the contract refuses is refused with its 400 shape, and nothing is stored.
    const svg = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')}`;
    for (const [value, message] of [
      [svg, 'A logo is a PNG or JPEG image'],
      ['javascript:alert(1)', 'A logo is an https:// address or a PNG or JPEG image'],
      ['data:image/png;base64,iVBO*w0KGgo=', 'The logo’s image data is not valid base64'],
    ] as const) {
      const refused = await setLogo(value);
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.error).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: [{ path: 'body.logoUrl', message }],
      });
    }
    const stored = await me.t.db.query<Json>('SELECT logo_url FROM workspace WHERE id = $1', [
      me.workspaceId,
    ]);
    expect(stored.rows[0]!.logo_url).toBe('https://127.0.0.1/logo.png');

    const saved = await setLogo(PNG_LOGO);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.workspace.logoUrl).toBe(PNG_LOGO);
    const withLogo = await pdfBytes();
    expect(await paintedImages(withLogo)).toBe(1);
    expect(hasImageXObject(withLogo)).toBe(true);
    // The text is unchanged by the logo.
    expectAllOf(await documentOf(sent.id), await pdfText(withLogo));
    // The client's copy from the portal carries it too.
    const portal = await portalPdf(sent.id);
    expect(portal.status).toBe(200);
    expect(await paintedImages(await portal.arrayBuffer())).toBe(1);

    expect((await setLogo(null)).status).toBe(200);
    expect(await paintedImages(await pdfBytes())).toBe(0);
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
