// A client's invoices in the portal and paying one by card, through the app and Stripe's webhook
// (the real `stripe` library against the local fake of tests/fixtures/fake-stripe.ts): only the
// client's sent invoices of the session's project are listed (viewed on first sight), a Checkout
// for exactly what is due, tagged for the invoices module; the paid session recorded once as a
// `stripe` payment however often Stripe delivers it, members told; another client's invoice and
// an unpaid session change nothing; without Stripe, paying is a 503.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvoiceEventHandler } from '../../server/endpoints/portal-invoices.ts';
import { createStripeEventHandlers } from '../../server/stripe/stripe-event-handlers.ts';
import { createStripeGateway } from '../../server/stripe/stripe-gateway.ts';
import { startFakeStripe, type FakeStripe } from '../fixtures/fake-stripe.ts';
import { openPortalSession, type PortalSession } from '../fixtures/portal-session.ts';
import { createRegisteredUserApp, type RegisteredUserApp } from '../fixtures/registered-user.ts';

type Json = Record<string, any>;

const newInvoiceLine = (values: { description: string; unitPrice: number }) => ({
  id: randomUUID(),
  quantity: 1,
  taxRate: 0,
  discountPercent: 0,
  milestoneId: null,
  changeRequestId: null,
  ...values,
});
const WEBHOOK_SECRET = 'whsec_invoices';

