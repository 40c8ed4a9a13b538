/**
 * The admin API supabase-js's `auth.admin` calls (GoTrue api/admin.go, invite.go, mail.go
 * adminGenerateLink): users (list with paging, get, create, update incl. ban and email
 * confirmation, delete, soft delete), invitations, generated links, a user's MFA factors. Every
 * route needs an admin bearer token (admin-credentials.ts) before anything else is looked at.
 *
 * Admin-created users get the metadata they are given as it is (GoTrue keeps identity claims in
 * the identity only); nothing here sends mail except /invite. The OAuth client registry
 * (/admin/oauth/clients) is oauth-client-routes.ts, behind the same admin check.
 */
import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import * as v from 'valibot';
import type { Queryable } from '../db/database.ts';
import type { AppEnv } from '../http/app-env.ts';
import { assertStrongPassword, confirmEmail, parseEmail } from './accounts.ts';
import type { AdminCredentials } from './admin-credentials.ts';
import { verifyLink, type VerifyLinkType } from './auth-mail.ts';
import { clientIp, inTransaction, queueMail, readBody, type AuthContext } from './auth-context.ts';
import { notFound, unprocessable, validationFailed } from './auth-error.ts';
import {
  audit,
  factorJson,
  findUserByEmail,
  findUserById,
  findUsersByIds,
  insertIdentity,
  insertUser,
  listFactors,
  listFactorsOf,
  listIdentities,
  listIdentitiesOf,
  loadUserJson,
  normalizeEmail,
  updateUser,
  userJson,
  type UserRow,
} from './auth-store.ts';
import { deleteUserTokens, issueOneTimeToken, type OneTimeTokenType } from './one-time-tokens.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** GoTrue's page size when none is asked for; a page is never larger than MAX_PER_PAGE here. */
const DEFAULT_PER_PAGE = 50;
const MAX_PER_PAGE = 1000;

const DUPLICATE_EMAIL = 'A user with this email address has already been registered';

const nullableString = v.optional(v.nullable(v.string()));
const metadata = v.optional(v.nullable(v.record(v.string(), v.unknown())));

const adminUserSchema = v.object({
  id: nullableString,
  email: nullableString,
  phone: nullableString,
  password: nullableString,
  password_hash: nullableString,
  email_confirm: v.optional(v.nullable(v.boolean())),
  phone_confirm: v.optional(v.nullable(v.boolean())),
  user_metadata: metadata,
  app_metadata: metadata,
  ban_duration: nullableString,
  role: nullableString,
});
type AdminUserBody = v.InferOutput<typeof adminUserSchema>;

const deleteSchema = v.object({ should_soft_delete: v.optional(v.nullable(v.boolean())) });

const inviteSchema = v.object({ email: nullableString, data: metadata });

const generateLinkSchema = v.object({
  type: nullableString,
  email: nullableString,
  new_email: nullableString,
  password: nullableString,
  data: metadata,
});

