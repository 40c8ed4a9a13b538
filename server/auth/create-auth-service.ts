/**
 * The embedded auth service: a Hono app for /auth/v1 that the unmodified supabase-js client speaks
 * to (wire-compatible with Supabase Auth / GoTrue, protocols.md part A), the access-token verifier
 * the /api dispatcher uses, and the public values the app reads at boot (anon key, Google,
 * captcha site key).
 *
 * Invariants: every response carries X-Supabase-Api-Version (auth-js reads error codes from the
 * body only when it does); errors leave through this app's own onError in auth-js's shape; mail
 * and SMS go out only after the transaction that caused them commits.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { createLocalJWKSet } from 'jose';
import type { PublicConfig } from '#contract/endpoints/config.ts';
import type { Database } from '../db/database.ts';
import type { AppEnv } from '../http/app-env.ts';
import { createRateLimiter, type RateLimiter } from '../http/rate-limiter.ts';
import type { Logger } from '../logger.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { SmsSender } from '../sms/sms-sender.ts';
import { createAccountAuth, type AccountAuth } from './account-auth.ts';
import { createAccessTokenSigner, createJwksVerifier } from './access-tokens.ts';
import { createAdminCredentials } from './admin-credentials.ts';
import { registerAdminRoutes } from './admin-routes.ts';
import { defaultAuthRateLimits, type AuthConfig } from './auth-config.ts';
import { SIGN_OUT_GRACE_SECONDS } from '#contract/sign-out-grace.ts';
import { createTokenCheck, verifyBearer, type AuthContext } from './auth-context.ts';
import { API_VERSION, AuthError, authErrorResponse, notFound } from './auth-error.ts';
import { createCaptchaVerifier } from './captcha.ts';
import { createGoogleClient } from './google-oidc.ts';
import type { VerifyAccessToken } from './identity.ts';
import { registerMfaRoutes } from './mfa-routes.ts';
import { registerOAuthClientRoutes } from './oauth-client-routes.ts';
import { registerOAuthRoutes } from './oauth-routes.ts';
import { createSessionCheck, verifyWithSessions, type SessionCheck } from './session-check.ts';
import {
  createPasswordHasher,
  OWASP_ARGON2ID,
  type PasswordHashOptions,
} from './password-hasher.ts';
import { createRedirectPolicy } from './redirect-policy.ts';
import { registerSignupRoutes } from './signup-routes.ts';
import { loadSigningKeys, type PublicJwk } from './signing-keys.ts';
import { registerTokenRoutes } from './token-routes.ts';
import { registerUserRoutes } from './user-routes.ts';
import { registerVerifyRoutes } from './verify-routes.ts';

export interface AuthServiceDeps {
  db: Database;
  logger: Logger;
  mailer: Mailer;
  sms: SmsSender;
  config: AuthConfig;
  /** The service's clock (tokens, expiry, reuse window, rate limits); tests move it. */
  now?: () => Date;
  /** OWASP argon2id by default; tests pass cheaper parameters. */
  argon2Options?: PasswordHashOptions;
  /** Network edge for the captcha siteverify call; tests point it at a local stub. */
  fetch?: typeof fetch;
}

export interface AuthService {
  /** Mount at /auth/v1. */
  app: Hono<AppEnv>;
  /**
   * For the /api dispatcher: ES256 signature, expiry, audience `authenticated`, and a session
   * that is still signed in (see session-check.ts).
   */
  verifyAccessToken: VerifyAccessToken;
  /** Session liveness for the hub: hub tokens name a session; its sign-out closes them. */
  sessions: SessionCheck;
  /** The public `anon` key clients send as `apikey` (stable: stored with the signing key). */
  anonKey: string;
  jwks: { keys: PublicJwk[] };
  publicConfig: () => PublicConfig;
  /** The rate limiter, for tests that need a clean slate. */
  rateLimiter: RateLimiter;
  /** Re-authentication and removal of an account, for /api's delete-account. */
  accounts: AccountAuth;
}

/** GoTrue's default is 0 s; hosted Supabase uses 10 s, which multi-tab PWAs need. */
const DEFAULT_REUSE_INTERVAL_SECONDS = 10;

const CORS_HEADERS = [
  'apikey',
  'authorization',
  'content-type',
  'x-client-info',
  'x-supabase-api-version',
  'x-retry-count',
  'traceparent',
  'tracestate',
  'baggage',
];

/** Routes behind GoTrue's requireAuthentication. */
const AUTHENTICATED_PATHS = /^\/(user|factors|reauthenticate|logout)(\/|$)/;

/** The path below /auth/v1 (the app is mounted there). */
function servicePath(url: string): string {
  return new URL(url).pathname.replace(/^.*\/auth\/v1/, '') || '/';
}

