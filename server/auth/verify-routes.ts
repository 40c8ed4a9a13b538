/**
 * Mail-driven flows (protocols.md A4.8-A4.10, GoTrue api/verify.go, recover.go, resend.go,
 * otp.go): POST /recover, POST /otp, POST /resend send links and codes; GET /verify (a link
 * click) and POST /verify (verifyOtp) redeem them.
 *
 * A redeemed link answers like GoTrue: 303 to redirect_to with the session in the fragment
 * (`#access_token=…&type=signup`), or `?code=` when the flow was started by a PKCE client.
 */
import type { Context, Hono } from 'hono';
import * as v from 'valibot';
import type { Queryable } from '../db/database.ts';
import type { AppEnv } from '../http/app-env.ts';
import {
  assertNotBanned,
  completeEmailChange,
  confirmEmail,
  createEmailUser,
  parseEmail,
  parsePhone,
} from './accounts.ts';
import {
  checkCaptcha,
  clientIp,
  inTransaction,
  limit,
  metaSecuritySchema,
  queueMail,
  readBody,
  userAgent,
  type AuthContext,
  type Effect,
} from './auth-context.ts';
import { sha256Hex } from './auth-crypto.ts';
import { AuthError, badRequest, forbidden, unprocessable, validationFailed } from './auth-error.ts';
import { audit, findUserByEmail, findUserById, updateUser, type UserRow } from './auth-store.ts';
import {
  createFlowState,
  deleteFlowState,
  issueAuthCode,
  parseCodeChallenge,
  type CodeChallenge,
} from './flow-states.ts';
import {
  consumeToken,
  deleteUserTokens,
  findByLinkToken,
  findByOtp,
  issueOneTimeToken,
  PKCE_PREFIX,
  type OneTimeTokenRow,
  type OneTimeTokenType,
} from './one-time-tokens.ts';
import { signIn, type TokenResponse } from './sessions.ts';

const nullableString = v.optional(v.nullable(v.string()));

const VERIFY_TYPES = [
  'signup',
  'invite',
  'recovery',
  'magiclink',
  'email',
  'email_change',
] as const;
type VerifyType = (typeof VERIFY_TYPES)[number];

const tokenTypesFor: Record<VerifyType, OneTimeTokenType[]> = {
  signup: ['confirmation'],
  invite: ['confirmation'],
  recovery: ['recovery'],
  magiclink: ['recovery'],
  email: ['confirmation', 'recovery'],
  email_change: ['email_change_new', 'email_change_current'],
};

const EMAIL_CHANGE_PENDING =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

const verifyBodySchema = v.object({
  type: nullableString,
  token: nullableString,
  token_hash: nullableString,
  email: nullableString,
  phone: nullableString,
  gotrue_meta_security: metaSecuritySchema,
});

const verifyQuerySchema = v.object({
  token: v.optional(v.string()),
  type: v.optional(v.string()),
  redirect_to: v.optional(v.string()),
});

const mailRequestSchema = v.object({
  email: nullableString,
  phone: nullableString,
  type: nullableString,
  data: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
  create_user: v.optional(v.nullable(v.boolean())),
  code_challenge: nullableString,
  code_challenge_method: nullableString,
  gotrue_meta_security: metaSecuritySchema,
});

type Redeemed =
  | { kind: 'signed-in'; user: UserRow; token: OneTimeTokenRow; type: VerifyType }
  | { kind: 'email-change-pending' };

const otpExpired = (link: boolean) =>
  forbidden(
    'otp_expired',
    link ? 'Email link is invalid or has expired' : 'Token has expired or is invalid',
  );

/** Phone sign-in is not offered: no account has a phone, so no phone code or link can match. */
const PHONE_VERIFY_TYPES = new Set(['sms', 'phone_change']);

