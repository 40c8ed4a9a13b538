/**
 * What every route of the auth service shares: dependencies, the clock, rate limits, body
 * parsing, the caller's session, and transactions whose side effects (mail, SMS) run only after
 * the commit.
 */
import type { Context } from 'hono';
import { createLocalJWKSet } from 'jose';
import * as v from 'valibot';
import type { Database, Queryable } from '../db/database.ts';
import type { AppEnv } from '../http/app-env.ts';
import type { RateLimiter, RateLimitRule } from '../http/rate-limiter.ts';
import type { Logger } from '../logger.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { SmsSender } from '../sms/sms-sender.ts';
import { TokenVerificationError, verifyJwt, type VerifiedClaims } from './access-tokens.ts';
import type { AuthConfig, AuthRateLimits } from './auth-config.ts';
import {
  AuthError,
  forbidden,
  tooManyRequests,
  unauthorized,
  validationFailed,
} from './auth-error.ts';
import { buildAuthMail, type AuthMailKind } from './auth-mail.ts';
import { findUserById, type SessionRow, type UserRow } from './auth-store.ts';
import type { CaptchaVerifier } from './captcha.ts';
import type { GoogleClient } from './google-oidc.ts';
import type { PasswordHasher } from './password-hasher.ts';
import type { RedirectPolicy } from './redirect-policy.ts';
import type { SessionCheck } from './session-check.ts';
import { findSession, type SessionDeps } from './sessions.ts';
import type { SigningKeyRing } from './signing-keys.ts';

export type Effect = () => Promise<void>;

export interface AuthContext {
  db: Database;
  /** Told after each commit that ends sessions or changes factors (the /api session cache). */
  sessionCheck: SessionCheck;
  logger: Logger;
  config: AuthConfig;
  /** `${siteUrl}/auth/v1`: the tokens' issuer and the base of mail links. */
  apiUrl: string;
  now: () => Date;
  passwords: PasswordHasher;
  sessions: SessionDeps;
  limits: AuthRateLimits;
  limiter: RateLimiter;
  keys: SigningKeyRing;
  redirects: RedirectPolicy;
  captcha: CaptchaVerifier | null;
  mailer: Mailer;
  sms: SmsSender;
  google: GoogleClient | null;
  verifyToken: (token: string) => Promise<VerifiedClaims>;
  /** verifyToken, but a token expired up to SIGN_OUT_GRACE_SECONDS ago passes: logout only. */
  verifyEndingToken: (token: string) => Promise<VerifiedClaims>;
}

export function createTokenCheck(
  keys: SigningKeyRing,
  options: { issuer: string; now: () => Date; expiredGraceSeconds?: number },
): (token: string) => Promise<VerifiedClaims> {
  const keySet = createLocalJWKSet(keys.jwks);
  return (token) => verifyJwt(token, keySet, options);
}

/** Counts one attempt; over the limit is a 429 with Retry-After in auth-js's error shape. */
export function limit(
  ctx: AuthContext,
  rule: RateLimitRule,
  key: string,
  code:
    | 'over_request_rate_limit'
    | 'over_email_send_rate_limit'
    | 'over_sms_send_rate_limit' = 'over_request_rate_limit',
): void {
  const result = ctx.limiter.hit(rule, key);
  if (result.allowed) return;
  const seconds = result.retryAfterSeconds;
  const message =
    code === 'over_request_rate_limit'
      ? `Request rate limit reached. Try again in ${seconds} seconds.`
      : `For security purposes, you can only request this after ${seconds} seconds.`;
  throw tooManyRequests(code, message, seconds);
}

export function clientIp(c: Context<AppEnv>): string {
  return c.get('clientIp');
}

export function userAgent(c: Context<AppEnv>): string | null {
  return c.req.header('user-agent')?.slice(0, 512) ?? null;
}

/**
 * The JSON body through a schema. Unknown keys are ignored (auth-js sends extras such as
 * `options`, `factorId`, `gotrue_meta_security`); an empty body reads as `{}`.
 */
export async function readBody<S extends v.GenericSchema>(
  c: Context<AppEnv>,
  schema: S,
): Promise<v.InferOutput<S>> {
  const text = await c.req.text();
  let raw: unknown = {};
  if (text.trim() !== '') {
    try {
      raw = JSON.parse(text);
    } catch {
      throw new AuthError(400, 'bad_json', 'Could not parse request body as JSON');
    }
  }
  const result = v.safeParse(schema, raw);
  if (!result.success) {
    const issue = result.issues[0];
    const where = issue.path?.map((p) => String(p.key)).join('.');
    throw validationFailed(where ? `${where}: ${issue.message}` : issue.message);
  }
  return result.output;
}