export function registerAdminRoutes(
  app: Hono<AppEnv>,
  ctx: AuthContext,
  admin: AdminCredentials,
): void {
  // GoTrue: requireAdminCredentials wraps /admin/* and /invite, before any body or id is read.
  app.use(async (c, next) => {
    if (/^\/(admin(\/|$)|invite$)/.test(new URL(c.req.url).pathname.replace(/^.*\/auth\/v1/, ''))) {
      await admin.requireAdmin(c);
    }
    await next();
  });

  app.get('/admin/users', async (c) => {
    const page = pageParam(c.req.query('page'), 1);
    const perPage = Math.min(pageParam(c.req.query('per_page'), DEFAULT_PER_PAGE), MAX_PER_PAGE);
    const { rows: counted } = await ctx.db.query<{ count: string }>(
      'SELECT count(*)::text AS count FROM auth_user WHERE deleted_at IS NULL',
    );
    const total = Number(counted[0]?.count ?? 0);
    const { rows } = await ctx.db.query<{ id: string }>(
      `SELECT id FROM auth_user WHERE deleted_at IS NULL
        ORDER BY created_at DESC, id LIMIT $1 OFFSET $2`,
      [perPage, (page - 1) * perPage],
    );
    const users = await loadUsersJson(
      ctx.db,
      rows.map((row) => row.id),
    );
    // GoTrue addPaginationHeaders; auth-js reads the page number right after the first `=`.
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const link = (n: number) => `</admin/users?page=${n}&per_page=${perPage}>`;
    c.header(
      'Link',
      [
        ...(lastPage > page ? [`${link(page + 1)}; rel="next"`] : []),
        `${link(lastPage)}; rel="last"`,
      ].join(', '),
    );
    c.header('X-Total-Count', String(total));
    return c.json({ users, aud: 'authenticated' });
  });

  app.post('/admin/users', async (c) => {
    const body = await readBody(c, adminUserSchema);
    if (!body.email && !body.phone) {
      throw validationFailed('Cannot create a user without either an email or phone');
    }
    if (body.phone) throw unprocessable('phone_provider_disabled', 'Phone signups are disabled');
    const email = parseEmail(body.email ?? '');
    checkRole(body.role);
    if (body.password && body.password_hash) {
      throw validationFailed('Only a password or a password hash should be provided');
    }
    const id = body.id ? parseCustomId(body.id) : randomUUID();
    const bannedUntil = parseBan(body.ban_duration, ctx.now());
    const passwordHash = await passwordHashFor(ctx, body);
    const confirmed = body.email_confirm === true;

    const user = await inTransaction(ctx, c, async (tx) => {
      const now = ctx.now();
      if (await findUserByEmail(tx, email)) throw unprocessable('email_exists', DUPLICATE_EMAIL);
      if (await findUserById(tx, id)) {
        throw unprocessable('user_already_exists', 'User already registered');
      }
      let user = await insertUser(tx, {
        id,
        email,
        encryptedPassword: passwordHash,
        emailConfirmedAt: confirmed ? now : null,
        appMetadata: mergeMetadata(
          { provider: 'email', providers: ['email'] },
          body.app_metadata ?? {},
        ),
        userMetadata: body.user_metadata ?? {},
        now,
      });
      await insertIdentity(tx, {
        userId: id,
        provider: 'email',
        providerId: id,
        identityData: { sub: id, email, email_verified: confirmed, phone_verified: false },
        email,
        now,
        signedIn: false,
      });
      if (bannedUntil !== undefined) {
        user = await updateUser(tx, id, { banned_until: bannedUntil }, now);
      }
      await audit(tx, {
        userId: id,
        action: 'user_signedup',
        ip: clientIp(c),
        detail: { by: 'admin' },
        now,
      });
      return loadUserJson(tx, user);
    });
    return c.json(user);
  });

  app.get('/admin/users/:userId', async (c) => {
    const user = await loadUser(ctx.db, c.req.param('userId'));
    return c.json(await loadUserJson(ctx.db, user));
  });

  app.put('/admin/users/:userId', async (c) => {
    const userId = c.req.param('userId');
    await loadUser(ctx.db, userId);
    const body = await readBody(c, adminUserSchema);
    const email = body.email ? parseEmail(body.email) : null;
    if (body.phone) throw unprocessable('phone_provider_disabled', 'Phone updates are disabled');
    checkRole(body.role);
    const bannedUntil = parseBan(body.ban_duration, ctx.now());
    const passwordHash = body.password != null ? await passwordHashFor(ctx, body) : null;

    const user = await inTransaction(ctx, c, async (tx, effects) => {
      const now = ctx.now();
      let user = await loadUser(tx, userId, { forUpdate: true });
      const ended: string[] = [];
      if (body.email_confirm) user = await confirmEmail(tx, user, now);
      if (passwordHash) {
        user = await updateUser(tx, user.id, { encrypted_password: passwordHash }, now);
        // GoTrue UpdatePassword(tx, nil): a password set by an admin ends every session.
        ended.push(...(await endSessions(tx, user.id)));
        await deleteUserTokens(tx, user.id, ['recovery', 'reauthentication']);
      }
      if (email && email !== user.email) user = await setEmail(tx, user, email, body, now);
      if (body.app_metadata) {
        user = await updateUser(
          tx,
          user.id,
          { app_metadata: mergeMetadata(user.app_metadata, body.app_metadata) },
          now,
        );
      }
      if (body.user_metadata) {
        user = await updateUser(
          tx,
          user.id,
          { user_metadata: mergeMetadata(user.user_metadata, body.user_metadata) },
          now,
        );
      }
      if (bannedUntil !== undefined) {
        user = await updateUser(tx, user.id, { banned_until: bannedUntil }, now);
        // A ban ends the user's sessions, so /api and the hub refuse them at once.
        if (bannedUntil) ended.push(...(await endSessions(tx, user.id)));
      }
      if (ended.length > 0) {
        effects.push(() => Promise.resolve(ctx.sessionCheck.sessionsEnded(ended)));
      }
      await audit(tx, {
        userId: user.id,
        action: 'user_modified',
        ip: clientIp(c),
        detail: { by: 'admin' },
        now,
      });
      return loadUserJson(tx, user);
    });
    return c.json(user);
  });

  app.delete('/admin/users/:userId', async (c) => {
    const userId = c.req.param('userId');
    await loadUser(ctx.db, userId);
    const body = await readBody(c, deleteSchema);
    await inTransaction(ctx, c, async (tx, effects) => {
      const now = ctx.now();
      const user = await loadUser(tx, userId, { forUpdate: true });
      const ended = await endSessions(tx, user.id);
      effects.push(() => Promise.resolve(ctx.sessionCheck.sessionsEnded(ended)));
      await audit(tx, {
        userId: user.id,
        action: 'user_deleted',
        ip: clientIp(c),
        detail: { by: 'admin', soft: body.should_soft_delete === true },
        now,
      });
      if (body.should_soft_delete) {
        if (user.deleted_at) return;
        // The row stays (records may name its id); nothing that identifies or signs in remains.
        await tx.query('DELETE FROM auth_identity WHERE user_id = $1', [user.id]);
        await tx.query('DELETE FROM auth_mfa_factor WHERE user_id = $1', [user.id]);
        await tx.query('DELETE FROM auth_one_time_token WHERE user_id = $1', [user.id]);
        await tx.query('DELETE FROM auth_flow_state WHERE user_id = $1', [user.id]);
        await updateUser(
          tx,
          user.id,
          {
            email: null,
            encrypted_password: null,
            email_change: null,
            user_metadata: {},
            app_metadata: { provider: 'email', providers: [] },
            deleted_at: now,
          },
          now,
        );
        return;
      }
      await tx.query('DELETE FROM auth_user WHERE id = $1', [user.id]);
    });
    return c.json({});
  });

  app.get('/admin/users/:userId/factors', async (c) => {
    const user = await loadUser(ctx.db, c.req.param('userId'));
    return c.json((await listFactors(ctx.db, user.id)).map(factorJson));
  });

  app.delete('/admin/users/:userId/factors/:factorId', async (c) => {
    const userId = c.req.param('userId');
    const factorId = c.req.param('factorId');
    await loadUser(ctx.db, userId);
    if (!UUID.test(factorId)) throw notFound('validation_failed', 'factor_id must be an UUID');
    const factor = await inTransaction(ctx, c, async (tx, effects) => {
      const now = ctx.now();
      const factors = await listFactors(tx, userId);
      const factor = factors.find((f) => f.id === factorId);
      if (!factor) throw notFound('mfa_factor_not_found', 'Factor not found');
      await tx.query('DELETE FROM auth_mfa_factor WHERE id = $1', [factor.id]);
      await tx.query(
        "UPDATE auth_session SET aal = 'aal1', factor_id = NULL, updated_at = $2 WHERE factor_id = $1",
        [factor.id, now],
      );
      effects.push(() => Promise.resolve(ctx.sessionCheck.factorsChanged(userId)));
      await audit(tx, {
        userId,
        action: 'factor_deleted',
        ip: clientIp(c),
        detail: { by: 'admin', factor_type: factor.factor_type },
        now,
      });
      return factorJson(factor);
    });
    return c.json(factor);
  });

  app.post('/invite', async (c) => {
    const body = await readBody(c, inviteSchema);
    const email = parseEmail(body.email ?? '');
    const redirectTo = ctx.redirects.resolve(c.req.query('redirect_to'));
    const user = await inTransaction(ctx, c, async (tx, effects) => {
      const now = ctx.now();
      let user = await findUserByEmail(tx, email, { forUpdate: true });
      if (user?.email_confirmed_at) throw unprocessable('email_exists', DUPLICATE_EMAIL);
      user ??= await createInvitedUser(tx, email, body.data ?? {}, now);
      const token = await issueOneTimeToken(tx, {
        userId: user.id,
        type: 'confirmation',
        relatesTo: email,
        flowStateId: null,
        now,
      });
      user = await updateUser(tx, user.id, { invited_at: now, confirmation_sent_at: now }, now);
      queueMail(ctx, c, effects, 'invite', { to: email, ...token, redirectTo });
      await audit(tx, {
        userId: user.id,
        action: 'user_invited',
        ip: clientIp(c),
        detail: { by: 'admin' },
        now,
      });
      return loadUserJson(tx, user);
    });
    return c.json(user);
  });

  app.post('/admin/generate_link', async (c) => {
    const body = await readBody(c, generateLinkSchema);
    const email = parseEmail(body.email ?? '');
    const redirectTo = ctx.redirects.resolve(c.req.query('redirect_to'));
    const requested = body.type ?? '';
    if (!LINK_TYPES.includes(requested as LinkType)) {
      throw validationFailed(`Invalid email action link type requested: ${requested.slice(0, 40)}`);
    }
    let type = requested as LinkType;
    const existing = await findUserByEmail(ctx.db, email);
    if (!existing) {
      if (type === 'magiclink') type = 'signup';
      if (type === 'recovery' || type.startsWith('email_change')) {
        throw notFound('user_not_found', 'User with this email not found');
      }
    }
    let passwordHash: string | null = null;
    if (type === 'signup' && !existing) {
      if (requested === 'signup') {
        if (!body.password) throw validationFailed('Signup requires a valid password');
        assertStrongPassword(body.password, ctx.config.passwordPolicy);
        passwordHash = await ctx.passwords.hash(body.password);
      }
    }
    const newEmail =
      type === 'email_change_current' || type === 'email_change_new'
        ? parseEmail(body.new_email ?? '')
        : null;

    const result = await inTransaction(ctx, c, async (tx) => {
      const now = ctx.now();
      let user = await findUserByEmail(tx, email, { forUpdate: true });
      let tokenType: OneTimeTokenType;
      let relatesTo = email;
      if (type === 'signup' || type === 'invite') {
        if (user?.email_confirmed_at) throw unprocessable('email_exists', DUPLICATE_EMAIL);
        if (user && type === 'signup' && body.data) {
          user = await updateUser(
            tx,
            user.id,
            { user_metadata: mergeMetadata(user.user_metadata, body.data) },
            now,
          );
        }
        user ??= await createInvitedUser(tx, email, body.data ?? {}, now, passwordHash);
        tokenType = 'confirmation';
        user = await updateUser(
          tx,
          user.id,
          type === 'invite'
            ? { confirmation_sent_at: now, invited_at: now }
            : { confirmation_sent_at: now },
          now,
        );
      } else if (type === 'magiclink' || type === 'recovery') {
        if (!user) throw notFound('user_not_found', 'User with this email not found');
        tokenType = 'recovery';
        user = await updateUser(tx, user.id, { recovery_sent_at: now }, now);
      } else {
        if (!user || !newEmail) throw notFound('user_not_found', 'User with this email not found');
        const owner = await findUserByEmail(tx, newEmail);
        if (owner && owner.id !== user.id) throw unprocessable('email_exists', DUPLICATE_EMAIL);
        tokenType = type;
        if (type === 'email_change_new') relatesTo = newEmail;
        // Only the asked-for side gets a token, so following that one link completes the change.
        await deleteUserTokens(tx, user.id, ['email_change_new', 'email_change_current']);
        user = await updateUser(
          tx,
          user.id,
          { email_change: newEmail, email_change_sent_at: now, email_change_confirm_status: 0 },
          now,
        );
      }
      const token = await issueOneTimeToken(tx, {
        userId: user.id,
        type: tokenType,
        relatesTo,
        flowStateId: null,
        now,
      });
      await audit(tx, {
        userId: user.id,
        action: 'admin_generated_link',
        ip: clientIp(c),
        detail: { type },
        now,
      });
      return {
        ...(await loadUserJson(tx, user)),
        action_link: verifyLink(ctx.apiUrl, {
          token: token.linkToken,
          type: VERIFY_LINK_TYPE[type],
          redirectTo,
        }),
        email_otp: token.otp,
        hashed_token: token.linkToken,
        verification_type: type,
        redirect_to: redirectTo,
      };
    });
    return c.json(result);
  });

  // Admin features of GoTrue this service does not offer, answered as GoTrue does with them off.
  // (The OAuth client registry, /admin/oauth/clients, is oauth-client-routes.ts.)
  const customProvidersDisabled = () => {
    throw notFound('feature_disabled', 'Custom OAuth providers are disabled');
  };
  app.all('/admin/custom-providers', customProvidersDisabled);
  app.all('/admin/custom-providers/*', customProvidersDisabled);
  const passkeysDisabled = () => {
    throw notFound('passkey_disabled', 'Passkeys are disabled');
  };
  app.all('/admin/users/:userId/passkeys', passkeysDisabled);
  app.all('/admin/users/:userId/passkeys/*', passkeysDisabled);
  const samlDisabled = () => {
    throw notFound('saml_provider_disabled', 'SAML 2.0 is disabled');
  };
  app.all('/admin/sso/*', samlDisabled);
}

