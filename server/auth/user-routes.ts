/**
 * The signed-in user's own account (protocols.md A4.5-A4.7, A4.10): GET/PUT /user, POST /logout,
 * GET /reauthenticate. All need `Authorization: Bearer <access token>` of a live session.
 */
import type { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/app-env.ts';
import { assertStrongPassword, parseEmail } from './accounts.ts';
import {
  clientIp,
  inTransaction,
  limit,
  queueMail,
  readBody,
  requireCaller,
  type AuthContext,
} from './auth-context.ts';
import { AuthError, badRequest, unprocessable, validationFailed } from './auth-error.ts';
import {
  audit,
  findUserByEmail,
  listFactors,
  loadUserJson,
  updateUser,
  type UserRow,
} from './auth-store.ts';
import { createFlowState, parseCodeChallenge } from './flow-states.ts';
import { consumeToken, deleteUserTokens, findByOtp, issueOneTimeToken } from './one-time-tokens.ts';

const nullableString = v.optional(v.nullable(v.string()));

const updateBodySchema = v.object({
  email: nullableString,
  password: nullableString,
  current_password: nullableString,
  nonce: nullableString,
  phone: nullableString,
  data: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
  code_challenge: nullableString,
  code_challenge_method: nullableString,
});

export function registerUserRoutes(app: Hono<AppEnv>, ctx: AuthContext): void {
  app.get('/user', async (c) => {
    const { user } = await requireCaller(ctx, c);
    return c.json(await loadUserJson(ctx.db, user));
  });

  app.put('/user', async (c) => {
    const body = await readBody(c, updateBodySchema);
    const caller = await requireCaller(ctx, c);
    if (body.phone) throw unprocessable('phone_provider_disabled', 'Phone updates are disabled');
    const newEmail =
      body.email && parseEmail(body.email) !== caller.user.email ? parseEmail(body.email) : null;
    const password = body.password ?? null;

    if (newEmail || password) {
      const factors = await listFactors(ctx.db, caller.user.id);
      if (factors.some((f) => f.status === 'verified') && caller.session.aal !== 'aal2') {
        throw new AuthError(
          401,
          'insufficient_aal',
          'AAL2 session is required to update email or password when MFA is enabled.',
        );
      }
    }
    let passwordHash: string | null = null;
    if (password !== null) {
      assertStrongPassword(password, ctx.config.passwordPolicy);
      const current = caller.user.encrypted_password;
      if (body.current_password != null) {
        if (!current || !(await ctx.passwords.verify(current, body.current_password))) {
          throw badRequest(
            'current_password_mismatch',
            'Current password required when setting new password.',
          );
        }
      }
      if (current && (await ctx.passwords.verify(current, password))) {
        throw unprocessable(
          'same_password',
          'New password should be different from the old password.',
        );
      }
      passwordHash = await ctx.passwords.hash(password);
    }
    const challenge = parseCodeChallenge(body.code_challenge, body.code_challenge_method);
    const redirectTo = ctx.redirects.resolve(c.req.query('redirect_to'));
    if (newEmail) limit(ctx, ctx.limits.mailPerAddress, newEmail, 'over_email_send_rate_limit');
    const nonce = body.nonce ?? null;

    const user = await inTransaction(ctx, c, async (tx, effects) => {
      const now = ctx.now();
      const { user: locked, session } = await requireCaller(ctx, c, tx);
      let user: UserRow = locked;
      const ip = clientIp(c);

      if (nonce !== null) {
        const token = user.email
          ? await findByOtp(tx, user.email, nonce, ['reauthentication'], now)
          : null;
        if (!token || token.user_id !== user.id) {
          throw badRequest('reauthentication_not_valid', 'Verification code not found or expired');
        }
        await consumeToken(tx, token.id);
      }

      if (body.data) {
        // Top-level merge; a null value removes the key (GoTrue UpdateUserMetaData).
        const merged: Record<string, unknown> = { ...user.user_metadata };
        for (const [key, value] of Object.entries(body.data)) {
          if (value === null) delete merged[key];
          else merged[key] = value;
        }
        user = await updateUser(tx, user.id, { user_metadata: merged }, now);
      }

      if (passwordHash) {
        user = await updateUser(tx, user.id, { encrypted_password: passwordHash }, now);
        // A new password ends every other session and voids outstanding reset links.
        const ended = await tx.query<{ id: string }>(
          'DELETE FROM auth_session WHERE user_id = $1 AND id <> $2 RETURNING id',
          [user.id, session.id],
        );
        const endedIds = ended.rows.map((row) => row.id);
        effects.push(() => Promise.resolve(ctx.sessionCheck.sessionsEnded(endedIds)));
        await deleteUserTokens(tx, user.id, ['recovery', 'reauthentication']);
        await audit(tx, { userId: user.id, action: 'user_updated_password', ip, now });
      }

      if (newEmail) {
        const owner = await findUserByEmail(tx, newEmail);
        if (owner && owner.id !== user.id) {
          throw unprocessable(
            'email_exists',
            'A user with this email address has already been registered',
          );
        }
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
        // Secure email change: both the new and the current address must confirm.
        const toNew = await issueOneTimeToken(tx, {
          userId: user.id,
          type: 'email_change_new',
          relatesTo: newEmail,
          flowStateId,
          now,
        });
        queueMail(ctx, c, effects, 'email_change_new', {
          to: newEmail,
          ...toNew,
          redirectTo,
          newEmail,
        });
        if (user.email) {
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
        user = await updateUser(
          tx,
          user.id,
          { email_change: newEmail, email_change_sent_at: now, email_change_confirm_status: 0 },
          now,
        );
        await audit(tx, { userId: user.id, action: 'user_email_change_requested', ip, now });
      }
      if (body.data) await audit(tx, { userId: user.id, action: 'user_modified', ip, now });
      return loadUserJson(tx, user);
    });
    return c.json(user);
  });

  app.post('/logout', async (c) => {
    const scope = c.req.query('scope') ?? 'global';
    if (scope !== 'global' && scope !== 'local' && scope !== 'others') {
      throw validationFailed(`Unsupported logout scope "${scope.slice(0, 40)}"`);
    }
    // A session's own sign-out may come late: the device signed out offline and kept the token
    // (contract/sign-out-grace.ts). Only `local` takes an expired token; it can end nothing else.
    const { user, session } = await requireCaller(
      ctx,
      c,
      ctx.db,
      scope === 'local' ? ctx.verifyEndingToken : ctx.verifyToken,
    );
    const ended = await ctx.db.transaction(async (tx) => {
      const { rows } =
        scope === 'local'
          ? await tx.query<{ id: string }>('DELETE FROM auth_session WHERE id = $1 RETURNING id', [
              session.id,
            ])
          : scope === 'others'
            ? await tx.query<{ id: string }>(
                'DELETE FROM auth_session WHERE user_id = $1 AND id <> $2 RETURNING id',
                [user.id, session.id],
              )
            : await tx.query<{ id: string }>(
                'DELETE FROM auth_session WHERE user_id = $1 RETURNING id',
                [user.id],
              );
      await audit(tx, {
        userId: user.id,
        action: 'logout',
        ip: clientIp(c),
        detail: { scope },
        now: ctx.now(),
      });
      return rows.map((row) => row.id);
    });
    // After the commit: /api and the hub refuse these sessions from now on, in this process at once.
    ctx.sessionCheck.sessionsEnded(ended);
    return c.body(null, 204);
  });

  // Sends a code that PUT /user accepts as `nonce` (needed for "secure password change" setups).
  app.get('/reauthenticate', async (c) => {
    const { user } = await requireCaller(ctx, c);
    if (!user.email) throw validationFailed('Reauthentication requires an email address');
    const email = user.email;
    limit(ctx, ctx.limits.mailPerAddress, email, 'over_email_send_rate_limit');
    await inTransaction(ctx, c, async (tx, effects) => {
      const now = ctx.now();
      const token = await issueOneTimeToken(tx, {
        userId: user.id,
        type: 'reauthentication',
        relatesTo: email,
        flowStateId: null,
        now,
      });
      await updateUser(tx, user.id, { reauthentication_sent_at: now }, now);
      queueMail(ctx, c, effects, 'reauthentication', {
        to: email,
        ...token,
        redirectTo: ctx.config.siteUrl,
      });
    });
    return c.json({});
  });
}