function parseVerifyType(raw: string | null | undefined): VerifyType {
  if (raw && PHONE_VERIFY_TYPES.has(raw)) throw otpExpired(true);
  const type = VERIFY_TYPES.find((known) => known === raw);
  if (!type) throw validationFailed('Verify requires a verification type');
  return type;
}

export function registerVerifyRoutes(app: Hono<AppEnv>, ctx: AuthContext): void {
  app.post('/verify', async (c) => {
    const body = await readBody(c, verifyBodySchema);
    if (body.type && PHONE_VERIFY_TYPES.has(body.type)) {
      // GoTrue's order (api/verify.go): the request's shape, the number's format, then the
      // lookup, which finds no code here (phone sign-in is not offered).
      if (!body.token === !body.token_hash) {
        throw validationFailed('Verify requires either a token or a token hash');
      }
      if (body.token) {
        if (!body.phone) {
          throw validationFailed(
            'Only an email address or phone number should be provided on verify',
          );
        }
        parsePhone(body.phone);
      }
      limit(ctx, ctx.limits.verifyPerIp, clientIp(c));
      throw otpExpired(false);
    }
    const type = parseVerifyType(body.type);
    if (body.phone)
      throw validationFailed('Only an email address or phone number should be provided on verify');
    if (!body.token && !body.token_hash) {
      throw validationFailed('Verify requires either a token or a token hash');
    }
    if (body.token_hash && (body.token || body.email)) {
      throw validationFailed('Only the token_hash and type should be provided');
    }
    if (body.token && !body.email) {
      throw validationFailed('Only an email address or phone number should be provided on verify');
    }
    const ip = clientIp(c);
    limit(ctx, ctx.limits.verifyPerIp, ip);
    const email = body.email ? parseEmail(body.email) : null;
    // Guesses are counted per address (codes) or per link token (hashes).
    limit(ctx, ctx.limits.verifyPerAccount, email ?? sha256Hex(body.token_hash ?? ''));
    const lookup = email
      ? { email, otp: (body.token ?? '').trim() }
      : { linkToken: body.token_hash ?? '' };

    const result = await inTransaction(ctx, c, async (tx) => {
      const redeemed = await redeem(ctx, tx, type, lookup, false);
      if (redeemed.kind === 'email-change-pending') return null;
      if (redeemed.token.flow_state_id) await deleteFlowState(tx, redeemed.token.flow_state_id);
      return signIn(tx, ctx.sessions, {
        user: redeemed.user,
        method: 'otp',
        ip,
        userAgent: userAgent(c),
      });
    });
    if (!result) return c.json({ msg: EMAIL_CHANGE_PENDING, code: 200 });
    return c.json(result);
  });

  app.get('/verify', async (c) => {
    const query = v.parse(verifyQuerySchema, c.req.query());
    const redirectTo = ctx.redirects.resolve(query.redirect_to);
    const isPkce = query.token?.startsWith(PKCE_PREFIX) ?? false;
    try {
      const type = parseVerifyType(query.type);
      if (!query.token) throw otpExpired(true);
      const ip = clientIp(c);
      limit(ctx, ctx.limits.verifyPerIp, ip);
      const linkToken = query.token;
      const outcome = await inTransaction(ctx, c, async (tx) => {
        const redeemed = await redeem(ctx, tx, type, { linkToken }, true);
        if (redeemed.kind === 'email-change-pending') return { kind: 'pending' as const };
        const flowId = redeemed.token.flow_state_id;
        if (flowId) {
          return {
            kind: 'code' as const,
            code: await issueAuthCode(tx, flowId, redeemed.user.id, ctx.now()),
          };
        }
        const session = await signIn(tx, ctx.sessions, {
          user: redeemed.user,
          method: 'otp',
          ip,
          userAgent: userAgent(c),
        });
        return { kind: 'session' as const, session };
      });
      if (outcome.kind === 'pending') {
        return c.redirect(withFragment(redirectTo, { message: EMAIL_CHANGE_PENDING, sb: '' }), 303);
      }
      if (outcome.kind === 'code') {
        const target = new URL(redirectTo);
        target.searchParams.set('code', outcome.code);
        return c.redirect(target.toString(), 303);
      }
      return c.redirect(withFragment(redirectTo, sessionFragment(outcome.session, type)), 303);
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      return c.redirect(errorRedirect(redirectTo, error, isPkce), 303);
    }
  });

  app.post('/recover', async (c) => {
    const body = await readBody(c, mailRequestSchema);
    if (!body.email) throw validationFailed('Password recovery requires an email');
    const email = parseEmail(body.email);
    limit(ctx, ctx.limits.mailRequestPerIp, clientIp(c));
    await checkCaptcha(ctx, c, body.gotrue_meta_security);
    const challenge = parseCodeChallenge(body.code_challenge, body.code_challenge_method);
    const redirectTo = ctx.redirects.resolve(c.req.query('redirect_to'));
    // Counted for every address, registered or not: a 429 must not reveal accounts either.
    limit(ctx, ctx.limits.mailPerAddress, email, 'over_email_send_rate_limit');
    await inTransaction(ctx, c, async (tx, effects) => {
      const user = await findUserByEmail(tx, email, { forUpdate: true });
      if (!user) return; // 200 all the same: no account enumeration
      await sendLink(ctx, c, tx, effects, {
        user,
        kind: 'recovery',
        challenge,
        redirectTo,
      });
      await audit(tx, {
        userId: user.id,
        action: 'user_recovery_requested',
        ip: clientIp(c),
        now: ctx.now(),
      });
    });
    return c.json({});
  });

  app.post('/otp', async (c) => {
    const body = await readBody(c, mailRequestSchema);
    if (body.phone) throw badRequest('phone_provider_disabled', 'Unsupported phone provider');
    if (!body.email) throw validationFailed('An email address is required');
    const email = parseEmail(body.email);
    limit(ctx, ctx.limits.mailRequestPerIp, clientIp(c));
    await checkCaptcha(ctx, c, body.gotrue_meta_security);
    const challenge = parseCodeChallenge(body.code_challenge, body.code_challenge_method);
    const redirectTo = ctx.redirects.resolve(c.req.query('redirect_to'));
    limit(ctx, ctx.limits.mailPerAddress, email, 'over_email_send_rate_limit');
    await inTransaction(ctx, c, async (tx, effects) => {
      const now = ctx.now();
      let user = await findUserByEmail(tx, email, { forUpdate: true });
      if (!user) {
        if (body.create_user === false) {
          throw unprocessable('otp_disabled', 'Signups not allowed for otp');
        }
        user = await createEmailUser(tx, {
          email,
          passwordHash: null,
          data: body.data ?? {},
          confirmed: ctx.config.autoconfirm,
          now,
        });
        await audit(tx, { userId: user.id, action: 'user_signedup', ip: clientIp(c), now });
      }
      await sendLink(ctx, c, tx, effects, {
        user,
        kind: user.email_confirmed_at ? 'magiclink' : 'confirmation',
        challenge,
        redirectTo,
      });
    });
    return c.json({});
  });

  app.post('/resend', async (c) => {
    const body = await readBody(c, mailRequestSchema);
    if (body.type !== 'signup' && body.type !== 'email_change') {
      if (body.type === 'sms' || body.type === 'phone_change') {
        throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
      }
      throw validationFailed('Missing one of these types: signup, email_change');
    }
    if (!body.email) throw validationFailed('An email address is required');
    const email = parseEmail(body.email);
    limit(ctx, ctx.limits.mailRequestPerIp, clientIp(c));
    await checkCaptcha(ctx, c, body.gotrue_meta_security);
    const challenge = parseCodeChallenge(body.code_challenge, body.code_challenge_method);
    const redirectTo = ctx.redirects.resolve(c.req.query('redirect_to'));
    limit(ctx, ctx.limits.mailPerAddress, email, 'over_email_send_rate_limit');
    const type = body.type;
    await inTransaction(ctx, c, async (tx, effects) => {
      if (type === 'signup') {
        const user = await findUserByEmail(tx, email, { forUpdate: true });
        // Nothing to resend for unknown or confirmed addresses; the answer does not say which.
        if (!user || user.email_confirmed_at) return;
        await sendLink(ctx, c, tx, effects, { user, kind: 'confirmation', challenge, redirectTo });
        return;
      }
      const { rows } = await tx.query<{ id: string }>(
        'SELECT id FROM auth_user WHERE (email = $1 OR email_change = $1) AND email_change IS NOT NULL FOR UPDATE',
        [email],
      );
      const user = rows[0] ? await findUserById(tx, rows[0].id) : null;
      if (!user?.email_change) return;
      await resendEmailChange(ctx, c, tx, effects, user, challenge, redirectTo);
    });
    return c.json({});
  });
}

