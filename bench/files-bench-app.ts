/**
 * The files benchmarks' server: the real HTTP app assembled as `createTestApp` assembles it
 * (in-memory migrated PGlite, test-signed access tokens, files mounted at /files), but with the
 * storage chosen by the caller (local disk under the data dir, or Azure Blob Storage such as
 * Azurite), logs at `info` into /dev/null as in production, no output validation, served over
 * real HTTP on 127.0.0.1. One registered user with a workspace and one project is ready to upload.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { serve } from '@hono/node-server';
import { runMigrations } from '../server/db/migrate.ts';
import { createMemoryPgliteDatabase } from '../server/db/pglite-database.ts';
import { createEndpointHandlers } from '../server/endpoints/create-endpoint-handlers.ts';
import { createFiles } from '../server/files/create-files.ts';
import { createHttpApp } from '../server/http/create-http-app.ts';
import { createLogger } from '../server/logger.ts';
import { createOutboxMailer } from '../server/mail/outbox-mailer.ts';
import { bearer, createTestTokens, newTestUser } from '../tests/fixtures/test-tokens.ts';

type Json = Record<string, any>;

export interface FilesBenchApp {
  /** http://127.0.0.1:<port>, also the app's PUBLIC_URL (download links point here). */
  origin: string;
  /** The app's data dir: files/ and uploads/ live under it. */
  dataDir: string;
  files: Awaited<ReturnType<typeof createFiles>>;
  projectId: string;
  /** A fresh access token of the registered user. */
  token: () => Promise<string>;
  /** An API call as the registered user, in process. */
  call: (method: string, url: string, body?: unknown) => Promise<{ status: number; body: Json }>;
  close: () => Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export async function createFilesBenchApp(options: {
  azure: { connectionString: string; container: string } | null;
  maxFileBytes: number;
}): Promise<FilesBenchApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'satchel-files-bench-'));
  const db = await createMemoryPgliteDatabase();
  let server: Server | null = null;
  try {
    await runMigrations(db);
    const logger = createLogger({ level: 'info', destination: createWriteStream('/dev/null') });
    const tokens = await createTestTokens();
    const { verifyAccessToken } = tokens;
    // The port is chosen first so PUBLIC_URL, and with it every download link, names this server.
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const files = await createFiles({
      db,
      dataDir,
      publicUrl: origin,
      maxFileBytes: options.maxFileBytes,
      azure: options.azure,
      verifyAccessToken,
      logger,
    });
    const mailer = createOutboxMailer({
      dir: path.join(dataDir, 'outbox', 'mail'),
      from: 'Satchel <no-reply@bench>',
      logger,
    });
    const app = createHttpApp({
      db,
      logger,
      handlers: createEndpointHandlers({
        version: '0.0.0-bench',
        mailer,
        contactEmail: 'team@bench',
        publicConfig: () => ({
          supabaseUrl: origin,
          supabaseAnonKey: 'anon-bench',
          googleEnabled: false,
          captchaSiteKey: null,
        }),
        files: files.handlers,
      }),
      verifyAccessToken,
      mounts: [{ path: '/files', app: files.app }],
      version: '0.0.0-bench',
      publicUrl: origin,
      fileStorageOrigin: files.origin,
      distDir: null,
    });

    const user = newTestUser('bench');
    const token = () => tokens.sign(user);
    const call = async (method: string, url: string, body?: unknown) => {
      const headers: Record<string, string> = bearer(await token());
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const response = await app.request(url, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as Json };
    };
    const expectOk = (what: string, result: { status: number; body: Json }) => {
      if (result.status !== 200) {
        throw new Error(`${what} answered ${result.status}: ${JSON.stringify(result.body)}`);
      }
      return result.body;
    };
    const registered = expectOk(
      'register-user',
      await call('POST', '/api/register?endpoint=register-user', {
        id: user.id,
        email: user.email,
        firstName: 'Bench',
      }),
    );
    const workspaceId = String(registered.data.workspace.id);
    const client = expectOk(
      'create-client',
      await call('POST', '/api/client?endpoint=create-client', {
        id: randomUUID(),
        workspaceId,
        name: 'Bench client',
      }),
    );
    const project = expectOk(
      'create-project',
      await call('POST', '/api/project?endpoint=create-project', {
        id: randomUUID(),
        workspaceId,
        clientId: client.client.id,
        name: 'Bench project',
      }),
    );

    const listening = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }) as Server;
    server = listening;
    await new Promise<void>((resolve, reject) => {
      listening.once('listening', resolve);
      listening.once('error', reject);
    });
    return {
      origin,
      dataDir,
      files,
      projectId: String(project.project.id),
      token,
      call,
      async close() {
        const closed = new Promise((resolve) => listening.close(resolve));
        listening.closeAllConnections();
        await closed;
        await db.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    server?.close();
    await db.close();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
