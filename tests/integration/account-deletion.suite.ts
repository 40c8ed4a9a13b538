// Account deletion through the real HTTP app with the embedded auth service (issue 18): a solo
// workspace goes with its rows, file ledger and bytes; a shared one passes to the next admin or
// the chosen member with their work intact and the deleted author nameless; the bad input the
// issue lists (a shared workspace without a decision, a wrong password, another user's id, a
// stranger as new owner) is refused with nothing changed; the tokens stop at once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../fixtures/create-auth-test-server.ts';
import {
  createAccountTestApp,
  type AccountTestApp,
  type Person,
} from '../fixtures/create-account-test-app.ts';

const PLAN = '/api/account?endpoint=get-account-deletion-plan';
const DELETE = '/api/account?endpoint=delete-account';

export function describeAccountDeletion(label: string, options: { postgresUrl?: string }) {
  describe(`account deletion on ${label}`, { timeout: 120_000 }, () => {
    let t: AccountTestApp;

    beforeAll(async () => {
      t = await createAccountTestApp(options);
    });
    afterAll(async () => {
      await t?.cleanup();
    });

    const count = async (sql: string, params: unknown[]) =>
      Number((await t.db.query<{ n: string }>(sql, params)).rows[0]?.n ?? 0);

    /** Every row that would tell a deletion happened: compared before and after a refusal. */
    const snapshot = async (person: Person) => ({
      profile: await count('SELECT count(*)::text AS n FROM user_profile WHERE id = $1', [
        person.id,
      ]),
      authUser: await count('SELECT count(*)::text AS n FROM auth_user WHERE id = $1', [person.id]),
      sessions: await count('SELECT count(*)::text AS n FROM auth_session WHERE user_id = $1', [
        person.id,
      ]),
      memberships: (
        await t.db.query(
          'SELECT workspace_id, user_id, role FROM workspace_member ORDER BY workspace_id, user_id',
        )
      ).rows,
      workspaces: await count('SELECT count(*)::text AS n FROM workspace', []),
    });

    it('deletes a solo workspace with its rows, file ledger and bytes, and mails a confirmation', async () => {
      const solo = await t.person('Solo');
      const projectId = await t.project(solo, solo.workspaceId, 'Solo project');
      const file = await t.storeFile(solo, projectId, 'notes.txt', Buffer.from('private notes'));
      expect(await t.files.storage.stat(file.blobName)).not.toBeNull();

      const plan = await t.call(solo.token, 'GET', PLAN);
      expect(plan.status).toBe(200);
      expect(plan.body.plan.hasPassword).toBe(true);
      expect(plan.body.plan.workspaces).toEqual([
        expect.objectContaining({
          workspaceId: solo.workspaceId,
          fate: 'delete',
          counts: { clients: 1, projects: 1, files: 1, fileBytes: 13 },
        }),
      ]);

      // The hub listens for ended sessions to close their connections (server/realtime).
      const ended: string[] = [];
      // The other devices are told before their sessions (and hub connections) end.
      let toldBeforeEnding = false;
      const stopListening = t.auth.auth.sessions.onSessionsEnded((ids) => {
        toldBeforeEnding = t.hubEvents.some(
          (sent) => sent.event === 'accountDeleted' && sent.userId === solo.id,
        );
        ended.push(...ids);
      });
      const sessionIds = (
        await t.db.query<{ id: string }>('SELECT id FROM auth_session WHERE user_id = $1', [
          solo.id,
        ])
      ).rows.map((row) => row.id);
      // The confirmation link's session and the password sign-in's.
      expect(sessionIds.length).toBeGreaterThanOrEqual(1);

      const deleted = await t.call(solo.token, 'POST', DELETE, { password: TEST_PASSWORD });
      stopListening();
      expect(deleted.status).toBe(200);
      expect([...ended].sort()).toEqual([...sessionIds].sort());
      expect(t.hubEvents.filter((sent) => sent.userId === solo.id)).toEqual([
        { event: 'accountDeleted', userId: solo.id },
      ]);
      expect(toldBeforeEnding).toBe(true);
      expect(deleted.body).toMatchObject({
        deleted: true,
        deletedWorkspaceIds: [solo.workspaceId],
      });

      for (const table of ['workspace', 'project', 'client', 'project_file', 'project_activity']) {
        const column = table === 'workspace' ? 'id' : 'workspace_id';
        expect(
          await count(`SELECT count(*)::text AS n FROM ${table} WHERE ${column} = $1`, [
            solo.workspaceId,
          ]),
          table,
        ).toBe(0);
      }
      expect(
        await count('SELECT count(*)::text AS n FROM file_blob WHERE workspace_id = $1', [
          solo.workspaceId,
        ]),
      ).toBe(0);
      expect(await t.files.storage.stat(file.blobName)).toBeNull();
      const after = await snapshot(solo);
      expect(after).toMatchObject({ profile: 0, authUser: 0, sessions: 0 });

      const mail = await t.auth.lastMailTo(solo.email);
      expect(mail.subject).toBe('Your Satchel account has been deleted');
      expect(mail.text).toContain('was deleted with its projects');

      // The token stops at once (session check), and signing in again fails.
      const refused = await t.call(solo.token, 'GET', PLAN);
      expect(refused.status).toBe(401);
      const again = await t.signIn(solo.email);
      expect(again.token).toBeNull();
      expect(again.error?.message).toMatch(/invalid login credentials/i);
    });

    it('hands a shared workspace to the next admin; their work stays, the author is nameless', async () => {
      const owner = await t.person('Olive');
      const member = await t.person('Mona');
      const admin = await t.person('Adam');
      await t.join(owner, member, 'member');
      await t.join(owner, admin, 'admin');
      const projectId = await t.project(owner, owner.workspaceId, 'Shared project');
      const adminProject = await t.project(admin, owner.workspaceId, 'Adam project');
      const message = await t.call(
        owner.token,
        'POST',
        '/api/chat-message?endpoint=create-chat-message',
        {
          id: randomUUID(),
          workspaceId: owner.workspaceId,
          projectId,
          text: 'Hello team',
          mentions: [member.id],
        },
      );
      expect(message.status).toBe(200);
      const mention = await count(
        `SELECT count(*)::text AS n FROM notification WHERE user_id = $1 AND title LIKE 'Olive Tester%'`,
        [member.id],
      );
      expect(mention).toBe(1);
      // Another invitation Olive made is outstanding: it names her and goes with her.
      await t.call(
        owner.token,
        'POST',
        `/api/workspace-invite?endpoint=create-workspace-invite&workspaceId=${owner.workspaceId}`,
        { role: 'member', maxUses: 1 },
      );

      const plan = await t.call(owner.token, 'GET', PLAN);
      const shared = (plan.body.plan.workspaces as any[]).find(
        (entry) => entry.workspaceId === owner.workspaceId,
      );
      expect(shared).toMatchObject({ fate: 'transfer', defaultNewOwnerId: admin.id });
      expect(shared.candidates.map((c: any) => c.userId)).toEqual([admin.id, member.id]);

      const deleted = await t.call(owner.token, 'POST', DELETE, {
        password: TEST_PASSWORD,
        workspaces: [{ workspaceId: owner.workspaceId, newOwnerId: null }],
      });
      expect(deleted.status).toBe(200);
      expect(deleted.body.transferred).toEqual([
        { workspaceId: owner.workspaceId, newOwnerId: admin.id },
      ]);

      const roles = (
        await t.db.query<{ user_id: string; role: string }>(
          'SELECT user_id, role FROM workspace_member WHERE workspace_id = $1 ORDER BY role',
          [owner.workspaceId],
        )
      ).rows;
      expect(roles).toEqual([
        { user_id: member.id, role: 'member' },
        { user_id: admin.id, role: 'owner' },
      ]);
      // The new owner sees everything, the deleted author's messages and activity without a name.
      const members = await t.call(
        admin.token,
        'GET',
        `/api/workspace?endpoint=get-workspace-members&workspaceId=${owner.workspaceId}`,
      );
      expect(members.status).toBe(200);
      expect(JSON.stringify(members.body)).not.toContain(owner.email);
      const messages = await t.call(
        admin.token,
        'GET',
        `/api/chat-message?endpoint=get-chat-messages&projectId=${projectId}&limit=50`,
      );
      expect(messages.body.messages).toHaveLength(1);
      expect(messages.body.messages[0]).toMatchObject({ text: 'Hello team', authorName: '' });
      const activity = await t.call(
        admin.token,
        'GET',
        `/api/project-activity?endpoint=get-project-activity&projectId=${projectId}`,
      );
      expect(activity.status).toBe(200);
      const entries = activity.body.activity as any[];
      expect(entries.length).toBeGreaterThan(0);
      for (const entry of entries) expect(entry.actorName).toBe('');
      for (const id of [projectId, adminProject]) {
        expect(await count('SELECT count(*)::text AS n FROM project WHERE id = $1', [id])).toBe(1);
      }
      // Nothing left that names her: notifications say "Deleted user", her invitations are gone.
      const titles = (
        await t.db.query<{ title: string }>('SELECT title FROM notification WHERE user_id = $1', [
          member.id,
        ])
      ).rows.map((row) => row.title);
      expect(titles.some((title) => title.startsWith('Deleted user mentioned you'))).toBe(true);
      expect(titles.join(' ')).not.toContain('Olive');
      expect(
        await count('SELECT count(*)::text AS n FROM workspace_invite WHERE created_by = $1', [
          owner.id,
        ]),
      ).toBe(0);
      const everything = JSON.stringify(
        (
          await t.db.query(
            `SELECT (SELECT json_agg(p) FROM user_profile p) AS profiles,
                    (SELECT json_agg(n) FROM notification n) AS notifications,
                    (SELECT json_agg(m) FROM chat_message m) AS messages,
                    (SELECT json_agg(a) FROM project_activity a) AS activity,
                    (SELECT json_agg(u) FROM auth_user u) AS users,
                    (SELECT json_agg(i) FROM workspace_invite i) AS invites`,
          )
        ).rows,
      );
      expect(everything).not.toContain(owner.email);
      expect(everything).not.toContain('Olive');
      // The workspace she made at registration lives on; it just no longer names its maker.
      const made = await t.db.query<{ owner_id: string | null }>(
        'SELECT owner_id FROM workspace WHERE id = $1',
        [owner.workspaceId],
      );
      expect(made.rows).toEqual([{ owner_id: null }]);
      expect((await t.call(owner.token, 'GET', PLAN)).status).toBe(401);
    });

    it('hands a shared workspace to the member the user chose', async () => {
      const owner = await t.person('Orla');
      const admin = await t.person('Abe');
      const chosen = await t.person('Cleo');
      await t.join(owner, admin, 'admin');
      await t.join(owner, chosen, 'member');
      const deleted = await t.call(owner.token, 'POST', DELETE, {
        password: TEST_PASSWORD,
        workspaces: [{ workspaceId: owner.workspaceId, newOwnerId: chosen.id }],
      });
      expect(deleted.status).toBe(200);
      const owners = await t.db.query<{ user_id: string }>(
        `SELECT user_id FROM workspace_member WHERE workspace_id = $1 AND role = 'owner'`,
        [owner.workspaceId],
      );
      expect(owners.rows).toEqual([{ user_id: chosen.id }]);
      // Cleo is still the owner of her own workspace too, and Abe is still an admin here.
      const theirs = await t.call(
        chosen.token,
        'GET',
        `/api/workspace?endpoint=get-workspace-settings&workspaceId=${chosen.workspaceId}`,
      );
      expect(theirs.status).toBe(200);
    });

    it('leaves workspaces where the user is not the owner, their work staying', async () => {
      const owner = await t.person('Opal');
      const member = await t.person('Milo');
      await t.join(owner, member, 'member');
      const projectId = await t.project(member, owner.workspaceId, 'Milo project');
      const deleted = await t.call(member.token, 'POST', DELETE, { password: TEST_PASSWORD });
      expect(deleted.status).toBe(200);
      expect(deleted.body.leftWorkspaceIds).toEqual([owner.workspaceId]);
      expect(deleted.body.deletedWorkspaceIds).toEqual([member.workspaceId]);
      expect(
        await count('SELECT count(*)::text AS n FROM project WHERE id = $1', [projectId]),
      ).toBe(1);
    });

    it('refuses a shared workspace without a decision (409), nothing changed', async () => {
      const owner = await t.person('Otto');
      const member = await t.person('Max');
      await t.join(owner, member, 'member');
      const before = await snapshot(owner);
      const refused = await t.call(owner.token, 'POST', DELETE, { password: TEST_PASSWORD });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('CONFLICT');
      expect(refused.body.error.message).toMatch(/choose who owns it next/);
      expect(refused.body.error.details).toMatchObject({
        reason: 'owner_decision_required',
        workspaces: [{ workspaceId: owner.workspaceId }],
      });
      expect(await snapshot(owner)).toEqual(before);
      expect((await t.call(owner.token, 'GET', PLAN)).status).toBe(200);
    });

    it('refuses a wrong password (422), nothing changed, the session still works', async () => {
      const owner = await t.person('Wren');
      const before = await snapshot(owner);
      const refused = await t.call(owner.token, 'POST', DELETE, { password: 'not-my-password' });
      expect(refused.status).toBe(422);
      expect(refused.body.error.details).toMatchObject({ reason: 'reauthentication_failed' });
      expect(await snapshot(owner)).toEqual(before);
      expect((await t.call(owner.token, 'GET', PLAN)).status).toBe(200);
      const noCode = await t.call(owner.token, 'POST', DELETE, { nonce: '123456' });
      expect(noCode.status).toBe(422);
      expect(await snapshot(owner)).toEqual(before);
      // Nobody's devices were told anything.
      expect(t.hubEvents.filter((sent) => sent.userId === owner.id)).toEqual([]);
    });

    it('refuses to delete a workspace whose subscription still renews (409), nothing changed', async () => {
      const payer = await t.person('Paula');
      await t.db.query(
        `INSERT INTO workspace_subscription (workspace_id, plan_id, billing_interval, status,
           stripe_customer_id, stripe_subscription_id)
         VALUES ($1, 'pro', 'month', 'active', 'cus_test', $2)`,
        [payer.workspaceId, `sub_${randomUUID()}`],
      );
      const before = await snapshot(payer);
      const refused = await t.call(payer.token, 'POST', DELETE, { password: TEST_PASSWORD });
      expect(refused.status).toBe(409);
      expect(refused.body.error.details).toMatchObject({ reason: 'subscription_active' });
      expect(await snapshot(payer)).toEqual(before);
      // Cancelled at the period's end: nothing renews, so the workspace may go.
      await t.db.query(
        'UPDATE workspace_subscription SET cancel_at_period_end = true WHERE workspace_id = $1',
        [payer.workspaceId],
      );
      const deleted = await t.call(payer.token, 'POST', DELETE, { password: TEST_PASSWORD });
      expect(deleted.status).toBe(200);
      expect(
        await count(
          'SELECT count(*)::text AS n FROM workspace_subscription WHERE workspace_id = $1',
          [payer.workspaceId],
        ),
      ).toBe(0);
    });

    it('limits proof attempts per account (429 after 10)', async () => {
      const guessed = await t.person('Gus');
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const wrong = await t.call(guessed.token, 'POST', DELETE, { password: `guess-${attempt}` });
        expect(wrong.status).toBe(422);
      }
      const limited = await t.call(guessed.token, 'POST', DELETE, { password: TEST_PASSWORD });
      expect(limited.status).toBe(429);
      expect(
        await count('SELECT count(*)::text AS n FROM auth_user WHERE id = $1', [guessed.id]),
      ).toBe(1);
    });

    it('accepts the code /reauthenticate mails instead of the password', async () => {
      const someone = await t.person('Nina');
      const sent = await t.auth.fetch(`http://localhost:8080/auth/v1/reauthenticate`, {
        headers: { apikey: t.auth.anonKey, Authorization: `Bearer ${someone.token}` },
      });
      expect(sent.status).toBe(200);
      const mail = await t.auth.lastMailTo(someone.email);
      expect(mail.subject).toBe('Confirm reauthentication');
      const code = /(\d{6})/.exec(mail.text)?.[1];
      expect(code).toMatch(/^\d{6}$/);
      const deleted = await t.call(someone.token, 'POST', DELETE, { nonce: code });
      expect(deleted.status).toBe(200);
      expect(
        await count('SELECT count(*)::text AS n FROM auth_user WHERE id = $1', [someone.id]),
      ).toBe(0);
    });

    it("ignores ids it should not trust: another user's id or workspace, a stranger as owner", async () => {
      const owner = await t.person('Ivy');
      const member = await t.person('Ian');
      const stranger = await t.person('Sam');
      await t.join(owner, member, 'member');
      const before = await snapshot(owner);
      const strangerBefore = await snapshot(stranger);
      // No field names whose account: an extra one is refused by the schema.
      const named = await t.call(owner.token, 'POST', DELETE, {
        password: TEST_PASSWORD,
        userId: stranger.id,
        workspaces: [{ workspaceId: owner.workspaceId, newOwnerId: member.id }],
      });
      expect(named.status).toBe(400);
      // A workspace the caller does not own is no decision of theirs.
      const foreign = await t.call(owner.token, 'POST', DELETE, {
        password: TEST_PASSWORD,
        workspaces: [
          { workspaceId: owner.workspaceId, newOwnerId: member.id },
          { workspaceId: stranger.workspaceId, newOwnerId: null },
        ],
      });
      expect(foreign.status).toBe(422);
      // A new owner from outside the workspace is refused.
      const outsider = await t.call(owner.token, 'POST', DELETE, {
        password: TEST_PASSWORD,
        workspaces: [{ workspaceId: owner.workspaceId, newOwnerId: stranger.id }],
      });
      expect(outsider.status).toBe(422);
      expect(await snapshot(owner)).toEqual(before);
      expect(await snapshot(stranger)).toEqual(strangerBefore);
    });
  });
}
