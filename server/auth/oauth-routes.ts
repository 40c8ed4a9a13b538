/**
 * Sign-in with Google and identity linking (protocols.md A4.11-A4.12, GoTrue api/external.go,
 * api/identity.go). The browser navigates to /authorize, goes through the provider, comes back to
 * /callback, and is sent on to redirect_to with the session in the fragment, or `?code=` for a
 * PKCE client.
 */
import { randomUUID } from 'node:crypto';
import type { Context, Hono } from 'hono';
import * as v from 'valibot';
import type { Queryable } from '../db/database.ts';
import type { AppEnv } from '../http/app-env.ts';
import { assertNotBanned } from './accounts.ts';
import {
  clientIp,
  inTransaction,
  readQuery,
  requireCaller,
  userAgent,
  type AuthContext,
} from './auth-context.ts';
import { AuthError, badRequest, notFound, unprocessable, validationFailed } from './auth-error.ts';
import {
  audit,
  findUserByEmail,
  findUserById,
  identityRowSchema,
  insertIdentity,
  insertUser,
  listIdentities,
  syncProviders,
  updateUser,
  type UserRow,
} from './auth-store.ts';
import {
  createFlowState,
  deleteFlowState,
  findFlowState,
  issueAuthCode,
  OAUTH_FLOW_TTL_MS,
  parseCodeChallenge,
  type CodeChallenge,
} from './flow-states.ts';
import type { GoogleProfile } from './google-oidc.ts';
import { signIn } from './sessions.ts';
import { errorRedirect, sessionFragment, withFragment } from './verify-routes.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const authorizeQuerySchema = v.looseObject({
  provider: v.optional(v.string()),
  redirect_to: v.optional(v.string()),
  scopes: v.optional(v.string()),
  code_challenge: v.optional(v.string()),
  code_challenge_method: v.optional(v.string()),
  skip_http_redirect: v.optional(v.string()),
});

const callbackQuerySchema = v.looseObject({
  state: v.optional(v.string()),
  code: v.optional(v.string()),
  error: v.optional(v.string()),
  error_description: v.optional(v.string()),
});