/** Issues a one-time token (with a PKCE flow state when asked) and queues its mail. */
async function sendLink(
  ctx: AuthContext,
  c: Context<AppEnv>,
  tx: Queryable,
  effects: Effect[],
  input: {
    user: UserRow;
    kind: 'confirmation' | 'recovery' | 'magiclink';
    challenge: CodeChallenge | null;
    redirectTo: string;
  },
): Promise<void> {
  const now = ctx.now();
  const email = input.user.email;
  if (!email) return;
  const method = { confirmation: 'email/signup', recovery: 'recovery', magiclink: 'magiclink' }[
    input.kind
  ];
  const flowStateId = input.challenge
    ? await createFlowState(tx, {
        userId: input.user.id,
        challenge: input.challenge,
        providerType: input.kind === 'confirmation' ? 'email' : input.kind,
        authenticationMethod: method,
        redirectTo: input.redirectTo,
        now,
      })
    : null;
  const token = await issueOneTimeToken(tx, {
    userId: input.user.id,
    type: input.kind === 'confirmation' ? 'confirmation' : 'recovery',
    relatesTo: email,
    flowStateId,
    now,
  });
  await updateUser(
    tx,
    input.user.id,
    input.kind === 'confirmation' ? { confirmation_sent_at: now } : { recovery_sent_at: now },
    now,
  );
  queueMail(ctx, c, effects, input.kind, { to: email, ...token, redirectTo: input.redirectTo });
}

