// Two server instances ("processes") on one backplane and one database: groups and sends span
// them. Runs on Redis when REDIS_URL_TEST is set (CI: redis://127.0.0.1:6379), each run under its
// own channel prefix, and in the production shape (each instance with its own pool on one
// PostgreSQL scratch database) when DATABASE_URL_TEST is set too; the in-memory backplane runs
// the same checks everywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../server/db/create-database.ts';
import type { Database } from '../../server/db/database.ts';
import { createLogger } from '../../server/logger.ts';
import { createMemoryBackplane } from '../../server/realtime/backplane.ts';
import { createScratchDatabase, postgresTestUrl } from '../fixtures/scratch-postgres.ts';
import { createTestTokens } from '../fixtures/test-tokens.ts';
import {
  buildConnection,
  call,
  collect,
  connectAndJoin,
  createMigratedDb,
  joinGroup,
  randomPrefix,
  registerMember,
  sleep,
  startHubServer,
  type HubServer,
  type Member,
  type Tokens,
} from './realtime-harness.ts';

// A test-runner switch (set by CI), not application configuration.
// Redis and PostgreSQL run on every machine of this project (CI included, started by .ci/run), so
// the scale-out suites always run; the *_TEST variables only point them elsewhere.
const redisUrl = process.env['REDIS_URL_TEST'] ?? 'redis://127.0.0.1:6379';
const postgresUrl = postgresTestUrl ?? 'postgres://postgres@127.0.0.1:5432/test';

const variants = [
  { name: 'the in-memory backplane, one PGlite', redis: false, postgres: false },
  { name: 'Redis, one PGlite', redis: true, postgres: false },
  { name: 'Redis, PostgreSQL with a pool per instance', redis: true, postgres: true },
] as const;

for (const variant of variants) {
  describe(`scale-out over ${variant.name}`, () => {
    let tokens: Tokens;
    let dbs: Database[];
    let dropScratch: () => Promise<void> = () => Promise.resolve();
    let a: HubServer;
    let b: HubServer;
    let ada: Member;
    let bob: Member;

    beforeAll(async () => {
      tokens = await createTestTokens();
      if (variant.postgres) {
        const scratch = await createScratchDatabase(postgresUrl);
        dropScratch = () => scratch.drop();
        const open = () =>
          createDatabase({
            databaseUrl: scratch.url,
            dataDir: '/nonexistent-unused',
            logger: createLogger({ level: 'silent' }),
          });
        dbs = [await open(), await open()];
      } else {
        const db = await createMigratedDb();
        dbs = [db, db];
      }
      const shared = variant.redis
        ? { redis: { url: redisUrl, prefix: randomPrefix() } }
        : { backplane: createMemoryBackplane() };
      a = await startHubServer({ tokens, db: dbs[0]!, ...shared });
      b = await startHubServer({ tokens, db: dbs[1]!, ...shared });
      ada = await registerMember(a, tokens, 'ada');
      bob = await registerMember(a, tokens, 'bob');
    });
    afterAll(async () => {
      await Promise.all([a.stop(), b.stop()]);
      await Promise.all([...new Set(dbs)].map((db) => db.close()));
      await dropScratch();
    });

    it('a notification created through A reaches a client connected to B, and only its owner', async () => {
      const adaOnB = await connectAndJoin(b, ada);
      const bobOnB = await connectAndJoin(b, bob);
      const received = collect(adaOnB, 'notificationReceived');
      const counts = collect(adaOnB, 'notificationCountUpdated');
      const bobSeen = collect(bobOnB, 'notificationReceived');
      const sent = await call(a, '/api/notifications?endpoint=send-test-notification', {
        method: 'POST',
        token: ada.token,
      });
      expect(sent.status).toBe(201);
      await expect.poll(() => received).toEqual([{ notification: sent.body.notification }]);
      await expect.poll(() => counts).toEqual([{ unreadCount: 1 }]);
      await sleep(100);
      expect(bobSeen).toEqual([]);
      await Promise.all([adaOnB.stop(), bobOnB.stop()]);
    });

    it('concurrent notifications through both instances each push an exact, distinct count', async () => {
      const carol = await registerMember(a, tokens, 'carol');
      const onB = await connectAndJoin(b, carol);
      const counts = collect<{ unreadCount: number }>(onB, 'notificationCountUpdated');
      const sends = Array.from({ length: 8 }, (_, i) =>
        call(i % 2 === 0 ? a : b, '/api/notifications?endpoint=send-test-notification', {
          method: 'POST',
          token: carol.token,
        }),
      );
      expect((await Promise.all(sends)).map((r) => r.status)).toEqual(Array(8).fill(201));
      await expect.poll(() => counts.length).toBe(8);
      // The per-user lock serialises the changes: every commit saw all earlier ones.
      expect(counts.map((c) => c.unreadCount).sort((x, y) => x - y)).toEqual([
        1, 2, 3, 4, 5, 6, 7, 8,
      ]);
      await onB.stop();
    });

    it('joins through A for a connection held by B; refuses another user’s; 404 for none', async () => {
      // The hub token from A works on B (one signing key per database).
      const connection = buildConnection(a, ada);
      connection.baseUrl = `${b.url}/hubs/notifications`;
      await connection.start();
      const id = connection.connectionId!;
      const seen = collect(connection, 'tablesInvalidated');
      expect((await joinGroup(a, ada, id, 'workspace')).status).toBe(200);
      expect((await joinGroup(a, bob, id, 'user', null)).status).toBe(403);
      expect((await joinGroup(a, ada, 'no-such-connection', 'user')).status).toBe(404);

      const change = {
        workspaceId: ada.workspaceId,
        tables: ['clients'],
        seq: 5,
        originClientId: null,
      };
      await a.realtime.publisher.publishTablesInvalidated(change);
      await expect.poll(() => seen).toEqual([change]);
      // Membership ends with the connection, on every process.
      await connection.stop();
      await sleep(50);
      expect((await joinGroup(a, ada, id, 'user')).status).toBe(404);
      expect(b.realtime.hub.stats()).toMatchObject({ connections: 0, groups: 0 });
    });
  });
}
