// Invoices and payments through the real HTTP server, on PGlite and on PostgreSQL: drafts with
// lines, the bad input the issue lists (400, nothing stored), sending (the workspace's next
// number, gap-free under concurrent sends, dates from the terms, the client's mail), a sent
// invoice fixed (edit 422, delete 422, void), payments and refunds against what is due and paid,
// and another workspace's member refused.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../contract/entities/invoice.ts';
import { amountPaid, invoiceState, invoiceTotals } from '../../contract/entities/invoice-totals.ts';
import type { Database } from '../../server/db/database.ts';
import { runMigrations } from '../../server/db/migrate.ts';
import { createPostgresDatabase } from '../../server/db/postgres-database.ts';
import type { MailMessage } from '../../server/mail/mailer.ts';
import { createScratchDatabase } from '../fixtures/scratch-postgres.ts';
import { createTestTokens } from '../fixtures/test-tokens.ts';
import {
  call,
  registerMember,
  startHubServer,
  type HubServer,
  type Member,
} from './realtime-harness.ts';

type Json = Record<string, any>;
type PaymentRow = Json & { kind: 'payment' | 'refund'; amount: number };

const line = (overrides: Json = {}) => ({
  id: randomUUID(),
  description: 'Design',
  quantity: 1,
  unitPrice: 10_000,
  taxRate: 0,
  discountPercent: 0,
  milestoneId: null,
  changeRequestId: null,
  ...overrides,
});