async function resendEmailChange(
  ctx: AuthContext,
  c: Context<AppEnv>,
  tx: Queryable,
  effects: Effect[],
  user: UserRow,
  challenge: CodeChallenge | null,
  redirectTo: string,
): Promise<void> {
  const now = ctx.now();
  const newEmail = user.email_change;
  if (!newEmail) return;
  const flowStateId = challenge
    ? await createFlowState(tx, {
        userId: user.id,
        challenge,
        providerType: 'email_change',
        authenticationMethod: 'email_change',
        redirectTo,
        now,
      })
    : null;
  const toNew = await issueOneTimeToken(tx, {
    userId: user.id,
    type: 'email_change_new',
    relatesTo: newEmail,
    flowStateId,
    now,
  });
  queueMail(ctx, c, effects, 'email_change_new', { to: newEmail, ...toNew, redirectTo, newEmail });
  // The current address is asked again only while it has not confirmed yet.
  if (user.email && user.email_change_confirm_status === 0) {
    const toCurrent = await issueOneTimeToken(tx, {
      userId: user.id,
      type: 'email_change_current',
      relatesTo: user.email,
      flowStateId,
      now,
    });
    queueMail(ctx, c, effects, 'email_change_current', {
      to: user.email,
      ...toCurrent,
      redirectTo,
      newEmail,
    });
  }
  await updateUser(tx, user.id, { email_change_sent_at: now }, now);
}

