// Members, roles and invitations through the real HTTP server: every members and invitation
// operation (and the existing ones the role table covers) run as owner, admin, member and
// non-member, allowed or refused as ARCHITECTURE.md's "Roles" says; then the bad input the issue
// lists (an invite accepted twice, expired and revoked links, a member inviting an owner, an admin
// removing the owner, a join beyond the plan's member limit), each refused with nothing applied,
// and a removed member's pull answered with scope_remove.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
  type Tokens,
} from './realtime-harness.ts';

type Json = Record<string, any>;
type Role = 'owner' | 'admin' | 'member' | 'outsider';
const ROLES: readonly Role[] = ['owner', 'admin', 'member', 'outsider'];

export function describeMembers(label: string, options: { postgresUrl?: string }) {
  describe(`members and invitations on ${label}`, { timeout: 90_000 }, () => {
    let server: HubServer;
    let tokens: Tokens;
    let ada: Member;
    let workspaceId: string;
    const mails: MailMessage[] = [];
    let drop: (() => Promise<void>) | null = null;
    let serial = 0;

    const as = (member: Member, method: string, path: string, body?: unknown) =>
      call(server, path, { method, token: member.token, ...(body === undefined ? {} : { body }) });
    const invite = (member: Member, body: Json, ws = workspaceId) =>
      as(
        member,
        'POST',
        `/api/workspace-invite?endpoint=create-workspace-invite&workspaceId=${ws}`,
        body,
      );
    const accept = (member: Member, token: string) =>
      as(member, 'POST', '/api/workspace-invite?endpoint=accept-workspace-invite', { token });
    const preview = (token: string) =>
      call(server, `/api/workspace-invite?endpoint=preview-workspace-invite&token=${token}`);
    const memberOp = (member: Member, operation: string, body?: Json) =>
      as(
        member,
        'POST',
        `/api/workspace-member?endpoint=${operation}&workspaceId=${workspaceId}`,
        body,
      );
    const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
    const roleRows = async () =>
      (
        await server.db.query<{ user_id: string; role: string }>(
          'SELECT user_id, role FROM workspace_member WHERE workspace_id = $1',
          [workspaceId],
        )
      ).rows;
    const setPlan = async (plan: 'pro' | 'agency') => {
      await server.db.query(
        `INSERT INTO workspace_subscription (workspace_id, plan_id, billing_interval, status,
           stripe_customer_id, stripe_subscription_id)
         VALUES ($1, $2, 'month', 'active', 'cus_test', $3)
         ON CONFLICT (workspace_id) DO UPDATE SET plan_id = EXCLUDED.plan_id`,
        [workspaceId, plan, `sub_${randomUUID()}`],
      );
    };

    /** A new user, registered, brought in by Ada's invitation with `role` (outsider: not brought in). */
    async function person(role: Role): Promise<Member> {
      if (role === 'owner') return ada;
      const someone = await registerMember(server, tokens, `p${(serial += 1)}`);
      if (role === 'outsider') return someone;
      const made = await invite(ada, { role });
      expect(made.status).toBe(201);
      const joined = await accept(someone, tokenOf(made.body.url));
      expect(joined.status).toBe(200);
      return someone;
    }

    beforeAll(async () => {
      tokens = await createTestTokens();
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
      workspaceId = ada.workspaceId;
      await setPlan('agency');
      await as(
        ada,
        'PATCH',
        `/api/workspace?endpoint=update-workspace-settings&workspaceId=${workspaceId}`,
        {
          name: 'Studio',
        },
      );
    });
    afterAll(async () => {
      await server.stop();
      if (drop) {
        await server.db.close();
        await drop();
      }
    });

    describe('the role table', () => {
      // Everyone but Ada leaves after each case, so the plan's 10 seats never run out.
      afterEach(async () => {
        await server.db.query(
          'DELETE FROM workspace_member WHERE workspace_id = $1 AND user_id <> $2',
          [workspaceId, ada.user.id],
        );
        await server.db.query(
          "UPDATE workspace_member SET role = 'owner' WHERE workspace_id = $1 AND user_id = $2",
          [workspaceId, ada.user.id],
        );
      });

      interface Case {
        operation: string;
        /** The roles the table allows; the others get 403. */
        allowed: readonly Role[];
        /** The status an allowed caller gets (200 unless stated). */
        ok?: number;
        run: (caller: Member) => Promise<{ status: number; body: any }>;
      }
      const managers: readonly Role[] = ['owner', 'admin'];
      const everyone: readonly Role[] = ['owner', 'admin', 'member'];
      const cases: Case[] = [
        {
          operation: 'get-workspace-members',
          allowed: everyone,
          run: (caller) =>
            as(
              caller,
              'GET',
              `/api/workspace?endpoint=get-workspace-members&workspaceId=${workspaceId}`,
            ),
        },
        {
          operation: 'get-workspace-settings',
          allowed: everyone,
          run: (caller) =>
            as(
              caller,
              'GET',
              `/api/workspace?endpoint=get-workspace-settings&workspaceId=${workspaceId}`,
            ),
        },
        {
          operation: 'update-workspace-settings',
          allowed: managers,
          run: (caller) =>
            as(
              caller,
              'PATCH',
              `/api/workspace?endpoint=update-workspace-settings&workspaceId=${workspaceId}`,
              { name: 'Studio' },
            ),
        },
        {
          operation: 'get-subscription',
          allowed: everyone,
          run: (caller) =>
            as(
              caller,
              'GET',
              `/api/subscription?endpoint=get-subscription&workspaceId=${workspaceId}`,
            ),
        },
        {
          // Stripe is not configured here: an allowed caller reaches that answer (409), not 403.
          operation: 'create-checkout-session',
          allowed: managers,
          ok: 409,
          run: (caller) =>
            as(
              caller,
              'POST',
              `/api/subscription?endpoint=create-checkout-session&workspaceId=${workspaceId}`,
              { plan: 'agency', interval: 'year' },
            ),
        },
        {
          operation: 'create-portal-session',
          allowed: managers,
          ok: 409,
          run: (caller) =>
            as(
              caller,
              'POST',
              `/api/subscription?endpoint=create-portal-session&workspaceId=${workspaceId}`,
            ),
        },
        {
          // Project work: any member.
          operation: 'create-client',
          allowed: everyone,
          run: (caller) =>
            as(caller, 'POST', '/api/client?endpoint=create-client', {
              id: randomUUID(),
              workspaceId,
              name: 'Acme',
            }),
        },
        {
          operation: 'create-workspace-invite',
          allowed: managers,
          ok: 201,
          run: (caller) => invite(caller, { role: 'member', maxUses: null }),
        },
        {
          operation: 'get-workspace-invites',
          allowed: managers,
          run: (caller) =>
            as(
              caller,
              'GET',
              `/api/workspace-invite?endpoint=get-workspace-invites&workspaceId=${workspaceId}`,
            ),
        },
        {
          operation: 'revoke-workspace-invite',
          allowed: managers,
          run: async (caller) => {
            const made = await invite(ada, { role: 'member' });
            return as(
              caller,
              'POST',
              `/api/workspace-invite?endpoint=revoke-workspace-invite&workspaceId=${workspaceId}&id=${made.body.invite.id}`,
            );
          },
        },
        {
          operation: 'change-member-role',
          allowed: managers,
          run: async (caller) => {
            const target = await person('member');
            return memberOp(caller, 'change-member-role', {
              userId: target.user.id,
              role: 'admin',
            });
          },
        },
        {
          operation: 'remove-member',
          allowed: managers,
          run: async (caller) => {
            const target = await person('member');
            return memberOp(caller, 'remove-member', { userId: target.user.id });
          },
        },
        {
          operation: 'transfer-ownership',
          allowed: ['owner'],
          run: async (caller) => {
            const target = await person('admin');
            return memberOp(caller, 'transfer-ownership', { userId: target.user.id });
          },
        },
      ];

      for (const item of cases) {
        for (const role of ROLES) {
          const allowed = item.allowed.includes(role);
          it(`${item.operation} as ${role}: ${allowed ? 'allowed' : 'refused'}`, async () => {
            const caller = await person(role);
            const { status, body } = await item.run(caller);
            if (allowed) {
              expect(status, JSON.stringify(body)).toBe(item.ok ?? 200);
            } else {
              expect(status, JSON.stringify(body)).toBe(403);
              expect(body.error.code).toBe('FORBIDDEN');
            }
          });
        }
      }

      // Leaving: any member but the owner, who must hand ownership over first (422, not 403).
      for (const role of ROLES) {
        const expected = { owner: 422, admin: 200, member: 200, outsider: 403 }[role];
        it(`leave-workspace as ${role}: ${expected}`, async () => {
          const caller = await person(role);
          const { status, body } = await memberOp(caller, 'leave-workspace');
          expect(status, JSON.stringify(body)).toBe(expected);
          const stillIn = (await roleRows()).some((row) => row.user_id === caller.user.id);
          expect(stillIn).toBe(role === 'owner');
        });
      }

      // Anyone may look an invitation up (no account needed); accepting is for people not in yet.
      for (const role of ROLES) {
        const expected = role === 'outsider' ? 200 : 409;
        it(`accept-workspace-invite as ${role}: ${expected}; preview: 200`, async () => {
          const caller = await person(role);
          const made = await invite(ada, { role: 'member', maxUses: null });
          expect((await preview(tokenOf(made.body.url))).status).toBe(200);
          const { status, body } = await accept(caller, tokenOf(made.body.url));
          expect(status, JSON.stringify(body)).toBe(expected);
        });
      }
    });

    describe('rules and bad input', () => {
      afterEach(async () => {
        await server.db.query(
          'DELETE FROM workspace_member WHERE workspace_id = $1 AND user_id <> $2',
          [workspaceId, ada.user.id],
        );
        await server.db.query(
          "UPDATE workspace_member SET role = 'owner' WHERE workspace_id = $1 AND user_id = $2",
          [workspaceId, ada.user.id],
        );
        await setPlan('agency');
      });

      it('stores only a hash of the token and shows the link once', async () => {
        const made = await invite(ada, { role: 'admin', maxUses: 3, expiresInDays: 2 });
        expect(made.status).toBe(201);
        const token = tokenOf(made.body.url);
        expect(made.body.url).toBe(`http://localhost:8080/invite/${token}`);
        expect(made.body.invite).toMatchObject({
          role: 'admin',
          maxUses: 3,
          useCount: 0,
          status: 'active',
        });
        const expires = Date.parse(made.body.invite.expiresAt) - Date.now();
        expect(Math.abs(expires - 2 * 86_400_000)).toBeLessThan(60_000);
        const { rows } = await server.db.query<Json>(
          'SELECT * FROM workspace_invite WHERE id = $1',
          [made.body.invite.id],
        );
        expect(JSON.stringify(rows[0])).not.toContain(token);
        expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
        const listed = await as(
          ada,
          'GET',
          `/api/workspace-invite?endpoint=get-workspace-invites&workspaceId=${workspaceId}`,
        );
        expect(JSON.stringify(listed.body)).not.toContain(token);
      });

      it('previews an invitation without an account: workspace, role, inviter, validity', async () => {
        const made = await invite(ada, { role: 'member' });
        const { status, body } = await preview(tokenOf(made.body.url));
        expect(status).toBe(200);
        expect(body.invite).toMatchObject({
          workspaceName: 'Studio',
          role: 'member',
          inviterName: 'ada Test',
          status: 'active',
          reason: null,
        });
        const unknown = await preview('A'.repeat(43));
        expect(unknown.status).toBe(404);
        const malformed = await preview('short');
        expect(malformed.status).toBe(400);
      });

      it('mails an email invitation, which only that address can accept', async () => {
        const bob = await registerMember(server, tokens, 'bob');
        const eve = await registerMember(server, tokens, 'eve');
        mails.length = 0;
        const made = await invite(ada, { role: 'member', email: bob.user.email.toUpperCase() });
        expect(made.status).toBe(201);
        expect(made.body.invite.email).toBe(bob.user.email);
        await expect.poll(() => mails.length).toBe(1);
        expect(mails[0]?.to).toBe(bob.user.email);
        expect(mails[0]?.subject).toContain('Studio');
        expect(mails[0]?.text).toContain(made.body.url);
        const wrong = await accept(eve, tokenOf(made.body.url));
        expect(wrong.status).toBe(403);
        expect(wrong.body.error.message).toContain(bob.user.email);
        const right = await accept(bob, tokenOf(made.body.url));
        expect(right.status).toBe(200);
        expect(right.body).toMatchObject({ workspaceId, role: 'member' });
        // An email invitation is single-use; the schema says so when asked for more.
        const many = await invite(ada, { role: 'member', email: 'x@example.com', maxUses: 5 });
        expect(many.status).toBe(400);
      });

      it('refuses to invite a member, or an address already invited in any case, saying which', async () => {
        mails.length = 0;
        const self = await invite(ada, { role: 'member', email: ada.user.email });
        expect(self.status).toBe(409);
        expect(self.body.error.message).toBe(
          `${ada.user.email} is already a member of this workspace.`,
        );
        const first = await invite(ada, { role: 'member', email: 'friend@example.com' });
        expect(first.status).toBe(201);
        const again = await invite(ada, { role: 'admin', email: 'FRIEND@example.com' });
        expect(again.status).toBe(409);
        expect(again.body.error.message).toMatch(
          /^friend@example.com already has an open invitation/,
        );
        await expect.poll(() => mails.length).toBe(1);
        // Revoked, the address can be invited again.
        const revoked = await as(
          ada,
          'POST',
          `/api/workspace-invite?endpoint=revoke-workspace-invite&workspaceId=${workspaceId}&id=${first.body.invite.id}`,
        );
        expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
        expect((await invite(ada, { role: 'member', email: 'friend@example.com' })).status).toBe(
          201,
        );
      });

      it('refuses an invitation accepted twice, and a single-use one by a second person', async () => {
        const bob = await registerMember(server, tokens, 'bob');
        const cat = await registerMember(server, tokens, 'cat');
        const made = await invite(ada, { role: 'member' });
        const token = tokenOf(made.body.url);
        expect((await accept(bob, token)).status).toBe(200);
        // Bob's devices pull it from now on (the sync engine's workspace list).
        const mine = await as(bob, 'GET', '/api/workspace?endpoint=get-owned-workspace-id');
        expect(mine.body).toEqual({
          workspaceId: bob.workspaceId,
          memberOf: expect.arrayContaining([bob.workspaceId, workspaceId]),
        });
        const again = await accept(bob, token);
        expect(again.status).toBe(410);
        expect(again.body.error.message).toMatch(/already been used/);
        const second = await accept(cat, token);
        expect(second.status).toBe(410);
        expect((await preview(token)).body.invite.status).toBe('used_up');
        // Multi-use: the same person twice is "already a member", and the use is not counted.
        const multi = await invite(ada, { role: 'member', maxUses: null });
        expect((await accept(cat, tokenOf(multi.body.url))).status).toBe(200);
        const twice = await accept(cat, tokenOf(multi.body.url));
        expect(twice.status).toBe(409);
        const listed = await as(
          ada,
          'GET',
          `/api/workspace-invite?endpoint=get-workspace-invites&workspaceId=${workspaceId}`,
        );
        const row = listed.body.invites.find((i: Json) => i.id === multi.body.invite.id);
        expect(row.useCount).toBe(1);
      });

      it('gives the last use of an invitation to one of two people accepting at once', async () => {
        const bob = await registerMember(server, tokens, 'bob');
        const cat = await registerMember(server, tokens, 'cat');
        const made = await invite(ada, { role: 'member' });
        const token = tokenOf(made.body.url);
        const answers = await Promise.all([accept(bob, token), accept(cat, token)]);
        expect(answers.map((answer) => answer.status).sort()).toEqual([200, 410]);
        expect(await roleRows()).toHaveLength(2);
      });

      it('refuses an expired link and a revoked one, and says why', async () => {
        const bob = await registerMember(server, tokens, 'bob');
        const expired = await invite(ada, { role: 'member' });
        await server.db.query(
          "UPDATE workspace_invite SET expires_at = now() - interval '1 minute' WHERE id = $1",
          [expired.body.invite.id],
        );
        const late = await accept(bob, tokenOf(expired.body.url));
        expect(late.status).toBe(410);
        expect(late.body.error.message).toMatch(/expired/);
        expect((await preview(tokenOf(expired.body.url))).body.invite).toMatchObject({
          status: 'expired',
          reason: expect.stringMatching(/expired/),
        });

        const revoked = await invite(ada, { role: 'member' });
        const off = await as(
          ada,
          'POST',
          `/api/workspace-invite?endpoint=revoke-workspace-invite&workspaceId=${workspaceId}&id=${revoked.body.invite.id}`,
        );
        expect(off.status).toBe(200);
        expect(off.body.invite.status).toBe('revoked');
        const refused = await accept(bob, tokenOf(revoked.body.url));
        expect(refused.status).toBe(410);
        expect(refused.body.error.message).toMatch(/withdrawn/);
        expect((await roleRows()).some((row) => row.user_id === bob.user.id)).toBe(false);
      });

      it('never invites an owner: a member is refused, an admin and the owner are told why', async () => {
        const admin = await person('admin');
        const member = await person('member');
        const byMember = await invite(member, { role: 'owner' });
        expect(byMember.status).toBe(403);
        const byAdmin = await invite(admin, { role: 'owner' });
        expect(byAdmin.status).toBe(422);
        expect(byAdmin.body.error.message).toMatch(/Transfer ownership/);
        expect((await invite(ada, { role: 'owner' })).status).toBe(422);
        expect((await invite(ada, { role: 'boss' })).status).toBe(400);
        expect((await invite(ada, { role: 'member', expiresInDays: 31 })).status).toBe(400);
        const { rows } = await server.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM workspace_invite WHERE role NOT IN ('admin', 'member')",
        );
        expect(rows[0]?.n).toBe(0);
      });

      it('protects the owner: an admin cannot remove or demote them, nor make an owner', async () => {
        const admin = await person('admin');
        const remove = await memberOp(admin, 'remove-member', { userId: ada.user.id });
        expect(remove.status).toBe(403);
        expect(remove.body.error.message).toMatch(/owner cannot be removed/);
        const demote = await memberOp(admin, 'change-member-role', {
          userId: ada.user.id,
          role: 'member',
        });
        expect(demote.status).toBe(403);
        const crown = await memberOp(admin, 'change-member-role', {
          userId: admin.user.id,
          role: 'owner',
        });
        expect(crown.status).toBe(422);
        const roles = await roleRows();
        expect(roles.find((row) => row.user_id === ada.user.id)?.role).toBe('owner');
        expect(roles.find((row) => row.user_id === admin.user.id)?.role).toBe('admin');
        // An admin removes another admin and changes roles between admin and member.
        const other = await person('admin');
        expect(
          (await memberOp(admin, 'change-member-role', { userId: other.user.id, role: 'member' }))
            .status,
        ).toBe(200);
        expect((await memberOp(admin, 'remove-member', { userId: other.user.id })).status).toBe(
          200,
        );
        // Someone not in the workspace is a 404, yourself a 422 (Leave is the way).
        const stranger = await registerMember(server, tokens, 'stranger');
        expect((await memberOp(admin, 'remove-member', { userId: stranger.user.id })).status).toBe(
          404,
        );
        expect((await memberOp(admin, 'remove-member', { userId: admin.user.id })).status).toBe(
          422,
        );
      });

      it("refuses a join beyond the plan's member limit and applies nothing", async () => {
        await setPlan('pro'); // two members, the owner included
        const bob = await person('member');
        const cat = await registerMember(server, tokens, 'cat');
        const made = await invite(ada, { role: 'member', maxUses: null });
        const full = await accept(cat, tokenOf(made.body.url));
        expect(full.status).toBe(422);
        expect(full.body.error.details).toMatchObject({ limit: 'members', plan: 'pro', max: 2 });
        const roles = await roleRows();
        expect(roles.map((row) => row.user_id).sort()).toEqual([ada.user.id, bob.user.id].sort());
        const { rows } = await server.db.query<{ use_count: number }>(
          'SELECT use_count FROM workspace_invite WHERE id = $1',
          [made.body.invite.id],
        );
        expect(rows[0]?.use_count).toBe(0);
      });

      it('hands ownership over: one owner, the old one an admin who may then leave', async () => {
        const bob = await person('member');
        const moved = await memberOp(ada, 'transfer-ownership', { userId: bob.user.id });
        expect(moved.status).toBe(200);
        const roles = await roleRows();
        expect(roles.filter((row) => row.role === 'owner').map((row) => row.user_id)).toEqual([
          bob.user.id,
        ]);
        expect(roles.find((row) => row.user_id === ada.user.id)?.role).toBe('admin');
        // Ada's registration again must not make her owner of it a second time.
        const again = await call(server, '/api/register?endpoint=register-user', {
          method: 'POST',
          token: ada.token,
          body: { id: ada.user.id, email: ada.user.email, firstName: 'ada', lastName: 'Test' },
        });
        expect(again.status).toBe(200);
        expect((await roleRows()).find((row) => row.user_id === ada.user.id)?.role).toBe('admin');
        // Bob (now owner) cannot leave; he hands it back, then may.
        expect((await memberOp(bob, 'leave-workspace')).status).toBe(422);
        expect((await memberOp(bob, 'transfer-ownership', { userId: ada.user.id })).status).toBe(
          200,
        );
        expect((await memberOp(bob, 'leave-workspace')).status).toBe(200);
      });

      it("drops a removed member's access: their pull gets scope_remove", async () => {
        const bob = await person('member');
        const before = await as(bob, 'GET', `/api/sync?endpoint=pull&workspaceId=${workspaceId}`);
        expect(before.status).toBe(200);
        expect(before.body.changes.some((c: Json) => c.op === 'scope_remove')).toBe(false);
        expect((await memberOp(ada, 'remove-member', { userId: bob.user.id })).status).toBe(200);
        const after = await as(
          bob,
          'GET',
          `/api/sync?endpoint=pull&workspaceId=${workspaceId}&cursor=${encodeURIComponent(before.body.cursor)}`,
        );
        expect(after.status).toBe(200);
        expect(after.body.changes).toEqual([
          expect.objectContaining({ table: 'workspaces', id: workspaceId, op: 'scope_remove' }),
        ]);
        const settings = await as(
          bob,
          'GET',
          `/api/workspace?endpoint=get-workspace-settings&workspaceId=${workspaceId}`,
        );
        expect(settings.status).toBe(403);
      });

      it("keeps each workspace's invitations to itself", async () => {
        const eve = await registerMember(server, tokens, 'eve');
        const made = await invite(ada, { role: 'member' });
        // Eve owns her own workspace but names Ada's invitation under it: unknown there.
        const cross = await as(
          eve,
          'POST',
          `/api/workspace-invite?endpoint=revoke-workspace-invite&workspaceId=${eve.workspaceId}&id=${made.body.invite.id}`,
        );
        expect(cross.status).toBe(404);
        expect((await preview(tokenOf(made.body.url))).body.invite.status).toBe('active');
      });
    });
  });
}