const LINK_TYPES = [
  'signup',
  'invite',
  'magiclink',
  'recovery',
  'email_change_current',
  'email_change_new',
] as const;
type LinkType = (typeof LINK_TYPES)[number];

const VERIFY_LINK_TYPE: Record<LinkType, VerifyLinkType> = {
  signup: 'signup',
  invite: 'invite',
  magiclink: 'magiclink',
  recovery: 'recovery',
  email_change_current: 'email_change',
  email_change_new: 'email_change',
};

/** A page of users with their identities and factors in three queries, in the ids' order. */
async function loadUsersJson(tx: Queryable, ids: string[]): Promise<Record<string, unknown>[]> {
  if (ids.length === 0) return [];
  const users = await findUsersByIds(tx, ids);
  const identities = await listIdentitiesOf(tx, ids);
  const factors = await listFactorsOf(tx, ids);
  return ids.flatMap((id) => {
    const user = users.get(id);
    if (!user) return [];
    return [
      userJson(
        user,
        identities.filter((identity) => identity.user_id === id),
        factors.filter((factor) => factor.user_id === id),
      ),
    ];
  });
}

/** GoTrue loadUser: 404 for an id that is not a UUID or not a user. */
async function loadUser(
  tx: Queryable,
  userId: string,
  options: { forUpdate?: boolean } = {},
): Promise<UserRow> {
  if (!UUID.test(userId)) throw notFound('validation_failed', 'user_id must be an UUID');
  const user = await findUserById(tx, userId, options);
  if (!user) throw notFound('user_not_found', 'User not found');
  return user;
}