/** Finds, consumes and applies a one-time token; any miss is 403 otp_expired. */
async function redeem(
  ctx: AuthContext,
  tx: Queryable,
  type: VerifyType,
  lookup: { linkToken: string } | { email: string; otp: string },
  link: boolean,
): Promise<Redeemed> {
  const now = ctx.now();
  const types = tokenTypesFor[type];
  let token: OneTimeTokenRow | null;
  if ('linkToken' in lookup) {
    token = lookup.linkToken ? await findByLinkToken(tx, lookup.linkToken, types, now) : null;
  } else {
    token = await findByOtp(tx, lookup.email, lookup.otp, types, now);
    if (!token && type === 'email_change') {
      // The code from the current mailbox, typed with the new address (as auth-js sends it).
      const { rows } = await tx.query<{ email: string }>(
        'SELECT email FROM auth_user WHERE email_change = $1 AND email IS NOT NULL',
        [lookup.email],
      );
      const current = rows[0]?.email;
      if (current) token = await findByOtp(tx, current, lookup.otp, ['email_change_current'], now);
    }
  }
  if (!token) throw otpExpired(link);
  let user = await findUserById(tx, token.user_id, { forUpdate: true });
  if (!user) throw otpExpired(link);
  assertNotBanned(user, now);
  await consumeToken(tx, token.id);

  if (token.token_type === 'confirmation') {
    user = await confirmEmail(tx, user, now);
    await audit(tx, { userId: user.id, action: 'user_confirmation_verified', ip: null, now });
    return { kind: 'signed-in', user, token, type };
  }
  if (token.token_type === 'recovery') {
    // Following a recovery or magic link proves the mailbox, so it also confirms the address.
    user = await confirmEmail(tx, user, now);
    return { kind: 'signed-in', user, token, type: type === 'email' ? 'magiclink' : type };
  }
  if (token.token_type === 'email_change_new' || token.token_type === 'email_change_current') {
    const other =
      token.token_type === 'email_change_new' ? 'email_change_current' : 'email_change_new';
    const { rowCount } = await tx.query(
      'SELECT 1 FROM auth_one_time_token WHERE user_id = $1 AND token_type = $2 AND expires_at > $3',
      [user.id, other, now],
    );
    if (rowCount > 0) {
      await updateUser(tx, user.id, { email_change_confirm_status: 1 }, now);
      return { kind: 'email-change-pending' };
    }
    user = await completeEmailChange(tx, user, now);
    await deleteUserTokens(tx, user.id, ['email_change_new', 'email_change_current']);
    await audit(tx, { userId: user.id, action: 'user_email_changed', ip: null, now });
    return { kind: 'signed-in', user, token, type };
  }
  throw otpExpired(link);
}

/** `target#k=v&…`, keys sorted as GoTrue writes them (url.Values.Encode()). */
export function withFragment(target: string, params: Record<string, string>): string {
  const url = new URL(target);
  const sorted = new URLSearchParams(
    Object.entries(params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  url.hash = sorted.toString();
  return url.toString();
}

export function sessionFragment(session: TokenResponse, type?: string): Record<string, string> {
  return {
    access_token: session.access_token,
    expires_at: String(session.expires_at),
    expires_in: String(session.expires_in),
    refresh_token: session.refresh_token,
    sb: '',
    token_type: 'bearer',
    ...(type ? { type } : {}),
  };
}

const ERROR_NAMES: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized_client',
  403: 'access_denied',
  429: 'access_denied',
  500: 'server_error',
  503: 'temporarily_unavailable',
};

/** GoTrue redirectErrors: in the fragment, and for PKCE clients in the query too. */
export function errorRedirect(target: string, error: AuthError, pkce: boolean): string {
  const params = {
    error: ERROR_NAMES[error.status] ?? 'server_error',
    error_code: error.code,
    error_description: error.message,
  };
  const url = new URL(withFragment(target, { ...params, sb: '' }));
  if (pkce) for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}