export function readQuery<S extends v.GenericSchema>(
  c: Context<AppEnv>,
  schema: S,
): v.InferOutput<S> {
  const result = v.safeParse(schema, c.req.query());
  if (!result.success) {
    const issue = result.issues[0];
    const where = issue.path?.map((p) => String(p.key)).join('.');
    throw validationFailed(where ? `${where}: ${issue.message}` : issue.message);
  }
  return result.output;
}

/** `gotrue_meta_security.captcha_token`, where auth-js puts a captcha token. */
export const metaSecuritySchema = v.optional(
  v.nullable(v.looseObject({ captcha_token: v.optional(v.nullable(v.string())) })),
);

export async function checkCaptcha(
  ctx: AuthContext,
  c: Context<AppEnv>,
  meta: { captcha_token?: string | null | undefined } | null | undefined,
): Promise<void> {
  if (!ctx.captcha) return;
  await ctx.captcha.verify(meta?.captcha_token, clientIp(c));
}

export interface Caller {
  claims: VerifiedClaims;
  user: UserRow;
  session: SessionRow;
}

/**
 * The signed-in caller of a user endpoint: a valid access token whose session still exists
 * (logout deletes sessions, so a signed-out token stops working here at once, as in GoTrue).
 */
/** The raw bearer token, or GoTrue's 401 no_authorization (checked before anything else). */
export function bearerToken(c: Context<AppEnv>): string {
  const header = c.req.header('authorization');
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match?.[1]) {
    throw unauthorized('no_authorization', 'This endpoint requires a valid Bearer token');
  }
  return match[1];
}

/**
 * A present and valid user access token (signature, expiry, audience, issuer), without touching
 * the database: GoTrue's requireAuthentication, which runs before a route reads its body or path.
 */
export async function verifyBearer(
  ctx: AuthContext,
  c: Context<AppEnv>,
  verify: (token: string) => Promise<VerifiedClaims> = ctx.verifyToken,
): Promise<VerifiedClaims> {
  const token = bearerToken(c);
  try {
    return await verify(token);
  } catch (error) {
    if (error instanceof TokenVerificationError) {
      throw forbidden(
        'bad_jwt',
        error.kind === 'signature'
          ? 'Invalid JWT signature'
          : `invalid JWT: unable to parse or verify signature, ${error.message}`,
      );
    }
    throw error;
  }
}

export async function requireCaller(
  ctx: AuthContext,
  c: Context<AppEnv>,
  tx: Queryable = ctx.db,
  verify: (token: string) => Promise<VerifiedClaims> = ctx.verifyToken,
): Promise<Caller> {
  const claims = await verifyBearer(ctx, c, verify);
  if (!claims.session_id) {
    throw forbidden('bad_jwt', 'invalid JWT: the token names no session');
  }
  const session = await findSession(tx, claims.session_id, { forUpdate: tx !== ctx.db });
  if (!session || session.user_id !== claims.sub) {
    throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
  }
  const user = await findUserById(tx, claims.sub, { forUpdate: tx !== ctx.db });
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
  return { claims, user, session };
}

/**
 * Runs fn in one transaction; effects it queues run after COMMIT (never for a rolled-back
 * change). A failed effect is logged, not turned into a failed request: the change stands and the
 * user can ask again (resend).
 */
export async function inTransaction<T>(
  ctx: AuthContext,
  c: Context<AppEnv>,
  fn: (tx: Queryable, effects: Effect[]) => Promise<T>,
): Promise<T> {
  const effects: Effect[] = [];
  const result = await ctx.db.transaction((tx) => fn(tx, effects));
  const settled = await Promise.allSettled(effects.map((effect) => effect()));
  for (const outcome of settled) {
    if (outcome.status === 'rejected') {
      c.get('logger').error({ err: outcome.reason }, 'auth after-commit effect failed');
    }
  }
  return result;
}

/** Queues a mail for after the commit; in outbox mode its link is logged for the developer. */
export function queueMail(
  ctx: AuthContext,
  c: Context<AppEnv>,
  effects: Effect[],
  kind: AuthMailKind,
  input: { to: string; linkToken: string; otp: string; redirectTo: string; newEmail?: string },
): void {
  const mail = buildAuthMail(kind, { apiUrl: ctx.apiUrl, ...input });
  effects.push(async () => {
    await ctx.mailer.send(mail.message);
    if (ctx.config.logMailLinks && mail.link) {
      c.get('logger').info({ kind, link: mail.link }, 'auth mail link (outbox mode)');
    }
  });
}