/** GoTrue's page and per_page query parameters: a positive integer, or the fallback if absent. */
export function pageParam(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    throw validationFailed(`Bad Pagination Parameters: "${raw.slice(0, 20)}" is not a page number`);
  }
  return Number(raw);
}

function parseCustomId(raw: string): string {
  if (!UUID.test(raw)) throw validationFailed('ID must conform to the uuid v4 format');
  if (/^0{8}-0{4}-0{4}-0{4}-0{12}$/.test(raw)) throw validationFailed('ID cannot be a nil uuid');
  return raw.toLowerCase();
}

/** Access tokens always carry role `authenticated`; other roles cannot be honoured. */
function checkRole(role: string | null | undefined): void {
  if (role && role !== 'authenticated') {
    throw validationFailed('Only the role "authenticated" is supported');
  }
}

const GO_DURATION = /^(?:(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h))+$/;
const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * GoTrue's ban_duration: a Go duration ("24h", "1h30m") from now, or "none" to lift a ban.
 * Undefined when absent; null lifts the ban.
 */
export function parseBan(raw: string | null | undefined, now: Date): Date | null | undefined {
  if (!raw) return undefined;
  if (raw === 'none') return null;
  if (!GO_DURATION.test(raw)) {
    throw validationFailed(`invalid format for ban duration: time: invalid duration "${raw}"`);
  }
  let ms = 0;
  for (const [, amount, unit] of raw.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) {
    ms += Number(amount) * (UNIT_MS[unit ?? 'ms'] ?? 1);
  }
  // Go's time.Duration tops out near 292 years; later dates are not meaningful bans.
  const capped = Math.min(ms, 292 * 365 * 24 * 3_600_000);
  return capped === 0 ? null : new Date(now.getTime() + capped);
}

