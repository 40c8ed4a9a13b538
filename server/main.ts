/**
 * Process entry: env -> logger -> database (migrated) -> HTTP app -> listen; SIGTERM/SIGINT stop
 * gracefully. Nothing else constructs the real dependencies.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { PublicConfig } from '#contract/endpoints/config.ts';
import { rateLimitsFromSettings } from './auth/auth-config.ts';
import type { AccountAuth } from './auth/account-auth.ts';
import { createAuthService } from './auth/create-auth-service.ts';
import { createHostedAuth } from './auth/hosted-auth.ts';
import type { VerifyAccessToken } from './auth/identity.ts';
import { createDatabase } from './db/create-database.ts';
import { createEndpointHandlers } from './endpoints/create-endpoint-handlers.ts';
import { createFiles } from './files/create-files.ts';
import { EnvError, readEnv } from './env.ts';
import { createHttpApp, type HttpAppDeps } from './http/create-http-app.ts';
import { createLogger } from './logger.ts';
import { createOutboxMailer } from './mail/outbox-mailer.ts';
import { createSmtpMailer } from './mail/smtp-mailer.ts';
import { createRealtime } from './realtime/create-realtime.ts';
import type { HubSessions } from './realtime/notification-hub.ts';
import { createOutboxSmsSender } from './sms/outbox-sms-sender.ts';
import { startServer } from './start-server.ts';
import { createInvoiceEventHandler } from './endpoints/portal-invoices.ts';
import { createStripeEventHandlers } from './stripe/stripe-event-handlers.ts';
import { createStripeGateway } from './stripe/stripe-gateway.ts';
import { createStripeWebhookRoute } from './stripe/stripe-webhook-route.ts';

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
  const mailer = env.auth.smtpUrl
    ? createSmtpMailer({ url: env.auth.smtpUrl, from: env.mailFrom, logger })
    : createOutboxMailer({
        dir: path.join(env.dataDir, 'outbox', 'mail'),
        from: env.mailFrom,
        logger,
      });

  // Accounts: a hosted Supabase project when configured, else the embedded service at /auth/v1.
  let verifyAccessToken: VerifyAccessToken;
  let publicConfig: () => PublicConfig;
  const mounts: NonNullable<HttpAppDeps['mounts']> = [];
  // Embedded only: hosted Supabase keeps its sessions, so a sign-out there reaches /api and the
  // hub only when the access token expires (ARCHITECTURE.md, Identity).
  let sessions: HubSessions | null = null;
  let accounts: AccountAuth | null = null;
  if (env.hosted) {
    const hosted = await createHostedAuth({
      supabaseUrl: env.hosted.supabaseUrl,
      anonKey: env.hosted.anonKey,
      captchaSiteKey: env.auth.captcha?.siteKey ?? null,
      logger,
    });
    verifyAccessToken = hosted.verifyAccessToken;
    publicConfig = hosted.publicConfig;
    logger.info({ supabaseUrl: env.hosted.supabaseUrl }, 'accounts: hosted Supabase project');
  } else {
    const auth = await createAuthService({
      db,
      logger,
      mailer,
      sms: createOutboxSmsSender({ dir: path.join(env.dataDir, 'outbox', 'sms'), logger }),
      config: {
        siteUrl: env.publicUrl,
        autoconfirm: env.auth.autoconfirm,
        jwtExpirySeconds: env.auth.jwtExpirySeconds,
        mfaIssuer: env.auth.mfaIssuer,
        additionalRedirectUrls: env.auth.additionalRedirectUrls,
        adminJwtKeys: env.auth.adminJwtKeys,
        captcha: env.auth.captcha,
        google: env.auth.google,
        rateLimits: rateLimitsFromSettings(env.auth.limits),
        passwordPolicy: env.auth.passwordPolicy,
        manualLinking: env.auth.manualLinking,
        // Without SMTP nobody receives the mail: the link in the log lets a developer sign in.
        logMailLinks: !env.auth.smtpUrl,
      },
    });
    verifyAccessToken = auth.verifyAccessToken;
    publicConfig = auth.publicConfig;
    sessions = auth.sessions;
    accounts = auth.accounts;
    mounts.push({ path: '/auth/v1', app: auth.app });
  }

  // The notification hub (/hubs/notifications); Redis spans processes when REDIS_URL is set.
  const realtime = await createRealtime({
    db,
    logger,
    publicUrl: env.publicUrl,
    allowedOrigins: env.realtime.allowedOrigins,
    redis: env.realtime.redis,
    sessions,
  });
  mounts.push(...realtime.mounts);

  const publishInvalidation: HttpAppDeps['publishInvalidation'] = (change) =>
    void realtime.publisher.publishTablesInvalidated(change);
  // Project files: uploads at /files/uploads, local download links at /files/d.
  const files = await createFiles({
    db,
    dataDir: env.dataDir,
    publicUrl: env.publicUrl,
    maxFileBytes: env.files.maxFileBytes,
    azure: env.files.azure,
    verifyAccessToken,
    logger,
    publishInvalidation,
  });
  mounts.push({ path: '/files', app: files.app });
  mounts.push({ path: '/api/client-portal', app: files.portalApp });
  logger.info(
    { storage: files.storage.kind, maxFileBytes: env.files.maxFileBytes },
    'files: storage ready',
  );
  files.sweeps.start();
  // Payments: null without STRIPE_SECRET_KEY (everything on Free); the webhook at /api/stripe.
  const stripe = createStripeGateway(env.stripe);
  mounts.push({
    path: '/api/stripe',
    app: createStripeWebhookRoute({
      db,
      gateway: stripe,
      handlers: {
        ...createStripeEventHandlers({ publisher: realtime.publisher }),
        // A client paying an invoice in the portal (server/endpoints/portal-invoices.ts).
        invoice: createInvoiceEventHandler({
          notifications: realtime.notifications,
          publisher: realtime.publisher,
        }),
      },
    }),
  });
  logger.info({ payments: stripe ? 'stripe' : 'not configured' }, 'payments');

  const app = createHttpApp({
    db,
    logger,
    handlers: createEndpointHandlers({
      version,
      mailer,
      contactEmail: env.contactEmail,
      publicConfig,
      realtime,
      files: files.handlers,
      stripe,
      accounts,
    }),
    verifyAccessToken,
    publishInvalidation,
    mounts,
    version,
    publicUrl: env.publicUrl,
    hostedSupabaseUrl: env.hosted?.supabaseUrl ?? null,
    captcha: Boolean(env.auth.captcha?.siteKey),
    fileStorageOrigin: files.origin,
    trustProxyHops: env.trustProxyHops,
    distDir: env.staticDir ?? path.join(projectRoot, 'dist'),
  });
  const running = await startServer({
    app,
    db,
    logger,
    port: env.port,
    host: env.host,
    upgrades: realtime.upgrades,
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'signal received');
      files.stop();
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