describe('portal invoices and card payments', { timeout: 60_000 }, () => {
  let fake: FakeStripe;
  let me: RegisteredUserApp;
  let session: PortalSession;
  let projectId = '';
  let otherProjectId = '';
  let clientId = '';
  const told: Json[] = [];
  const invalidated: Json[] = [];

  const create = async (resource: string, operation: string, body: Json) => {
    const answer = await me.call('POST', `/api/${resource}?endpoint=${operation}`, {
      id: randomUUID(),
      workspaceId: me.workspaceId,
      ...body,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  };
  const sentInvoice = async (body: Json) => {
    const draft = (
      await create('payment', 'create-invoice', {
        clientId,
        currency: 'EUR',
        lines: [newInvoiceLine({ description: 'Design', unitPrice: 50_000 })],
        ...body,
      })
    ).invoice;
    const sent = await me.call('POST', `/api/payment?endpoint=send-invoice&id=${draft.id}`, {});
    expect(sent.status).toBe(200);
    return sent.body.invoice as Json;
  };
  const portal = (method: string, url: string, body?: unknown) => session.call(method, url, body);
  const deliver = async (type: string, object: Json, id?: string) => {
    const event = fake.signedEvent(type, object, id ? { id } : {});
    const response = await me.t.app.request('/api/stripe/webhook', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': event.signature },
      body: event.payload,
    });
    return response.status;
  };
  const stripePayments = async (invoiceId: string) =>
    (
      await me.t.db.query<Json>(
        "SELECT amount::int AS amount, method FROM invoice_payment WHERE invoice_id = $1 AND method = 'stripe'",
        [invoiceId],
      )
    ).rows;

  beforeAll(async () => {
    fake = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET });
    const stripe = createStripeGateway({
      secretKey: 'sk_test_invoices',
      webhookSecret: WEBHOOK_SECRET,
      prices: [],
      apiBase: { protocol: 'http', host: '127.0.0.1', port: fake.port },
    });
    me = await createRegisteredUserApp({
      stripe,
      publicUrl: 'https://satchel.example',
      stripeEventHandlers: {
        ...createStripeEventHandlers(),
        invoice: createInvoiceEventHandler({
          notifications: {
            createNotification: (_scope, input) => {
              told.push(input);
              return Promise.resolve({} as never);
            },
          },
          publisher: {
            publishTablesInvalidated: (change) => Promise.resolve(void invalidated.push(change)),
          },
        }),
      },
    });
    clientId = (await create('client', 'create-client', { name: 'Acme' })).client.id;
    projectId = (await create('project', 'create-project', { clientId, name: 'Site' })).project.id;
    const other = (await create('client', 'create-client', { name: 'Globex' })).client.id;
    otherProjectId = (await create('project', 'create-project', { clientId: other, name: 'App' }))
      .project.id;
    session = await openPortalSession(me, projectId);
    await me.t.db.query(
      `INSERT INTO workspace_subscription (workspace_id, plan_id, billing_interval, status, stripe_customer_id, stripe_subscription_id)
       VALUES ($1, 'pro', 'month', 'active', 'cus_invoices', 'sub_invoices')`,
      [me.workspaceId],
    );
  });
  afterAll(async () => {
    await me.t.cleanup();
    await fake.close();
  });

  it('on the Free plan, offers no card payment: invoices not payable, paying a 422 with no Checkout made', async () => {
    await me.t.db.query('DELETE FROM workspace_subscription WHERE workspace_id = $1', [
      me.workspaceId,
    ]);
    try {
      const invoice = await sentInvoice({ projectId });
      const listed = await portal(
        'GET',
        `/api/client-portal?endpoint=get-invoices&projectId=${projectId}`,
      );
      expect(listed.status).toBe(200);
      const shown = listed.body.invoices.find((item: Json) => item.id === invoice.id);
      expect(shown).toMatchObject({ due: 50_000, payable: false });
      const before = fake.requests.length;
      const paying = await portal('POST', '/api/client-portal?endpoint=pay-invoice', {
        projectId,
        invoiceId: invoice.id,
      });
      expect(paying.status).toBe(422);
      expect(paying.body.error).toMatchObject({
        code: 'BUSINESS_RULE',
        message: 'This workspace does not take card payments. Pay as the invoice says.',
      });
      expect(fake.requests.length).toBe(before);
      // Gone again, so the tests below list only their own invoices.
      await me.t.db.query('DELETE FROM invoice WHERE id = $1', [invoice.id]);
    } finally {
      await me.t.db.query(
        `INSERT INTO workspace_subscription (workspace_id, plan_id, billing_interval, status, stripe_customer_id, stripe_subscription_id)
         VALUES ($1, 'pro', 'month', 'active', 'cus_invoices', 'sub_invoices')`,
        [me.workspaceId],
      );
    }
  });

  it('lists the client’s sent invoices of this project, never drafts or another client’s', async () => {
    const mine = await sentInvoice({ projectId });
    const unlinked = await sentInvoice({});
    await create('payment', 'create-invoice', { clientId, projectId, currency: 'EUR' }); // a draft
    const otherClient = (
      await create('payment', 'create-invoice', {
        clientId: (
          await me.t.db.query<Json>('SELECT client_id FROM project WHERE id = $1', [otherProjectId])
        ).rows[0]!.client_id,
        projectId: otherProjectId,
        currency: 'EUR',
        lines: [newInvoiceLine({ description: 'X', unitPrice: 1 })],
      })
    ).invoice;
    await me.call('POST', `/api/payment?endpoint=send-invoice&id=${otherClient.id}`, {});

    const { status, body } = await portal(
      'GET',
      `/api/client-portal?endpoint=get-invoices&projectId=${projectId}`,
    );
    expect(status).toBe(200);
    expect(body.invoices.map((invoice: Json) => invoice.id).sort()).toEqual(
      [mine.id, unlinked.id].sort(),
    );
    expect(body.invoices[0]).toMatchObject({
      total: 50_000,
      paid: 0,
      due: 50_000,
      payable: true,
      state: 'viewed',
    });
    expect(body.invoices[0]).not.toHaveProperty('createdBy');
    const viewed = await me.t.db.query<Json>('SELECT viewed_at FROM invoice WHERE id = $1', [
      mine.id,
    ]);
    expect(viewed.rows[0]!.viewed_at).not.toBeNull();

    const foreign = await portal('POST', '/api/client-portal?endpoint=pay-invoice', {
      projectId,
      invoiceId: otherClient.id,
    });
    expect(foreign.status).toBe(403);
    const noSession = await me.t.app.request(
      `/api/client-portal?endpoint=get-invoices&projectId=${projectId}`,
    );
    expect(noSession.status).toBe(401);
  });

  it('pays what is due through Checkout, recorded once however often Stripe delivers it', async () => {
    const invoice = await sentInvoice({ projectId });
    // A part paid by bank transfer first: Checkout asks for the rest only.
    await create('payment', 'create-invoice-payment', {
      invoiceId: invoice.id,
      amount: 20_000,
      paidOn: '2026-11-20',
    });
    const before = fake.requests.length;
    const made = await portal('POST', '/api/client-portal?endpoint=pay-invoice', {
      projectId,
      invoiceId: invoice.id,
    });
    expect(made.status).toBe(200);
    const sent = fake.requests.slice(before)[0]!;
    expect(sent.body).toMatchObject({
      mode: 'payment',
      metadata: { kind: 'invoice', invoiceId: invoice.id, workspaceId: me.workspaceId },
      line_items: [{ quantity: '1', price_data: { currency: 'eur', unit_amount: '30000' } }],
    });
    expect(sent.idempotencyKey).toMatch(new RegExp(`^invoice:${invoice.id}:30000:`));
    const sessionId = /\/checkout\/(cs_test_\w+)$/.exec(made.body.url as string)![1]!;

    // Before paying, the completed-looking event changes nothing: Stripe says unpaid.
    expect(await deliver('checkout.session.completed', fake.sessions.get(sessionId)!)).toBe(200);
    expect(await stripePayments(invoice.id)).toEqual([]);

    const session = fake.completeCheckout(sessionId);
    expect(await deliver('checkout.session.completed', session)).toBe(200);
    expect(await deliver('checkout.session.completed', session)).toBe(200); // another event id
    expect(await deliver('checkout.session.async_payment_succeeded', session)).toBe(200);
    expect(await stripePayments(invoice.id)).toEqual([{ amount: 30_000, method: 'stripe' }]);
    expect(
      told.some(
        (note) => note.type === 'payment-recorded' && note.link === `/invoices/${invoice.id}`,
      ),
    ).toBe(true);
    expect(invalidated.at(-1)).toMatchObject({
      workspaceId: me.workspaceId,
      tables: ['invoicePayments'],
    });

    const listed = await portal(
      'GET',
      `/api/client-portal?endpoint=get-invoices&projectId=${projectId}`,
    );
    expect(listed.body.invoices.find((row: Json) => row.id === invoice.id)).toMatchObject({
      due: 0,
      state: 'paid',
      payable: false,
    });
    const again = await portal('POST', '/api/client-portal?endpoint=pay-invoice', {
      projectId,
      invoiceId: invoice.id,
    });
    expect(again.status).toBe(409);
  });

  it('keeps a second paid Checkout as an overpayment to refund, never dropped or paid twice', async () => {
    const invoice = await sentInvoice({ projectId });
    const open = async () => {
      const made = await portal('POST', '/api/client-portal?endpoint=pay-invoice', {
        projectId,
        invoiceId: invoice.id,
      });
      expect(made.status).toBe(200);
      return /\/checkout\/(cs_test_\w+)$/.exec(made.body.url as string)![1]!;
    };
    // Two tabs, two Checkouts for the same 500.00 due, both paid before either webhook lands.
    const first = fake.completeCheckout(await open());
    const second = fake.completeCheckout(await open());
    const noted = told.length;
    expect(await deliver('checkout.session.completed', first)).toBe(200);
    expect(await deliver('checkout.session.completed', second)).toBe(200);
    expect(await deliver('checkout.session.completed', second)).toBe(200); // Stripe retrying

    const recorded = (
      await me.t.db.query<Json>(
        'SELECT amount::int AS amount, reference FROM invoice_payment WHERE invoice_id = $1 ORDER BY reference',
        [invoice.id],
      )
    ).rows;
    expect(recorded).toHaveLength(2);
    // Both as Stripe charged them; the second says it is owed back.
    expect(recorded.map((row) => row.amount)).toEqual([50_000, 50_000]);
    expect(recorded.find((row) => row.reference.includes(second.id))!.reference).toBe(
      `Card payment (${second.id}) overpaid by €500.00: refund the excess`,
    );
    expect(recorded.find((row) => row.reference.includes(first.id))!.reference).toBe(
      `Card payment (${first.id})`,
    );
    const notes = told.slice(noted);
    expect(notes.map((note) => note.title)).toEqual([
      'Acme paid €500.00 on INV-' + String(invoice.number).padStart(4, '0'),
      'Acme paid €500.00 more than was due on INV-' + String(invoice.number).padStart(4, '0'),
    ]);
    expect(notes[1]).toMatchObject({
      type: 'payment-recorded',
      link: `/invoices/${invoice.id}`,
      body: 'Paid €500.00 by card, €0.00 was due. Refund €500.00 in Stripe, then record the refund on the invoice.',
    });
    const listed = async () =>
      (
        await portal('GET', `/api/client-portal?endpoint=get-invoices&projectId=${projectId}`)
      ).body.invoices.find((row: Json) => row.id === invoice.id);
    expect(await listed()).toMatchObject({ state: 'paid', paid: 100_000, due: 0, payable: false });

    // The member refunds the excess in Stripe and records it: back to exactly what was billed.
    await create('payment', 'create-invoice-payment', {
      invoiceId: invoice.id,
      kind: 'refund',
      amount: 50_000,
      method: 'card',
      paidOn: '2026-11-21',
    });
    expect(await listed()).toMatchObject({ state: 'paid', paid: 50_000, due: 0 });
  });

  it('keeps a payment that reaches a void invoice, void, with the members told to refund it', async () => {
    const invoice = await sentInvoice({ projectId });
    const made = await portal('POST', '/api/client-portal?endpoint=pay-invoice', {
      projectId,
      invoiceId: invoice.id,
    });
    const sessionId = /\/checkout\/(cs_test_\w+)$/.exec(made.body.url as string)![1]!;
    // The member voids it while the client is on the Checkout page.
    const voided = await me.call('PATCH', `/api/payment?endpoint=update-invoice&id=${invoice.id}`, {
      status: 'void',
    });
    expect(voided.status).toBe(200);
    const refused = await portal('POST', '/api/client-portal?endpoint=pay-invoice', {
      projectId,
      invoiceId: invoice.id,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe('This invoice is void.');

    const noted = told.length;
    const session = fake.completeCheckout(sessionId);
    expect(await deliver('checkout.session.completed', session)).toBe(200);
    expect(await deliver('checkout.session.async_payment_succeeded', session)).toBe(200);
    const number = 'INV-' + String(invoice.number).padStart(4, '0');
    expect(
      (
        await me.t.db.query<Json>(
          'SELECT amount::int AS amount, method, reference FROM invoice_payment WHERE invoice_id = $1',
          [invoice.id],
        )
      ).rows,
    ).toEqual([
      {
        amount: 50_000,
        method: 'stripe',
        reference: `Card payment (${session.id}) arrived after ${number} was voided: refund it`,
      },
    ]);
    const status = await me.t.db.query<Json>('SELECT status FROM invoice WHERE id = $1', [
      invoice.id,
    ]);
    expect(status.rows[0]!.status).toBe('void');
    expect(told.slice(noted)).toEqual([
      expect.objectContaining({
        type: 'payment-recorded',
        title: `Acme paid €500.00 on ${number}, which is void`,
        body: 'Refund €500.00 in Stripe, then record the refund on the invoice.',
        link: `/invoices/${invoice.id}`,
      }),
    ]);
    const listed = await portal(
      'GET',
      `/api/client-portal?endpoint=get-invoices&projectId=${projectId}`,
    );
    expect(listed.body.invoices.find((row: Json) => row.id === invoice.id)).toMatchObject({
      state: 'void',
      due: 0,
      payable: false,
    });

    // Only a refund is taken on a void invoice, up to what reached it.
    const payment = (body: Json) =>
      me.call('POST', '/api/payment?endpoint=create-invoice-payment', {
        id: randomUUID(),
        workspaceId: me.workspaceId,
        invoiceId: invoice.id,
        method: 'card',
        paidOn: '2026-11-21',
        ...body,
      });
    expect((await payment({ amount: 100 })).status).toBe(422);
    expect((await payment({ kind: 'refund', amount: 50_001 })).status).toBe(422);
    expect((await payment({ kind: 'refund', amount: 50_000 })).status).toBe(200);
  });
});