export function describeInvoices(label: string, options: { postgresUrl?: string }) {
  describe(`invoices on ${label}`, { timeout: 60_000 }, () => {
    let server: HubServer;
    let ada: Member;
    let eve: Member;
    let workspaceId: string;
    let clientId: string;
    let projectId: string;
    let otherClientProjectId: string;
    const mails: MailMessage[] = [];
    let drop: (() => Promise<void>) | null = null;

    const as = (member: Member, method: string, path: string, body?: unknown) =>
      call(server, path, { method, token: member.token, ...(body === undefined ? {} : { body }) });
    const draft = (body: Json = {}) =>
      as(ada, 'POST', '/api/payment?endpoint=create-invoice', {
        id: randomUUID(),
        workspaceId,
        clientId,
        currency: 'EUR',
        lines: [line()],
        ...body,
      });
    const send = (id: string, body: Json = {}, member = ada) =>
      as(member, 'POST', `/api/payment?endpoint=send-invoice&id=${id}`, body);
    const pay = (invoiceId: string, body: Json) =>
      as(ada, 'POST', '/api/payment?endpoint=create-invoice-payment', {
        id: randomUUID(),
        workspaceId,
        invoiceId,
        paidOn: '2026-11-20',
        ...body,
      });
    const invoices = async () =>
      (await as(ada, 'GET', `/api/payment?endpoint=get-invoices&workspaceId=${workspaceId}`)).body
        .invoices as Json[];
    const payments = async (invoiceId: string): Promise<PaymentRow[]> =>
      (
        (
          await as(
            ada,
            'GET',
            `/api/payment?endpoint=get-invoice-payments&workspaceId=${workspaceId}`,
          )
        ).body.payments as Json[]
      ).filter((payment) => payment.invoiceId === invoiceId) as PaymentRow[];

    beforeAll(async () => {
      const tokens = await createTestTokens();
      let db: Database | undefined;
      if (options.postgresUrl) {
        const scratch = await createScratchDatabase(options.postgresUrl);
        drop = () => scratch.drop();
        db = await createPostgresDatabase({ connectionString: scratch.url });
        await runMigrations(db);
      }
      server = await startHubServer({
        tokens,
        ...(db ? { db } : {}),
        mailer: { send: (message) => Promise.resolve(void mails.push(message)) },
      });
      ada = await registerMember(server, tokens, 'ada');
      eve = await registerMember(server, tokens, 'eve');
      workspaceId = ada.workspaceId;
      const create = async (resource: string, operation: string, body: Json) =>
        (
          await as(ada, 'POST', `/api/${resource}?endpoint=${operation}`, {
            id: randomUUID(),
            workspaceId,
            ...body,
          })
        ).body;
      clientId = (await create('client', 'create-client', { name: 'Acme', email: 'pay@acme.test' }))
        .client.id;
      projectId = (await create('project', 'create-project', { clientId, name: 'Site' })).project
        .id;
      const otherClient = (await create('client', 'create-client', { name: 'Globex' })).client.id;
      otherClientProjectId = (
        await create('project', 'create-project', { clientId: otherClient, name: 'App' })
      ).project.id;
    });
    afterAll(async () => {
      await server.stop();
      if (drop) {
        await server.db.close();
        await drop();
      }
    });

    it('keeps a draft with its lines, without a number, and totals it per line', async () => {
      const { status, body } = await draft({
        projectId,
        lines: [
          line({ quantity: 1.5, unitPrice: 3333, taxRate: 20, discountPercent: 10 }),
          line({ description: 'Hosting', quantity: 3, unitPrice: 999, taxRate: 8.875 }),
        ],
      });
      expect(status).toBe(200);
      expect(body.invoice).toMatchObject({
        status: 'draft',
        number: null,
        currency: 'EUR',
        projectId,
        paymentTerms: 'net_30',
        sentAt: null,
      });
      // 1.5 × 3333 = 4999.5 → 5000; −10 % = 500 → 4500; +20 % = 900. 3 × 999 = 2997; 8.875 % = 265.98 → 266.
      expect(invoiceTotals(body.invoice.lines)).toEqual({
        subtotal: 7997,
        discount: 500,
        net: 7497,
        tax: 1166,
        total: 8663,
      });
    });

    it('reports no conflict for a lines edit based on the stored lines, whatever their key order', async () => {
      const first = line({ description: 'Design', quantity: 12, unitPrice: 1_250_075 });
      const created = (await draft({ lines: [first] })).body.invoice as Json;
      const clientId = `laptop-${randomUUID()}`;
      let clientSeq = 0;
      const edit = (lines: Json[], seen: Json[]) =>
        call(server, '/api/sync?endpoint=push', {
          method: 'POST',
          token: ada.token,
          body: {
            clientId,
            mutations: [
              {
                mutationId: randomUUID(),
                clientSeq: (clientSeq += 1),
                resource: 'payment',
                operation: 'update-invoice',
                query: { id: created.id },
                body: { lines },
                baseValues: { lines: seen },
              },
            ],
          },
        });
      // The device saw the lines as it sent them; jsonb stores their keys in another order.
      const reversed = (value: Json) => Object.fromEntries(Object.entries(value).reverse());
      const taxed = { ...first, taxRate: 19 };
      const one = await edit([taxed], [reversed(first)]);
      expect(one.body.results[0].status).toBe(200);
      expect(one.body.results[0].conflict).toBeUndefined();
      // A base that really differs (another device changed the lines) still is one.
      const two = await edit([{ ...taxed, discountPercent: 5 }], [first]);
      expect(two.body.results[0].status).toBe(200);
      expect(two.body.results[0].conflict).toMatchObject({ fields: ['lines'] });
    });

    it('refuses the bad input the issue lists with 400 and stores nothing', async () => {
      const before = (await invoices()).length;
      const cases: [Json, string][] = [
        [{ lines: [line({ quantity: -1 })] }, 'body.lines.0.quantity'],
        [{ lines: [line({ unitPrice: 1e20 })] }, 'body.lines.0.unitPrice'],
        [{ lines: [line({ unitPrice: 12.5 })] }, 'body.lines.0.unitPrice'],
        [{ currency: 'ABC' }, 'body.currency'],
        [{ lines: [line({ taxRate: 500 })] }, 'body.lines.0.taxRate'],
        [{ lines: [line({ discountPercent: -5 })] }, 'body.lines.0.discountPercent'],
        [{ issueDate: '2026-12-10', dueDate: '2026-12-01' }, 'body.dueDate'],
        // Each factor within its limit, their product past 2^53 (gross − discount ≠ net there).
        [
          {
            lines: [
              line({ quantity: 999_999.999, unitPrice: 999_999_999_999, discountPercent: 99.99 }),
            ],
          },
          'body.lines.0.unitPrice',
        ],
        // Two lines at the limit, fully discounted: a total of 0 from a subtotal of 2e15.
        [
          {
            lines: [1, 2].map(() =>
              line({ quantity: 1000, unitPrice: 1_000_000_000_000, discountPercent: 100 }),
            ),
          },
          'body.lines',
        ],
      ];
      for (const [body, path] of cases) {
        const response = await draft(body);
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(
          (response.body.error.details as Json[]).some((detail) => detail.path === path),
          `${path} in ${JSON.stringify(response.body.error.details)}`,
        ).toBe(true);
      }
      // The contract's error shape, naming the field and saying what is wrong in words.
      const huge = await draft({
        lines: [line({ quantity: 999_999.999, unitPrice: 999_999_999_999 })],
      });
      expect(huge.body.error).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: [
          {
            path: 'body.lines.0.unitPrice',
            message: 'Quantity × unit price is too large for one line',
          },
        ],
      });
      const wrongProject = await draft({ projectId: otherClientProjectId });
      expect(wrongProject.status).toBe(422);
      expect(wrongProject.body.error.details[0].path).toBe('body.projectId');
      expect((await invoices()).length).toBe(before);
    });

    it('sends a draft: the next number, dates from its terms, the client mailed', async () => {
      const created = (await draft({ paymentTerms: 'net_14', issueDate: '2026-11-02' })).body
        .invoice;
      mails.length = 0;
      const { status, body } = await send(created.id, { message: 'Thanks for the work!' });
      expect(status).toBe(200);
      expect(body.emailed).toBe(true);
      expect(body.invoice).toMatchObject({
        status: 'sent',
        number: expect.any(Number),
        issueDate: '2026-11-02',
        dueDate: addDays('2026-11-02', 14),
      });
      expect(body.invoice.sentAt).not.toBeNull();
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({ to: 'pay@acme.test' });
      expect(mails[0]?.subject).toContain(`INV-${String(body.invoice.number).padStart(4, '0')}`);
      expect(mails[0]?.text).toContain('Thanks for the work!');
      expect(mails[0]?.text).toContain('€100.00');

      const again = await send(created.id);
      expect(again.status).toBe(409);
      expect(again.body.error.message).toContain('already sent');
    });

    it('numbers concurrent sends 1 apart with no gaps or repeats', async () => {
      const drafts = await Promise.all(
        Array.from({ length: 8 }, async () => (await draft()).body.invoice.id as string),
      );
      const numbersBefore = (await invoices())
        .map((invoice) => invoice.number as number | null)
        .filter((number): number is number => number !== null);
      const highest = Math.max(0, ...numbersBefore);
      const results = await Promise.all(drafts.map((id) => send(id)));
      expect(results.map((result) => result.status)).toEqual(drafts.map(() => 200));
      const numbers = results
        .map((result) => result.body.invoice.number as number)
        .sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: 8 }, (_, index) => highest + index + 1));
    });

    it('refuses a stale send, an empty one and one without a due date', async () => {
      const created = (await draft()).body.invoice;
      await as(ada, 'PATCH', `/api/payment?endpoint=update-invoice&id=${created.id}`, {
        title: 'Changed elsewhere',
      });
      const stale = await send(created.id, { version: created.version });
      expect(stale.status).toBe(409);
      const empty = (await draft({ lines: [] })).body.invoice;
      expect((await send(empty.id)).status).toBe(422);
      const custom = (await draft({ paymentTerms: 'custom' })).body.invoice;
      const noDue = await send(custom.id);
      expect(noDue.status).toBe(422);
      expect(noDue.body.error.details[0].path).toBe('body.dueDate');
      const [after] = (await invoices()).filter((invoice) => invoice.id === custom.id);
      expect(after).toMatchObject({ status: 'draft', number: null });
    });

    it('keeps a sent invoice as sent: no edits, no delete, void only', async () => {
      const sent = (await send((await draft()).body.invoice.id)).body.invoice;
      const edit = await as(ada, 'PATCH', `/api/payment?endpoint=update-invoice&id=${sent.id}`, {
        lines: [line({ unitPrice: 1 })],
      });
      expect(edit.status).toBe(422);
      expect(edit.body.error.message).toContain('void it and issue a new one');
      const back = await as(ada, 'PATCH', `/api/payment?endpoint=update-invoice&id=${sent.id}`, {
        status: 'draft',
      });
      expect(back.status).toBe(422);
      const remove = await as(ada, 'DELETE', `/api/payment?endpoint=delete-invoice&id=${sent.id}`);
      expect(remove.status).toBe(422);
      const [kept] = (await invoices()).filter((invoice) => invoice.id === sent.id);
      expect(kept?.lines).toEqual(sent.lines);

      const voided = await as(ada, 'PATCH', `/api/payment?endpoint=update-invoice&id=${sent.id}`, {
        status: 'void',
      });
      expect(voided.status).toBe(200);
      expect(voided.body.invoice.status).toBe('void');
      const afterVoid = await as(
        ada,
        'PATCH',
        `/api/payment?endpoint=update-invoice&id=${sent.id}`,
        {
          title: 'Again',
        },
      );
      expect(afterVoid.status).toBe(409);

      const draftOnly = (await draft()).body.invoice;
      const voidDraft = await as(
        ada,
        'PATCH',
        `/api/payment?endpoint=update-invoice&id=${draftOnly.id}`,
        { status: 'void' },
      );
      expect(voidDraft.status).toBe(422);
      const deleteDraft = await as(
        ada,
        'DELETE',
        `/api/payment?endpoint=delete-invoice&id=${draftOnly.id}`,
      );
      expect(deleteDraft.status).toBe(200);
    });

    it('records payments up to what is due and refunds up to what was paid', async () => {
      const unsent = (await draft()).body.invoice;
      const early = await pay(unsent.id, { amount: 100 });
      expect(early.status).toBe(422);
      expect(early.body.error.message).toContain('Send the invoice');

      const sent = (await send(unsent.id)).body.invoice;
      const total = invoiceTotals(sent.lines).total; // 10,000
      expect((await pay(sent.id, { amount: total + 1 })).status).toBe(422);
      expect((await pay(sent.id, { amount: 0 })).status).toBe(400);
      expect((await pay(sent.id, { amount: 100, method: 'stripe' })).status).toBe(422);
      expect((await pay(sent.id, { amount: 4_000, method: 'cash' })).status).toBe(200);
      expect((await pay(sent.id, { kind: 'refund', amount: 4_001 })).status).toBe(422);
      const state = async () =>
        invoiceState(
          { ...sent, total, paid: amountPaid(await payments(sent.id)) },
          sent.issueDate as string,
        );
      expect(await state()).toBe('partly_paid');
      expect((await pay(sent.id, { amount: 6_000 })).status).toBe(200);
      expect(await state()).toBe('paid');
      expect((await pay(sent.id, { amount: 1 })).status).toBe(422);
      const voidPaid = await as(
        ada,
        'PATCH',
        `/api/payment?endpoint=update-invoice&id=${sent.id}`,
        {
          status: 'void',
        },
      );
      expect(voidPaid.status).toBe(422);
      expect((await pay(sent.id, { kind: 'refund', amount: 6_000 })).status).toBe(200);
      expect(await state()).toBe('partly_paid');
      expect(amountPaid(await payments(sent.id))).toBe(4_000);
    });

    it('keeps a client with sent invoices and unlinks a deleted project’s invoices', async () => {
      const refused = await as(
        ada,
        'DELETE',
        `/api/client?endpoint=delete-client&id=${clientId}&cascade=true`,
      );
      expect(refused.status).toBe(422);
      expect(refused.body.error.message).toContain('sent invoice');
      const linked = (await draft({ projectId })).body.invoice;
      const removed = await as(
        ada,
        'DELETE',
        `/api/project?endpoint=delete-project&id=${projectId}&cascade=true`,
      );
      expect(removed.status).toBe(200);
      const [after] = (await invoices()).filter((invoice) => invoice.id === linked.id);
      expect(after?.projectId).toBeNull();
      expect(after?.version).toBeGreaterThan(linked.version);
    });

    it('answers another workspace’s member as if the invoice did not exist', async () => {
      const created = (await draft()).body.invoice;
      const foreign = await send(created.id, {}, eve);
      expect(foreign.status).toBe(404);
      const foreignPay = await as(eve, 'POST', '/api/payment?endpoint=create-invoice-payment', {
        id: randomUUID(),
        workspaceId: eve.workspaceId,
        invoiceId: created.id,
        amount: 100,
        paidOn: '2026-11-20',
      });
      expect([403, 404, 422]).toContain(foreignPay.status);
      const [still] = (await invoices()).filter((invoice) => invoice.id === created.id);
      expect(still).toMatchObject({ status: 'draft', number: null });
    });
  });
}
