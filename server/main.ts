/**
 * Process entry: env -> logger -> database (migrated) -> HTTP app -> listen; SIGTERM/SIGINT stop
 * gracefully. Nothing else constructs the real dependencies.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { verifyNoTokens } from './auth/no-token-verifier.ts';
import { createDatabase } from './db/create-database.ts';
import { createEndpointHandlers } from './endpoints/create-endpoint-handlers.ts';
import { EnvError, readEnv } from './env.ts';
import { createHttpApp } from './http/create-http-app.ts';
import { createLogger } from './logger.ts';
import { createOutboxMailer } from './mail/outbox-mailer.ts';
import { startServer } from './start-server.ts';

const projectRoot = path.resolve(import.meta.dirname, '..');

async function main(): Promise<void> {
  let env;
  try {
    env = readEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger({ level: env.logLevel });
  const version = (
    JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }
  ).version;

  const db = await createDatabase({ databaseUrl: env.databaseUrl, dataDir: env.dataDir, logger });
  const mailer = createOutboxMailer({
    dir: path.join(env.dataDir, 'outbox', 'mail'),
    from: env.mailFrom,
    logger,
  });
  const app = createHttpApp({
    db,
    logger,
    handlers: createEndpointHandlers({
      version,
      mailer,
      contactEmail: env.contactEmail,
      // Until the embedded auth service is wired in (accounts issue) there is no anon key to give.
      publicConfig: () => ({
        supabaseUrl: env.publicUrl,
        supabaseAnonKey: '',
        googleEnabled: false,
        captchaSiteKey: null,
      }),
    }),
    verifyAccessToken: verifyNoTokens,
    version,
    publicUrl: env.publicUrl,
    distDir: env.staticDir ?? path.join(projectRoot, 'dist'),
  });
  const running = await startServer({ app, db, logger, port: env.port, host: env.host });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'signal received');
      running.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Satchel failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