export function registerOAuthRoutes(app: Hono<AppEnv>, ctx: AuthContext): void {
  // GoTrue requireManualLinkingEnabled: after authentication (create-auth-service.ts), before
  // anything else on /user/identities.
  app.use(async (c, next) => {
    if (
      ctx.config.manualLinking === false &&
      /\/user\/identities(\/|$)/.test(new URL(c.req.url).pathname)
    ) {
      throw notFound('manual_linking_disabled', 'Manual linking is disabled');
    }
    await next();
  });

  app.get('/authorize', async (c) => {
    const query = readQuery(c, authorizeQuerySchema);
    const url = await startProviderFlow(ctx, c, query, null);
    return c.redirect(url, 302);
  });

  app.get('/user/identities/authorize', async (c) => {
    const query = readQuery(c, authorizeQuerySchema);
    const { user } = await requireCaller(ctx, c);
    const url = await startProviderFlow(ctx, c, query, user.id);
    // auth-js asks for the URL as JSON (skip_http_redirect=true) and navigates itself.
    if (query.skip_http_redirect === 'true') return c.json({ url });
    return c.redirect(url, 302);
  });

  const callback = async (c: Context<AppEnv>) => {
    const query = readQuery(c, callbackQuerySchema);
    const flow =
      query.state && UUID.test(query.state) ? await findFlowState(ctx.db, query.state) : null;
    const alive =
      flow !== null &&
      flow.provider_type === 'google' &&
      ctx.now().getTime() - flow.created_at.getTime() <= OAUTH_FLOW_TTL_MS;
    if (!flow || !alive || !ctx.google) {
      const error = new AuthError(
        400,
        'bad_oauth_state',
        'OAuth state parameter missing or invalid',
      );
      return c.redirect(errorRedirect(ctx.config.siteUrl, error, false), 303);
    }
    const redirectTo = ctx.redirects.resolve(flow.redirect_to);
    const pkce = flow.code_challenge !== null;
    try {
      if (query.error) {
        throw new AuthError(403, 'provider_error', query.error_description ?? query.error);
      }
      if (!flow.oidc_code_verifier || !flow.oidc_nonce)
        throw validationFailed('OAuth flow is incomplete');
      const search = new URL(c.req.url).search;
      let profile: GoogleProfile;
      try {
        profile = await ctx.google.finish(new URL(`${ctx.apiUrl}/callback${search}`), {
          state: flow.id,
          nonce: flow.oidc_nonce,
          codeVerifier: flow.oidc_code_verifier,
        });
      } catch (error) {
        c.get('logger').warn({ err: error }, 'oauth code exchange failed');
        throw new AuthError(
          500,
          'unexpected_failure',
          'Error getting user profile from external provider',
        );
      }
      const outcome = await inTransaction(ctx, c, async (tx) => {
        // One use: a replayed callback finds no flow.
        const current = await findFlowState(tx, flow.id);
        if (!current)
          throw new AuthError(400, 'bad_oauth_state', 'OAuth state has already been used');
        const user = await resolveUser(ctx, tx, profile, current.linking_target_id, clientIp(c));
        assertNotBanned(user, ctx.now());
        if (pkce) {
          const code = await issueAuthCode(tx, flow.id, user.id, ctx.now());
          await tx.query('UPDATE auth_flow_state SET oidc_code_verifier = NULL WHERE id = $1', [
            flow.id,
          ]);
          return { kind: 'code' as const, code };
        }
        await deleteFlowState(tx, flow.id);
        const session = await signIn(tx, ctx.sessions, {
          user,
          method: 'oauth',
          provider: 'google',
          ip: clientIp(c),
          userAgent: userAgent(c),
        });
        return { kind: 'session' as const, session };
      });
      if (outcome.kind === 'code') {
        const target = new URL(redirectTo);
        target.searchParams.set('code', outcome.code);
        return c.redirect(target.toString(), 303);
      }
      return c.redirect(withFragment(redirectTo, sessionFragment(outcome.session)), 303);
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      return c.redirect(errorRedirect(redirectTo, error, pkce), 303);
    }
  };
  app.get('/callback', callback);
  app.post('/callback', callback);

  app.delete('/user/identities/:identityId', async (c) => {
    const identityId = c.req.param('identityId');
    if (!UUID.test(identityId)) throw notFound('validation_failed', 'identity_id must be a UUID');
    await inTransaction(ctx, c, async (tx) => {
      const now = ctx.now();
      const { user } = await requireCaller(ctx, c, tx);
      const identities = await listIdentities(tx, user.id);
      const target = identities.find((identity) => identity.id === identityId);
      if (!target) throw unprocessable('identity_not_found', 'Identity does not exist');
      if (identities.length <= 1) {
        throw unprocessable(
          'single_identity_not_deletable',
          'User must have at least 1 identity after unlinking',
        );
      }
      await tx.query('DELETE FROM auth_identity WHERE id = $1', [target.id]);
      await syncProviders(tx, user, now);
      await audit(tx, {
        userId: user.id,
        action: 'identity_unlinked',
        ip: clientIp(c),
        detail: { provider: target.provider },
        now,
      });
    });
    return c.json({});
  });
}

async function startProviderFlow(
  ctx: AuthContext,
  c: Context<AppEnv>,
  query: v.InferOutput<typeof authorizeQuerySchema>,
  linkingTargetId: string | null,
): Promise<string> {
  if (query.provider !== 'google' || !ctx.google) {
    throw badRequest('validation_failed', 'Unsupported provider: provider is not enabled');
  }
  const challenge: CodeChallenge | null = parseCodeChallenge(
    query.code_challenge,
    query.code_challenge_method,
  );
  const redirectTo = ctx.redirects.resolve(query.redirect_to);
  const extra: Record<string, string> = {};
  for (const [key, value] of Object.entries(query))
    if (typeof value === 'string') extra[key] = value;
  const id = randomUUID();
  let started;
  try {
    started = await ctx.google.start({
      state: id,
      ...(query.scopes ? { scopes: query.scopes } : {}),
      extra,
    });
  } catch (error) {
    c.get('logger').error({ err: error }, 'oauth provider discovery failed');
    throw new AuthError(503, 'provider_unavailable', 'The sign-in provider cannot be reached');
  }
  await ctx.db.transaction((tx) =>
    createFlowState(tx, {
      id,
      userId: null,
      challenge,
      providerType: 'google',
      authenticationMethod: 'oauth',
      redirectTo,
      oidcCodeVerifier: started.codeVerifier,
      oidcNonce: started.nonce,
      linkingTargetId,
      now: ctx.now(),
    }),
  );
  return started.url.toString();
}