export async function createAuthService(deps: AuthServiceDeps): Promise<AuthService> {
  const now = deps.now ?? (() => new Date());
  const { config } = deps;
  const apiUrl = `${config.siteUrl}/auth/v1`;
  const keys = await loadSigningKeys(deps.db, { issuer: apiUrl, now });
  const passwords = await createPasswordHasher(deps.argon2Options ?? OWASP_ARGON2ID);
  const limiter = createRateLimiter({ now: () => now().getTime() });
  const signer = createAccessTokenSigner({
    privateKey: keys.privateKey,
    kid: keys.kid,
    issuer: apiUrl,
    expirySeconds: config.jwtExpirySeconds,
    now,
  });

  const sessionCheck = createSessionCheck({ db: deps.db });

  const ctx: AuthContext = {
    db: deps.db,
    sessionCheck,
    logger: deps.logger,
    config,
    apiUrl,
    now,
    passwords,
    sessions: {
      signer,
      now,
      reuseIntervalSeconds:
        config.refreshTokenReuseIntervalSeconds ?? DEFAULT_REUSE_INTERVAL_SECONDS,
    },
    limits: { ...defaultAuthRateLimits, ...config.rateLimits },
    limiter,
    keys,
    redirects: createRedirectPolicy(config.siteUrl, config.additionalRedirectUrls),
    captcha: config.captcha ? createCaptchaVerifier(config.captcha, deps.fetch) : null,
    mailer: deps.mailer,
    sms: deps.sms,
    google: config.google
      ? createGoogleClient(config.google, { callbackUrl: `${apiUrl}/callback` })
      : null,
    verifyToken: createTokenCheck(keys, { issuer: apiUrl, now }),
    verifyEndingToken: createTokenCheck(keys, {
      issuer: apiUrl,
      now,
      expiredGraceSeconds: SIGN_OUT_GRACE_SECONDS,
    }),
  };

  const admin = createAdminCredentials({
    db: deps.db,
    keys,
    issuer: apiUrl,
    now,
    trustedKeys: config.adminJwtKeys ?? [],
  });

  const app = new Hono<AppEnv>();
  app.use(
    cors({
      origin: '*',
      allowHeaders: CORS_HEADERS,
      allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      exposeHeaders: ['X-Supabase-Api-Version', 'Retry-After'],
      maxAge: 86_400,
    }),
  );
  app.use(async (c, next) => {
    c.header('X-Supabase-Api-Version', API_VERSION);
    // GoTrue itself (and the Supabase CLI) needs no apikey: the anon key is public, so asking for
    // it protects nothing, and who may do what is decided by the bearer token. A key that IS sent
    // must be one of ours, as hosted Supabase's gateway answers (401 "Invalid API key"), so a
    // client configured for another project fails loudly instead of half-working.
    const apikey = c.req.header('apikey') ?? c.req.query('apikey');
    if (apikey && apikey !== keys.anonKey && !(await admin.isAdminKey(apikey))) {
      throw new AuthError(401, 'invalid_api_key', 'Invalid API key');
    }
    await next();
  });
  app.use(
    bodyLimit({
      maxSize: 1024 * 1024,
      onError: () => {
        throw new AuthError(413, 'request_too_large', 'Request body is larger than 1 MiB');
      },
    }),
  );

  // GoTrue's requireAuthentication wraps these routes: without a valid bearer token the answer is
  // 401 no_authorization (or 403 bad_jwt) before any 404, validation or disabled-feature error.
  // A session's own sign-out (logout?scope=local) also takes a token in its grace after expiry.
  app.use(async (c, next) => {
    const path = servicePath(c.req.url);
    if (AUTHENTICATED_PATHS.test(path)) {
      const endsOwnSession = /^\/logout\/?$/.test(path) && c.req.query('scope') === 'local';
      await verifyBearer(ctx, c, endsOwnSession ? ctx.verifyEndingToken : ctx.verifyToken);
    }
    await next();
  });

  app.get('/.well-known/jwks.json', (c) => {
    c.header('Cache-Control', 'public, max-age=600');
    return c.json(keys.jwks);
  });
  app.get('/health', (c) =>
    c.json({ version: 'satchel', name: 'GoTrue', description: 'Satchel embedded auth service' }),
  );
  app.get('/settings', (c) =>
    c.json({
      external: {
        email: true,
        phone: false,
        google: config.google !== null,
        anonymous_users: false,
      },
      disable_signup: false,
      mailer_autoconfirm: config.autoconfirm,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
      passkeys_enabled: false,
    }),
  );

  registerSignupRoutes(app, ctx);
  registerTokenRoutes(app, ctx);
  registerUserRoutes(app, ctx);
  registerVerifyRoutes(app, ctx);
  registerMfaRoutes(app, ctx);
  registerOAuthRoutes(app, ctx);
  registerAdminRoutes(app, ctx, admin);
  // After the admin routes: their admin check guards /admin/oauth/clients too.
  registerOAuthClientRoutes(app, ctx);

  // Features this service does not offer answer as GoTrue does with them turned off
  // (ARCHITECTURE.md, Identity: not offered).
  const samlDisabled = () => {
    throw notFound('saml_provider_disabled', 'SAML 2.0 is disabled');
  };
  app.all('/sso', samlDisabled);
  app.all('/sso/*', samlDisabled);
  const passkeysDisabled = () => {
    throw notFound('passkey_disabled', 'Passkeys are disabled');
  };
  app.all('/passkeys', passkeysDisabled);
  app.all('/passkeys/*', passkeysDisabled);

  app.all('*', () => {
    throw notFound('not_found', 'Not found');
  });
  app.onError((error, c) => authErrorResponse(error, c));

  return {
    app,
    verifyAccessToken: verifyWithSessions(
      createJwksVerifier(createLocalJWKSet(keys.jwks), { issuer: apiUrl, now }),
      sessionCheck,
    ),
    sessions: sessionCheck,
    anonKey: keys.anonKey,
    jwks: keys.jwks,
    publicConfig: () => ({
      supabaseUrl: config.siteUrl,
      supabaseAnonKey: keys.anonKey,
      googleEnabled: config.google !== null,
      captchaSiteKey: config.captcha?.siteKey ?? null,
    }),
    rateLimiter: limiter,
    accounts: createAccountAuth({ passwords, sessionCheck, now }),
  };
}
