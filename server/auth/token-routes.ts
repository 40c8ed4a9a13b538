/**
 * POST /token?grant_type=password|refresh_token|pkce (protocols.md A4.2-A4.4, GoTrue
 * api/token.go). Every grant answers with the token response (A3.1).
 */
import { createHash } from 'node:crypto';
import type { Context, Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/app-env.ts';
import { assertNotBanned, parseEmail } from './accounts.ts';
import {
  checkCaptcha,
  clientIp,
  inTransaction,
  limit,
  metaSecuritySchema,
  readBody,
  requireCaller,
  userAgent,
  type AuthContext,
} from './auth-context.ts';
import { sha256Hex } from './auth-crypto.ts';
import {
  AuthError,
  badRequest,
  notFound,
  tooManyRequests,
  unprocessable,
  validationFailed,
} from './auth-error.ts';
import { findUserByEmail, findUserById, updateUser } from './auth-store.ts';
import { exchangeAuthCode } from './flow-states.ts';
import { IdTokenError, type VerifiedIdToken } from './google-oidc.ts';
import { resolveUser } from './oauth-routes.ts';
import { checkPassword } from './password-policy.ts';
import { refreshGrant, signIn, tokenResponse, type TokenResponse } from './sessions.ts';

const nullableString = v.optional(v.nullable(v.string()));

const passwordBodySchema = v.object({
  email: nullableString,
  phone: nullableString,
  password: nullableString,
  gotrue_meta_security: metaSecuritySchema,
});

const refreshBodySchema = v.object({ refresh_token: nullableString });

const pkceBodySchema = v.object({ auth_code: nullableString, code_verifier: nullableString });

const invalidCredentials = () => badRequest('invalid_credentials', 'Invalid login credentials');

export function registerTokenRoutes(app: Hono<AppEnv>, ctx: AuthContext): void {
  app.post('/token', async (c) => {
    const grantType = c.req.query('grant_type');
    let response: TokenResponse;
    if (grantType === 'password') response = await passwordGrant(ctx, c);
    else if (grantType === 'refresh_token') response = await refreshTokenGrant(ctx, c);
    else if (grantType === 'pkce') response = await pkceGrant(ctx, c);
    else if (grantType === 'id_token') response = await idTokenGrant(ctx, c);
    else if (grantType === 'web3') {
      // Sign-in with a wallet is not offered: GoTrue's answer with both chains turned off.
      throw unprocessable('web3_provider_disabled', 'Web3 provider is disabled');
    } else throw badRequest('invalid_credentials', 'unsupported_grant_type');
    c.header('Cache-Control', 'no-store');
    return c.json(response);
  });
}

async function passwordGrant(ctx: AuthContext, c: Context<AppEnv>): Promise<TokenResponse> {
  const body = await readBody(c, passwordBodySchema);
  if (body.phone && !body.email) {
    throw unprocessable('phone_provider_disabled', 'Phone logins are disabled');
  }
  if (!body.email) throw validationFailed('missing email or phone');
  const ip = clientIp(c);
  limit(ctx, ctx.limits.signInPerIp, ip);
  await checkCaptcha(ctx, c, body.gotrue_meta_security);
  const password = body.password ?? '';
  // Sign-in limits (ARCHITECTURE.md): per account only wrong guesses count. Once they reach the
  // limit, the right password still gets in after a passed captcha or from an address that
  // signed in to the account before; anyone else is refused whatever the password.
  const accountKey = body.email.trim().toLowerCase();
  const locked = ctx.limiter.peek(ctx.limits.signInPerAccount, accountKey);
  const wrongGuess = () => {
    limit(ctx, ctx.limits.signInPerAccount, accountKey);
    return invalidCredentials();
  };
  let email: string;
  try {
    email = parseEmail(body.email);
  } catch {
    await ctx.passwords.burn(password);
    throw wrongGuess();
  }
  const found = await findUserByEmail(ctx.db, email);
  // Unknown accounts cost one verify too: response time must not reveal who is registered.
  if (!found?.encrypted_password) {
    await ctx.passwords.burn(password);
    throw wrongGuess();
  }
  if (!(await ctx.passwords.verify(found.encrypted_password, password))) {
    throw wrongGuess();
  }
  if (!locked.allowed && !ctx.captcha && !(await signedInFrom(ctx, found.id, ip))) {
    // The same answer a wrong guess gets: the password's correctness is not revealed.
    throw tooManyRequests(
      'over_request_rate_limit',
      `Request rate limit reached. Try again in ${locked.retryAfterSeconds} seconds.`,
      locked.retryAfterSeconds,
    );
  }
  // Checked after the password so only the account's owner learns its state.
  if (!found.email_confirmed_at) throw badRequest('email_not_confirmed', 'Email not confirmed');
  assertNotBanned(found, ctx.now());
  const rehash = ctx.passwords.needsRehash(found.encrypted_password)
    ? await ctx.passwords.hash(password)
    : null;

  const response = await inTransaction(ctx, c, async (tx) => {
    let user = await findUserById(tx, found.id, { forUpdate: true });
    // The password changed between the check and now: the checked one is no longer valid.
    if (!user || user.encrypted_password !== found.encrypted_password) throw invalidCredentials();
    if (rehash) user = await updateUser(tx, user.id, { encrypted_password: rehash }, ctx.now());
    return signIn(tx, ctx.sessions, { user, method: 'password', ip, userAgent: userAgent(c) });
  });
  // GoTrue tells a client whose password no longer meets the rules (auth-js: data.weakPassword).
  const weakness = checkPassword(password, ctx.config.passwordPolicy);
  return weakness ? { ...response, weak_password: weakness } : response;
}

async function refreshTokenGrant(ctx: AuthContext, c: Context<AppEnv>): Promise<TokenResponse> {
  const body = await readBody(c, refreshBodySchema);
  if (!body.refresh_token) throw validationFailed('refresh_token required');
  if (body.refresh_token.length < 12) throw validationFailed('Refresh token is not valid');
  const ip = clientIp(c);
  limit(ctx, ctx.limits.refreshPerIp, ip);
  const presented = body.refresh_token;
  const outcome = await inTransaction(ctx, c, async (tx) => {
    const result = await refreshGrant(tx, ctx.sessions, presented, ip);
    if (!result.ok) return result;
    const user = await findUserById(tx, result.session.user_id);
    if (!user) return { ok: false as const, error: invalidCredentials() };
    assertNotBanned(user, ctx.now());
    return {
      ok: true as const,
      response: await tokenResponse(tx, ctx.sessions, user, result.session, result.refreshToken),
    };
  });
  // Thrown only now: a revoked family must stay revoked (committed) while the caller is refused.
  if (!outcome.ok) {
    if ('endedSessionId' in outcome && outcome.endedSessionId) {
      ctx.sessionCheck.sessionsEnded([outcome.endedSessionId]);
    }
    throw outcome.error;
  }
  return outcome.response;
}

async function pkceGrant(ctx: AuthContext, c: Context<AppEnv>): Promise<TokenResponse> {
  const body = await readBody(c, pkceBodySchema);
  if (!body.auth_code || !body.code_verifier) {
    throw validationFailed('invalid request: both auth code and code verifier should be non-empty');
  }
  const authCode = body.auth_code;
  const codeVerifier = body.code_verifier;
  return inTransaction(ctx, c, async (tx) => {
    const flow = await exchangeAuthCode(tx, { authCode, codeVerifier, now: ctx.now() });
    const user = await findUserById(tx, flow.user_id, { forUpdate: true });
    if (!user) throw invalidCredentials();
    assertNotBanned(user, ctx.now());
    const provider = flow.provider_type === 'google' ? 'google' : undefined;
    return signIn(tx, ctx.sessions, {
      user,
      method: flow.authentication_method,
      ...(provider ? { provider } : {}),
      ip: clientIp(c),
      userAgent: userAgent(c),
    });
  });
}

const idTokenBodySchema = v.object({
  id_token: nullableString,
  access_token: nullableString,
  nonce: nullableString,
  provider: nullableString,
  client_id: nullableString,
  issuer: nullableString,
  link_identity: v.optional(v.nullable(v.boolean())),
  gotrue_meta_security: metaSecuritySchema,
});

/** GoTrue's OAuthError shape (`error`, `error_description`), status 400. */
function oauthError(description: string, error = 'invalid request'): AuthError {
  return new AuthError(400, 'validation_failed', description, {
    extra: { error, error_description: description },
  });
}

/** GoTrue's issuers for the providers auth-js names; only Google can be configured here. */
const KNOWN_ISSUERS: Record<string, string> = {
  google: 'https://accounts.google.com',
  apple: 'https://appleid.apple.com',
  azure: 'https://login.microsoftonline.com/common/v2.0',
  facebook: 'https://www.facebook.com',
  keycloak: '',
  kakao: 'https://kauth.kakao.com',
};

/**
 * grant_type=id_token (GoTrue api/token_oidc.go): an ID token the app got from Google itself
 * (native, One Tap), verified against GOOGLE_ISSUER's JWKS with GOOGLE_CLIENT_ID as audience; a
 * nonce in the token must be the SHA-256 (hex) of the `nonce` sent. The account is found or made
 * as for the redirect flow (automatic linking by verified address), or, with link_identity, the
 * Google identity is linked to the signed-in caller.
 */
async function idTokenGrant(ctx: AuthContext, c: Context<AppEnv>): Promise<TokenResponse> {
  const body = await readBody(c, idTokenBodySchema);
  if (!body.id_token) throw oauthError('id_token required');
  if (!body.provider && (!body.client_id || !body.issuer)) {
    throw oauthError('provider or client_id and issuer required');
  }
  let linkTarget: string | null = null;
  if (body.link_identity) {
    if (!c.req.header('authorization')) {
      throw oauthError('Linking requires a valid user access token in Authorization');
    }
    linkTarget = (await requireCaller(ctx, c)).user.id;
    if (ctx.config.manualLinking === false)
      throw notFound('manual_linking_disabled', 'Manual linking is disabled');
  }
  const provider = body.provider ?? '';
  const google = ctx.google;
  const isGoogle = provider === 'google' || body.issuer === KNOWN_ISSUERS.google;
  if (!isGoogle || !google) {
    const issuer = isGoogle ? KNOWN_ISSUERS.google : KNOWN_ISSUERS[provider];
    if (issuer === undefined) {
      throw validationFailed(`Custom OIDC provider "${provider.slice(0, 100)}" not allowed`);
    }
    throw badRequest('provider_disabled', `Provider (issuer "${issuer}") is not enabled`);
  }
  const ip = clientIp(c);
  limit(ctx, ctx.limits.signInPerIp, ip);
  let verified: VerifiedIdToken;
  try {
    verified = await google.verifyIdToken(body.id_token);
  } catch (error) {
    if (error instanceof IdTokenError) {
      c.get('logger').info({ reason: error.message }, 'id token refused');
      throw oauthError('Bad ID token');
    }
    c.get('logger').error({ err: error }, 'id token: provider keys unavailable');
    throw new AuthError(503, 'provider_unavailable', 'The sign-in provider cannot be reached');
  }
  if (!verified.audience.includes(google.clientId)) {
    throw oauthError(`Unacceptable audience in id_token: [${verified.audience.join(' ')}]`);
  }
  const nonce = body.nonce ?? '';
  if ((verified.nonce !== null) !== (nonce !== '')) {
    throw oauthError('Passed nonce and nonce in id_token should either both exist or not.');
  }
  if (verified.nonce !== null && sha256Hex(nonce) !== verified.nonce) {
    throw oauthError('Nonces mismatch', 'invalid nonce');
  }
  if (
    body.access_token &&
    verified.atHash &&
    accessTokenHash(body.access_token) !== verified.atHash
  ) {
    throw oauthError('Bad ID token');
  }
  return inTransaction(ctx, c, async (tx) => {
    const user = await resolveUser(ctx, tx, verified.profile, linkTarget, ip);
    assertNotBanned(user, ctx.now());
    return signIn(tx, ctx.sessions, {
      user,
      method: 'oauth',
      provider: 'google',
      ip,
      userAgent: userAgent(c),
    });
  });
}

/** OIDC at_hash for RS256/ES256: the left half of the SHA-256 of the access token, base64url. */
function accessTokenHash(accessToken: string): string {
  return createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url');
}

/** The account signed in successfully from this address before (its `login` audit rows). */
async function signedInFrom(ctx: AuthContext, userId: string, ip: string): Promise<boolean> {
  if (ip === 'unknown') return false;
  const { rows } = await ctx.db.query(
    "SELECT 1 FROM auth_audit_event WHERE user_id = $1 AND action = 'login' AND ip = $2 LIMIT 1",
    [userId, ip],
  );
  return rows.length > 0;
}