/**
 * The account a Google identity signs in to: the linking target, the account that already has
 * this identity, an account with the same provider-verified address (automatic linking), or a
 * new account.
 */
export async function resolveUser(
  ctx: AuthContext,
  tx: Queryable,
  profile: GoogleProfile,
  linkingTargetId: string | null,
  ip: string,
): Promise<UserRow> {
  const now = ctx.now();
  const { rows } = await tx.query(
    `SELECT id, user_id, provider, provider_id, identity_data, email, last_sign_in_at, created_at,
            updated_at
       FROM auth_identity WHERE provider = 'google' AND provider_id = $1 FOR UPDATE`,
    [profile.sub],
  );
  const identity = rows[0] ? v.parse(identityRowSchema, rows[0]) : null;

  let user: UserRow | null = null;
  if (linkingTargetId) {
    if (identity && identity.user_id !== linkingTargetId) {
      throw unprocessable('identity_already_exists', 'Identity is already linked to another user');
    }
    user = await findUserById(tx, linkingTargetId, { forUpdate: true });
    if (!user) throw notFound('user_not_found', 'User not found');
  } else if (identity) {
    user = await findUserById(tx, identity.user_id, { forUpdate: true });
  } else if (profile.email) {
    const owner = await findUserByEmail(tx, profile.email, { forUpdate: true });
    if (owner && !profile.emailVerified) {
      throw unprocessable(
        'email_exists',
        'A user with this email address has already been registered',
      );
    }
    if (owner) {
      user = owner;
      if (!owner.email_confirmed_at) {
        // Takeover guard: someone may have registered this address without owning it. Google
        // proved the mailbox, so the address is confirmed and the unproven password dropped.
        user = await updateUser(
          tx,
          owner.id,
          { email_confirmed_at: now, encrypted_password: null },
          now,
        );
      }
    }
  }

  if (!user) {
    user = await insertUser(tx, {
      email: profile.email ?? `${profile.sub}@google.invalid`,
      encryptedPassword: null,
      emailConfirmedAt: profile.emailVerified ? now : null,
      appMetadata: { provider: 'google', providers: ['google'] },
      userMetadata: profile.identityData,
      now,
    });
    await audit(tx, {
      userId: user.id,
      action: 'user_signedup',
      ip,
      detail: { provider: 'google' },
      now,
    });
  } else {
    user = await updateUser(
      tx,
      user.id,
      { user_metadata: { ...user.user_metadata, ...profileMetadata(profile) } },
      now,
    );
  }

  if (identity) {
    await tx.query(
      'UPDATE auth_identity SET identity_data = $2, email = $3, last_sign_in_at = $4, updated_at = $4 WHERE id = $1',
      [identity.id, JSON.stringify(profile.identityData), profile.email, now],
    );
  } else {
    await insertIdentity(tx, {
      userId: user.id,
      provider: 'google',
      providerId: profile.sub,
      identityData: profile.identityData,
      email: profile.email,
      now,
      signedIn: true,
    });
    if (linkingTargetId) {
      await audit(tx, {
        userId: user.id,
        action: 'identity_linked',
        ip,
        detail: { provider: 'google' },
        now,
      });
    }
  }
  return syncProviders(tx, user, now);
}

/** Profile fields refreshed from the provider at each sign-in (names, picture). */
function profileMetadata(profile: GoogleProfile): Record<string, unknown> {
  const data = profile.identityData;
  const out: Record<string, unknown> = {};
  for (const key of ['name', 'full_name', 'picture', 'avatar_url']) {
    if (data[key] !== undefined) out[key] = data[key];
  }
  return out;
}
