/**
 * The auth service on PostgreSQL (DATABASE_URL), where requests really run concurrently: the
 * refresh-token row locks must make two tabs refreshing one token at once end with the same new
 * token, and reuse after the window must still revoke the family. Skipped without
 * DATABASE_URL_TEST.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthService } from '../../server/auth/create-auth-service.ts';
import type { Database } from '../../server/db/database.ts';
import { runMigrations } from '../../server/db/migrate.ts';
import { createPostgresDatabase } from '../../server/db/postgres-database.ts';
import { createLogger } from '../../server/logger.ts';
import {
  createAuthTestServer,
  SITE_URL,
  TEST_PASSWORD,
  type AuthTestServer,
} from '../fixtures/create-auth-test-server.ts';
import { createScratchDatabase, postgresTestUrl } from '../fixtures/scratch-postgres.ts';

const suite = postgresTestUrl ? describe : describe.skip;

suite('auth service on PostgreSQL', () => {
  let t: AuthTestServer;
  let drop: () => Promise<void> = () => Promise.resolve();

  beforeAll(async () => {
    const scratch = await createScratchDatabase(postgresTestUrl ?? '');
    drop = () => scratch.drop();
    const db = await createPostgresDatabase({ connectionString: scratch.url });
    await runMigrations(db);
    t = await createAuthTestServer({ db });
  });

  afterAll(async () => {
    await t.cleanup();
    await drop();
  });

  const refresh = (token: string) =>
    t.fetch(`${SITE_URL}/auth/v1/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { apikey: t.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ refresh_token: token }),
    });

  it('signs up, confirms, signs in; concurrent refreshes share one rotation', async () => {
    await t.registerUser('pg@example.com');
    const client = t.createClient();
    const { data, error } = await client.auth.signInWithPassword({
      email: 'pg@example.com',
      password: TEST_PASSWORD,
    });
    expect(error).toBeNull();
    const token = data.session?.refresh_token ?? '';
    const answers = await Promise.all([refresh(token), refresh(token), refresh(token)]);
    const bodies = (await Promise.all(answers.map((a) => a.json()))) as { refresh_token: string }[];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(bodies.map((b) => b.refresh_token)).size).toBe(1);
    expect(bodies[0]?.refresh_token).not.toBe(token);

    t.clock.advance(11_000);
    const late = await refresh(token);
    expect(late.status).toBe(400);
    expect(((await late.json()) as { code: string }).code).toBe('refresh_token_already_used');
    expect((await refresh(bodies[0]?.refresh_token ?? '')).status).toBe(400);
  });

  it('admin API: create, list with paging, ban, soft delete (migration 0014 on PostgreSQL)', async () => {
    const admin = t.createKeyedClient(await t.createServiceRoleKey()).auth.admin;
    const created = await admin.createUser({
      email: 'pg-admin@example.com',
      password: TEST_PASSWORD,
      email_confirm: true,
      user_metadata: { team: 'pg' },
    });
    expect(created.error).toBeNull();
    const id = created.data.user?.id ?? '';
    const listed = await admin.listUsers({ page: 1, perPage: 1 });
    expect(listed.data.users).toHaveLength(1);
    expect(listed.data).toMatchObject({ aud: 'authenticated', nextPage: 2 });
    const banned = await admin.updateUserById(id, { ban_duration: '1h' });
    expect(banned.data.user?.banned_until).toBeTruthy();
    expect((await admin.deleteUser(id, true)).error).toBeNull();
    expect((await admin.getUserById(id)).data.user?.deleted_at).toBeTruthy();
  });

  it('OAuth client registry: register, update, page, delete (migration 0020 on PostgreSQL)', async () => {
    const oauth = t.createKeyedClient(await t.createServiceRoleKey()).auth.admin.oauth;
    const uris = ['https://pg.example.com/cb', 'http://localhost:3000/cb'];
    const created = await oauth.createClient({ client_name: 'PG', redirect_uris: uris });
    expect(created.error).toBeNull();
    expect(created.data?.client_secret).toBeTruthy();
    const id = created.data?.client_id ?? '';
    const updated = await oauth.updateClient(id, { grant_types: ['authorization_code'] });
    expect(updated.data).toMatchObject({
      redirect_uris: uris,
      grant_types: ['authorization_code'],
    });
    const listed = await oauth.listClients({ page: 1, perPage: 1 });
    expect(listed.data.clients.map((client) => client.client_id)).toEqual([id]);
    expect((await oauth.regenerateClientSecret(id)).data?.client_secret).toBeTruthy();
    expect((await oauth.deleteClient(id)).error).toBeNull();
    expect((await oauth.getClient(id)).error?.status).toBe(404);
  });

  it('the signing key is created once when two processes start together', async () => {
    const scratch = await createScratchDatabase(postgresTestUrl ?? '');
    const pools = [
      await createPostgresDatabase({ connectionString: scratch.url }),
      await createPostgresDatabase({ connectionString: scratch.url }),
    ];
    try {
      await runMigrations(pools[0] as Database);
      const services = await Promise.all(
        pools.map((db) =>
          createAuthService({
            db,
            logger: createLogger({ level: 'silent' }),
            mailer: { send: () => Promise.resolve() },
            sms: { send: () => Promise.resolve() },
            config: {
              siteUrl: SITE_URL,
              autoconfirm: false,
              jwtExpirySeconds: 3600,
              mfaIssuer: 'x',
              additionalRedirectUrls: [],
              captcha: null,
              google: null,
              logMailLinks: false,
            },
            argon2Options: { memoryCost: 1024, timeCost: 1, parallelism: 1 },
          }),
        ),
      );
      expect(services[0]?.anonKey).toBe(services[1]?.anonKey);
      expect(services[0]?.jwks.keys).toHaveLength(1);
    } finally {
      await Promise.all(pools.map((db) => db.close()));
      await scratch.drop();
    }
  });
});