async function passwordHashFor(ctx: AuthContext, body: AdminUserBody): Promise<string | null> {
  if (body.password_hash) {
    if (!/^\$argon2(id|i|d)\$/.test(body.password_hash)) {
      throw validationFailed('Only argon2 password hashes are supported');
    }
    return body.password_hash;
  }
  if (!body.password) return null;
  assertStrongPassword(body.password, ctx.config.passwordPolicy);
  return ctx.passwords.hash(body.password);
}

/** GoTrue UpdateUserMetaData / UpdateAppMetaData: a top-level merge where null removes a key. */
function mergeMetadata(
  current: Record<string, unknown>,
  changes: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

async function endSessions(tx: Queryable, userId: string): Promise<string[]> {
  const { rows } = await tx.query<{ id: string }>(
    'DELETE FROM auth_session WHERE user_id = $1 RETURNING id',
    [userId],
  );
  return rows.map((row) => row.id);
}

/** An admin's email change takes effect at once (GoTrue SetEmail), on the email identity too. */
async function setEmail(
  tx: Queryable,
  user: UserRow,
  email: string,
  body: AdminUserBody,
  now: Date,
): Promise<UserRow> {
  const owner = await findUserByEmail(tx, email);
  if (owner && owner.id !== user.id) throw unprocessable('email_exists', DUPLICATE_EMAIL);
  const identities = await listIdentities(tx, user.id);
  const verified = body.email_confirm === true;
  if (identities.some((identity) => identity.provider === 'email')) {
    await tx.query(
      `UPDATE auth_identity
          SET identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', $3::boolean),
              email = $2, updated_at = $4
        WHERE user_id = $1 AND provider = 'email'`,
      [user.id, email, verified, now],
    );
  } else {
    await insertIdentity(tx, {
      userId: user.id,
      provider: 'email',
      providerId: user.id,
      identityData: { sub: user.id, email, email_verified: verified, phone_verified: false },
      email,
      now,
      signedIn: false,
    });
  }
  const metadata = { ...user.user_metadata };
  if ('email' in metadata) metadata.email = email;
  await deleteUserTokens(tx, user.id, ['email_change_new', 'email_change_current']);
  const updated = await updateUser(
    tx,
    user.id,
    {
      email: normalizeEmail(email),
      email_change: null,
      email_change_sent_at: null,
      email_change_confirm_status: 0,
      user_metadata: metadata,
    },
    now,
  );
  const providers = [...new Set([...(await listIdentities(tx, user.id)).map((i) => i.provider)])];
  return updateUser(tx, user.id, { app_metadata: { ...updated.app_metadata, providers } }, now);
}

/** A user waiting for their invitation (or sign-up link) to be followed: no password yet. */
async function createInvitedUser(
  tx: Queryable,
  email: string,
  data: Record<string, unknown>,
  now: Date,
  passwordHash: string | null = null,
): Promise<UserRow> {
  const id = randomUUID();
  const user = await insertUser(tx, {
    id,
    email,
    encryptedPassword: passwordHash,
    emailConfirmedAt: null,
    appMetadata: { provider: 'email', providers: ['email'] },
    userMetadata: data,
    now,
  });
  await insertIdentity(tx, {
    userId: id,
    provider: 'email',
    providerId: id,
    identityData: { sub: id, email, email_verified: false, phone_verified: false },
    email,
    now,
    signedIn: false,
  });
  return user;
}
