// The workspace's own subscription through the API and Stripe's webhook, on PGlite and on
// PostgreSQL, against a local fake of Stripe's endpoints (tests/fixtures/fake-stripe.ts) reached
// by the real `stripe` library over HTTP: signatures (good, wrong, tampered, outside the 300 s
// tolerance, absent), each event applied once, events out of order converging on Stripe's state,
// events naming nothing of ours, Checkout and portal sessions (form bodies, Idempotency-Key),
// roles, plan limits following the plan, and the server without Stripe.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonRequest } from '../fixtures/create-test-app.ts';
import { startFakeStripe, type FakeStripe } from '../fixtures/fake-stripe.ts';
import { createRegisteredUserApp, type RegisteredUserApp } from '../fixtures/registered-user.ts';
import { bearer, newTestUser } from '../fixtures/test-tokens.ts';
import { requireMemberRoom } from '../../server/endpoints/plan-limits.ts';
import { requireStorageRoom } from '../../server/files/file-records.ts';
import { createStripeEventHandlers } from '../../server/stripe/stripe-event-handlers.ts';
import { createStripeGateway } from '../../server/stripe/stripe-gateway.ts';

type Json = Record<string, any>;

const WEBHOOK_SECRET = 'whsec_suite';

export function describeSubscriptions(label: string, options: { postgresUrl?: string }) {
  describe(`subscriptions on ${label}`, { timeout: 60_000 }, () => {
    let fake: FakeStripe;
    let me: RegisteredUserApp;
    /** Workspaces the hub was told about (subscriptionChanged), in order. */
    const announced: string[] = [];

    const subscriptionOf = async (who: RegisteredUserApp = me) =>
      (
        await who.call(
          'GET',
          `/api/subscription?endpoint=get-subscription&workspaceId=${who.workspaceId}`,
        )
      ).body;
    const checkout = (body: Json, who: RegisteredUserApp = me, workspaceId = who.workspaceId) =>
      who.call(
        'POST',
        `/api/subscription?endpoint=create-checkout-session&workspaceId=${workspaceId}`,
        body,
      );
    const deliver = async (
      delivery: { payload: string; signature?: string },
      who: RegisteredUserApp = me,
    ) => {
      const response = await who.t.app.request('/api/stripe/webhook', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(delivery.signature ? { 'Stripe-Signature': delivery.signature } : {}),
        },
        body: delivery.payload,
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as Json };
    };
    const storedEvents = async () =>
      (await me.t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM stripe_event')).rows[0]!
        .n;
    const row = async (workspaceId = me.workspaceId) =>
      (
        await me.t.db.query<Json>('SELECT * FROM workspace_subscription WHERE workspace_id = $1', [
          workspaceId,
        ])
      ).rows[0] ?? null;
    const createProject = async (who: RegisteredUserApp, clientId: string, name: string) =>
      who.call('POST', '/api/project?endpoint=create-project', {
        id: randomUUID(),
        workspaceId: who.workspaceId,
        clientId,
        name,
      });
    let portalProjectId = '';
    let portalCookie = '';
    /** The branding the client portal of the workspace's first project shows now. */
    const portalBranding = async () => {
      if (!portalCookie) {
        const password = 'blue lagoon 42';
        const access = await me.call(
          'PATCH',
          `/api/project?endpoint=update-portal-access&id=${portalProjectId}`,
          { enabled: true, password },
        );
        expect(access.status).toBe(200);
        const entered = await me.t.app.request(
          '/api/client-portal?endpoint=authenticate',
          jsonRequest('POST', { projectId: portalProjectId, password }),
        );
        expect(entered.status).toBe(200);
        portalCookie = (entered.headers.get('set-cookie') ?? '').split(';')[0]!;
      }
      const settings = await me.t.app.request(
        `/api/client-portal?endpoint=get-workspace-settings&workspaceId=${me.workspaceId}`,
        { headers: { cookie: portalCookie } },
      );
      return ((await settings.json()) as Json).workspace.branding as string;
    };
    /** Checkout through the fake: the session the app made, paid, and its subscription. */
    const subscribe = async (plan = 'pro', interval = 'month', who = me) => {
      const made = await checkout({ plan, interval }, who);
      expect(made.status).toBe(200);
      const sessionId = /\/checkout\/(cs_test_\w+)$/.exec(made.body.url as string)![1]!;
      const session = fake.completeCheckout(sessionId);
      return { session, subscriptionId: session.subscription as string };
    };

    beforeAll(async () => {
      fake = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET });
      const stripe = createStripeGateway({
        secretKey: 'sk_test_suite',
        webhookSecret: WEBHOOK_SECRET,
        prices: [
          { planId: 'pro', interval: 'month', priceId: 'price_pro_month' },
          { planId: 'pro', interval: 'year', priceId: 'price_pro_year' },
          { planId: 'agency', interval: 'month', priceId: 'price_agency_month' },
        ],
        apiBase: { protocol: 'http', host: '127.0.0.1', port: fake.port },
      });
      me = await createRegisteredUserApp({
        ...options,
        stripe,
        publicUrl: 'https://satchel.example',
        stripeEventHandlers: createStripeEventHandlers({
          publisher: {
            publishSubscriptionChanged: (workspaceId) => {
              announced.push(workspaceId);
              return Promise.resolve();
            },
          },
        }),
      });
    });
    afterAll(async () => {
      await me.t.cleanup();
      await fake.close();
    });

    it('starts on Free with its usage, and says what Checkout can sell here', async () => {
      const got = await subscriptionOf();
      expect(got).toMatchObject({
        workspaceId: me.workspaceId,
        plan: 'free',
        subscription: null,
        paymentsConfigured: true,
        canManage: true,
        usage: {
          activeProjects: { used: 0, max: 2 },
          members: { used: 1, max: 1 },
          storageBytes: { used: 0, max: 1024 ** 3 },
        },
      });
      expect(got.onSale).toEqual([
        { plan: 'pro', interval: 'month' },
        { plan: 'pro', interval: 'year' },
        { plan: 'agency', interval: 'month' },
      ]);
    });

    it('makes a Checkout session with the form Stripe expects and an Idempotency-Key', async () => {
      const before = fake.requests.length;
      const made = await checkout({ plan: 'pro', interval: 'year' });
      expect(made.status).toBe(200);
      expect(made.body.url).toMatch(new RegExp(`^${fake.url}/checkout/cs_test_`));
      const sent = fake.requests.slice(before);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({
        method: 'POST',
        path: '/v1/checkout/sessions',
        authorization: 'Bearer sk_test_suite',
        body: {
          mode: 'subscription',
          line_items: [{ price: 'price_pro_year', quantity: '1' }],
          client_reference_id: me.workspaceId,
          metadata: {
            kind: 'subscription',
            workspaceId: me.workspaceId,
            plan: 'pro',
            interval: 'year',
          },
          subscription_data: { metadata: { workspaceId: me.workspaceId } },
          success_url:
            'https://satchel.example/subscription/success?session_id={CHECKOUT_SESSION_ID}',
          cancel_url: 'https://satchel.example/subscription/cancel',
        },
      });
      expect(sent[0]!.idempotencyKey).toMatch(
        new RegExp(`^checkout:${me.workspaceId}:pro:year:.+`),
      );
    });

    it('refuses what Checkout cannot sell: Free, an interval without a price, a bad plan', async () => {
      const before = fake.requests.length;
      const free = await checkout({ plan: 'free', interval: 'month' });
      expect(free.status).toBe(422);
      const noPrice = await checkout({ plan: 'agency', interval: 'year' });
      expect(noPrice.status).toBe(422);
      expect(noPrice.body.error.message).toBe('The Agency plan is not sold yearly on this server.');
      const bad = await checkout({ plan: 'platinum', interval: 'month' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('VALIDATION_FAILED');
      // Nothing reached Stripe.
      expect(fake.requests.length).toBe(before);
    });

    it('lets a member read the plan but not change it; a stranger sees nothing', async () => {
      const member = newTestUser('member');
      const stranger = newTestUser('stranger');
      const as = (user: typeof member) => async (method: string, url: string, body?: unknown) => {
        const headers = bearer(await me.tokens.sign(user));
        const response = await me.t.app.request(
          url,
          body === undefined ? { method, headers } : jsonRequest(method, body, headers),
        );
        return { status: response.status, body: (await response.json()) as Json };
      };
      for (const user of [member, stranger]) {
        await as(user)('POST', '/api/register?endpoint=register-user', {
          id: user.id,
          email: user.email,
          firstName: 'X',
        });
      }
      await me.t.db.query(
        "INSERT INTO workspace_member (workspace_id, user_id, role) VALUES ($1, $2, 'member')",
        [me.workspaceId, member.id],
      );
      const before = fake.requests.length;
      const read = await as(member)(
        'GET',
        `/api/subscription?endpoint=get-subscription&workspaceId=${me.workspaceId}`,
      );
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ canManage: false, usage: { members: { used: 2 } } });
      const buy = await as(member)(
        'POST',
        `/api/subscription?endpoint=create-checkout-session&workspaceId=${me.workspaceId}`,
        { plan: 'pro', interval: 'month' },
      );
      expect(buy.status).toBe(403);
      const portal = await as(member)(
        'POST',
        `/api/subscription?endpoint=create-portal-session&workspaceId=${me.workspaceId}`,
      );
      expect(portal.status).toBe(403);
      const peek = await as(stranger)(
        'GET',
        `/api/subscription?endpoint=get-subscription&workspaceId=${me.workspaceId}`,
      );
      expect(peek.status).toBe(403);
      expect(fake.requests.length).toBe(before);
      // An admin may.
      await me.t.db.query("UPDATE workspace_member SET role = 'admin' WHERE user_id = $1", [
        member.id,
      ]);
      const admin = await as(member)(
        'POST',
        `/api/subscription?endpoint=create-checkout-session&workspaceId=${me.workspaceId}`,
        { plan: 'pro', interval: 'month' },
      );
      expect(admin.status).toBe(200);
      await me.t.db.query('DELETE FROM workspace_member WHERE user_id = $1', [member.id]);
    });

    it('refuses a webhook with no, a wrong, a tampered or a stale signature, storing nothing', async () => {
      const { session } = await subscribe();
      const good = fake.signedEvent('checkout.session.completed', session);
      const cases = [
        { payload: good.payload },
        fake.signedEvent('checkout.session.completed', session, { secret: 'whsec_other' }),
        {
          payload: good.payload.replace('"active"', '"past_due"') + ' ',
          signature: good.signature,
        },
        fake.signedEvent('checkout.session.completed', session, {
          timestamp: Math.floor(Date.now() / 1000) - 301,
        }),
        { payload: 'not json', signature: good.signature },
      ];
      for (const delivery of cases) {
        const answer = await deliver(delivery);
        expect(answer.status).toBe(400);
        expect(answer.body.error).toMatchObject({ code: 'VALIDATION_FAILED' });
        expect(answer.body.error.message).toMatch(/Stripe-Signature/);
      }
      expect(await storedEvents()).toBe(0);
      expect(await row()).toBeNull();
      expect((await subscriptionOf()).plan).toBe('free');
    });

    it('applies a signed checkout.session.completed once: the plan and its limits follow', async () => {
      const clientId = randomUUID();
      await me.call('POST', '/api/client?endpoint=create-client', {
        id: clientId,
        workspaceId: me.workspaceId,
        name: 'Acme',
      });
      const one = await createProject(me, clientId, 'One');
      expect(one.status).toBe(200);
      portalProjectId = one.body.project.id as string;
      expect((await createProject(me, clientId, 'Two')).status).toBe(200);
      expect((await createProject(me, clientId, 'Three')).status).toBe(422);

      const { session, subscriptionId } = await subscribe('pro', 'month');
      const event = fake.signedEvent('checkout.session.completed', session);
      announced.length = 0;
      expect((await deliver(event)).status).toBe(200);
      // The workspace's open apps hear of it after the commit (the hub's subscriptionChanged).
      expect(announced).toEqual([me.workspaceId]);
      expect(await row()).toMatchObject({
        plan_id: 'pro',
        billing_interval: 'month',
        status: 'active',
        cancel_at_period_end: false,
        stripe_subscription_id: subscriptionId,
      });
      const got = await subscriptionOf();
      expect(got).toMatchObject({
        plan: 'pro',
        subscription: { plan: 'pro', interval: 'month', status: 'active' },
        usage: { activeProjects: { used: 2, max: null }, members: { max: 2 } },
      });
      expect(got.subscription.currentPeriodEnd).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect((await createProject(me, clientId, 'Three')).status).toBe(200);
      // Storage follows too: the upload check and the storage figures read the same plan.
      const twoGiB = 2 * 1024 ** 3;
      await expect(
        me.t.db.transaction((tx) => requireStorageRoom(tx, me.workspaceId, twoGiB)),
      ).resolves.toBeUndefined();
      const storage = await me.call(
        'GET',
        `/api/file-storage?endpoint=get-file-storage&workspaceId=${me.workspaceId}`,
      );
      expect(storage.body).toMatchObject({ plan: 'pro', limitBytes: 50 * 1024 ** 3 });
      // And the portal's branding: Pro shows the workspace's own.
      expect(await portalBranding()).toBe('workspace');

      // Stripe retries the same event after the subscription ended: no second effect.
      fake.subscriptions.get(subscriptionId)!.status = 'canceled';
      const events = await storedEvents();
      expect((await deliver(event)).status).toBe(200);
      expect(await storedEvents()).toBe(events);
      expect((await row())!.status).toBe('active');
      expect(announced).toEqual([me.workspaceId]);

      // A second Checkout would start a second subscription: the portal changes this one.
      fake.subscriptions.get(subscriptionId)!.status = 'active';
      const again = await checkout({ plan: 'agency', interval: 'month' });
      expect(again.status).toBe(409);
    });

    it('keeps the plan while past due, says when it cancels, and drops to Free when it ends', async () => {
      const { stripe_subscription_id: subscriptionId } = (await row())!;
      const subscription = fake.subscriptions.get(subscriptionId)!;
      const update = async () =>
        expect(
          (await deliver(fake.signedEvent('customer.subscription.updated', subscription))).status,
        ).toBe(200);

      subscription.status = 'past_due';
      await update();
      expect(await subscriptionOf()).toMatchObject({
        plan: 'pro',
        subscription: { status: 'past_due' },
      });

      subscription.status = 'active';
      subscription.cancel_at_period_end = true;
      await update();
      expect((await subscriptionOf()).subscription).toMatchObject({
        status: 'active',
        cancelAtPeriodEnd: true,
      });

      // Switched in the portal: the price decides the plan, whatever the metadata says.
      subscription.items.data[0].price.id = 'price_agency_month';
      await update();
      expect((await subscriptionOf()).plan).toBe('agency');

      subscription.status = 'canceled';
      await deliver(fake.signedEvent('customer.subscription.deleted', subscription));
      const ended = await subscriptionOf();
      expect(ended).toMatchObject({ plan: 'free', subscription: { status: 'canceled' } });
      expect(ended.usage.activeProjects).toEqual({ used: 3, max: 2 });
      const clientId = randomUUID();
      await me.call('POST', '/api/client?endpoint=create-client', {
        id: clientId,
        workspaceId: me.workspaceId,
        name: 'Globex',
      });
      const refused = await createProject(me, clientId, 'Four');
      expect(refused.status).toBe(422);
      expect(refused.body.error.details).toMatchObject({ limit: 'activeProjects', plan: 'free' });
      await expect(
        me.t.db.transaction((tx) => requireStorageRoom(tx, me.workspaceId, 2 * 1024 ** 3)),
      ).rejects.toMatchObject({ status: 413, details: { limit: 'storageBytes', plan: 'free' } });
      expect(await portalBranding()).toBe('satchel');
    });

    it('converges when events come out of order: each one re-reads the subscription', async () => {
      // Subscribing afresh after the last one ended: a new Stripe subscription.
      const { session, subscriptionId } = await subscribe('pro', 'year');
      const subscription = fake.subscriptions.get(subscriptionId)!;
      // customer.subscription.updated arrives first, its payload stale ("incomplete").
      const stale = { ...subscription, status: 'incomplete' };
      expect((await deliver(fake.signedEvent('customer.subscription.updated', stale))).status).toBe(
        200,
      );
      expect(await row()).toMatchObject({
        stripe_subscription_id: subscriptionId,
        status: 'active',
        billing_interval: 'year',
      });
      expect((await deliver(fake.signedEvent('checkout.session.completed', session))).status).toBe(
        200,
      );
      expect((await row())!.status).toBe('active');

      // The old, ended subscription's late event does not end the new one.
      const old = [...fake.subscriptions.values()].find(
        (candidate) => candidate.id !== subscriptionId && candidate.status === 'canceled',
      )!;
      announced.length = 0;
      await deliver(fake.signedEvent('customer.subscription.deleted', old));
      expect(await row()).toMatchObject({
        stripe_subscription_id: subscriptionId,
        status: 'active',
      });
      // Nothing stored, nothing announced.
      expect(announced).toEqual([]);
    });

    it('acknowledges and logs events that name nothing of ours', async () => {
      const events = await storedEvents();
      const unknownType = await deliver(
        fake.signedEvent('customer.created', { object: 'customer', id: 'cus_x' }),
      );
      expect(unknownType.status).toBe(200);
      const invoiceKind = await deliver(
        fake.signedEvent('checkout.session.completed', {
          object: 'checkout.session',
          id: 'cs_test_invoice000',
          mode: 'payment',
          metadata: { kind: 'invoice', invoiceId: randomUUID() },
        }),
      );
      expect(invoiceKind.status).toBe(200);
      const strangers = {
        id: 'sub_test_stranger',
        object: 'subscription',
        status: 'active',
        customer: 'cus_stranger',
        cancel_at_period_end: false,
        cancel_at: null,
        metadata: { workspaceId: randomUUID() },
        items: { data: [{ price: { id: 'price_pro_month' }, current_period_end: 1 }] },
      };
      fake.putSubscription(strangers);
      const noWorkspace = await deliver(
        fake.signedEvent('customer.subscription.created', strangers),
      );
      expect(noWorkspace.status).toBe(200);
      const gone = await deliver(
        fake.signedEvent('customer.subscription.updated', { ...strangers, id: 'sub_test_gone' }),
      );
      expect(gone.status).toBe(200);
      expect(await storedEvents()).toBe(events);
      const lines = me.t.logLines.map((line) => line.msg);
      expect(lines).toContain('stripe event acknowledged: nothing here handles it');
      expect(lines).toContain('stripe event acknowledged: it names nothing of ours');
    });

    it('opens the customer portal for the workspace, back to Settings > Billing', async () => {
      const before = fake.requests.length;
      const portal = await me.call(
        'POST',
        `/api/subscription?endpoint=create-portal-session&workspaceId=${me.workspaceId}`,
      );
      expect(portal.status).toBe(200);
      expect(portal.body.url).toMatch(new RegExp(`^${fake.url}/portal/`));
      expect(fake.requests.slice(before)).toEqual([
        expect.objectContaining({
          path: '/v1/billing_portal/sessions',
          body: {
            customer: (await row())!.stripe_customer_id,
            return_url: 'https://satchel.example/settings?tab=billing',
          },
        }),
      ]);
    });

    it('tells the buyer back from Checkout whether the plan is in force yet', async () => {
      const { stripe_subscription_id: current } = (await row())!;
      const [sessionId] = [...fake.sessions.values()]
        .filter((session) => session.subscription === current)
        .map((session) => session.id as string);
      const read = (id: string, who: RegisteredUserApp = me) =>
        who.call('GET', `/api/subscription?endpoint=get-checkout-session&sessionId=${id}`);
      const back = await read(sessionId!);
      expect(back.status).toBe(200);
      expect(back.body).toMatchObject({ status: 'complete', plan: 'pro', inForce: true });
      // A session paid but whose webhook has not landed yet: not in force ("confirming…").
      fake.sessions.set('cs_test_notyetheard', {
        ...fake.sessions.get(sessionId!),
        id: 'cs_test_notyetheard',
        subscription: 'sub_test_notyetheard',
      });
      expect((await read('cs_test_notyetheard')).body).toMatchObject({
        status: 'complete',
        inForce: false,
      });
      // Someone else's Checkout looks like none.
      const stranger = newTestUser('peek');
      const headers = bearer(await me.tokens.sign(stranger));
      await me.t.app.request(
        '/api/register?endpoint=register-user',
        jsonRequest('POST', { id: stranger.id, email: stranger.email, firstName: 'P' }, headers),
      );
      const peek = await me.t.app.request(
        `/api/subscription?endpoint=get-checkout-session&sessionId=${sessionId!}`,
        { headers },
      );
      expect(peek.status).toBe(404);
      const unknown = await read('cs_test_doesnotexist');
      expect(unknown.status).toBe(404);
      expect((await read('not-a-session')).status).toBe(400);
    });

    it('refuses a member beyond the plan (the check invitations will call)', async () => {
      await expect(
        me.t.db.transaction((tx) => requireMemberRoom(tx, me.workspaceId)),
      ).resolves.toBeUndefined();
      // On Free one member, the owner, fills it.
      await me.t.db.query("UPDATE workspace_subscription SET status = 'canceled'");
      await expect(
        me.t.db.transaction((tx) => requireMemberRoom(tx, me.workspaceId)),
      ).rejects.toMatchObject({
        status: 422,
        details: { limit: 'members', plan: 'free', max: 1, upgradePath: '/settings?tab=billing' },
      });
    });
  });

  describe(`the webhook's registration point on ${label}`, { timeout: 60_000 }, () => {
    let fake: FakeStripe;
    let me: RegisteredUserApp;
    const applied: string[] = [];
    let failNext = false;
    beforeAll(async () => {
      fake = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET });
      me = await createRegisteredUserApp({
        ...options,
        stripe: createStripeGateway({
          secretKey: 'sk_test_suite',
          webhookSecret: WEBHOOK_SECRET,
          prices: [],
          apiBase: { protocol: 'http', host: '127.0.0.1', port: fake.port },
        }),
        // What the invoices module registers: a handler for `metadata.kind === 'invoice'`.
        stripeEventHandlers: {
          invoice: (event) =>
            Promise.resolve({
              summary: { invoice: true },
              apply: async (tx) => {
                await tx.query('SELECT 1');
                if (failNext) {
                  failNext = false;
                  throw new Error('the database went away');
                }
                applied.push(event.id);
              },
            }),
        },
      });
    });
    afterAll(async () => {
      await me.t.cleanup();
      await fake.close();
    });

    it('hands invoice events to the registered handler, once, and retries a failed one', async () => {
      const paid = {
        object: 'checkout.session',
        id: 'cs_test_invoicepaid',
        mode: 'payment',
        metadata: { kind: 'invoice', invoiceId: randomUUID() },
      };
      const post = async (event: { payload: string; signature: string }) =>
        (
          await me.t.app.request('/api/stripe/webhook', {
            method: 'POST',
            headers: { 'Stripe-Signature': event.signature },
            body: event.payload,
          })
        ).status;
      const first = fake.signedEvent('checkout.session.completed', paid);
      failNext = true;
      // Our failure: a 5xx, nothing recorded, so Stripe's retry applies it.
      expect(await post(first)).toBe(500);
      expect(applied).toEqual([]);
      expect(await post(first)).toBe(200);
      expect(await post(first)).toBe(200);
      expect(applied).toEqual([first.id]);
    });
  });

  describe(`subscriptions without Stripe on ${label}`, { timeout: 60_000 }, () => {
    let me: RegisteredUserApp;
    beforeAll(async () => {
      me = await createRegisteredUserApp({ ...options });
    });
    afterAll(async () => {
      await me.t.cleanup();
    });

    it('stays on Free, says payments are not configured, and has no webhook', async () => {
      const got = await me.call(
        'GET',
        `/api/subscription?endpoint=get-subscription&workspaceId=${me.workspaceId}`,
      );
      expect(got.body).toMatchObject({ plan: 'free', paymentsConfigured: false, onSale: [] });
      for (const operation of ['create-checkout-session', 'create-portal-session']) {
        const answer = await me.call(
          'POST',
          `/api/subscription?endpoint=${operation}&workspaceId=${me.workspaceId}`,
          operation === 'create-checkout-session' ? { plan: 'pro', interval: 'month' } : undefined,
        );
        expect(answer.status).toBe(409);
        expect(answer.body.error.message).toBe('Payments are not configured on this server.');
      }
      const hook = await me.t.app.request('/api/stripe/webhook', { method: 'POST', body: '{}' });
      expect(hook.status).toBe(404);
      expect(((await hook.json()) as Json).error.code).toBe('NOT_FOUND');
    });
  });
}
