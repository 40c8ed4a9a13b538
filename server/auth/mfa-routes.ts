/**
 * Multi-factor authentication (protocols.md A4.13, GoTrue api/mfa.go): TOTP and phone (SMS)
 * factors. POST /factors enrolls, /factors/{id}/challenge starts a check, /factors/{id}/verify
 * finishes it and upgrades the session to aal2, DELETE /factors/{id} unenrolls.
 */
import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import * as v from 'valibot';
import type { AppEnv } from '../http/app-env.ts';
import {
  clientIp,
  inTransaction,
  limit,
  readBody,
  requireCaller,
  type AuthContext,
} from './auth-context.ts';
import { constantTimeEqual, otpHash, randomOtp } from './auth-crypto.ts';
import { badRequest, forbidden, notFound, unprocessable, validationFailed } from './auth-error.ts';
import { audit, factorRowSchema, listFactors, type FactorRow } from './auth-store.ts';
import { tokenResponse, upgradeSession } from './sessions.ts';

/** GoTrue MFA defaults: 10 factors per user, challenges valid 5 minutes, TOTP ±1 step. */
const MAX_FACTORS = 10;
const CHALLENGE_TTL_SECONDS = 300;
const TOTP_PERIOD = 30;
const UNVERIFIED_FACTOR_TTL_MS = 24 * 3600_000;

const E164 = /^\+[1-9]\d{6,14}$/;

const nullableString = v.optional(v.nullable(v.string()));

const enrollSchema = v.object({
  factor_type: nullableString,
  friendly_name: nullableString,
  issuer: nullableString,
  phone: nullableString,
});

const challengeSchema = v.object({ channel: nullableString });

const verifySchema = v.object({ challenge_id: nullableString, code: nullableString });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const factorNotFound = () => notFound('mfa_factor_not_found', 'Factor not found');

function totpFor(factor: { secret: string }, label: string, issuer: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD,
    secret: OTPAuth.Secret.fromBase32(factor.secret),
  });
}

const challengeRowSchema = v.object({
  id: v.string(),
  factor_id: v.string(),
  ip: v.nullable(v.string()),
  otp_hash: v.nullable(v.string()),
  verified_at: v.nullable(v.date()),
  created_at: v.date(),
});

export function registerMfaRoutes(app: Hono<AppEnv>, ctx: AuthContext): void {
  app.post('/factors', async (c) => {
    const body = await readBody(c, enrollSchema);
    const factorType = body.factor_type;
    if (factorType !== 'totp' && factorType !== 'phone') {
      if (factorType === 'webauthn') {
        throw unprocessable(
          'mfa_webauthn_enroll_not_enabled',
          'MFA enroll is disabled for WebAuthn',
        );
      }
      throw badRequest('validation_failed', 'factor_type needs to be totp or phone');
    }
    const phone = factorType === 'phone' ? (body.phone ?? '').replace(/[\s()-]/g, '') : null;
    if (phone !== null && !E164.test(phone)) {
      throw badRequest('validation_failed', 'Invalid phone number format (E.164 required)');
    }
    const friendlyName = body.friendly_name?.trim() ?? '';
    const issuer = body.issuer?.trim() || ctx.config.mfaIssuer;

    const response = await inTransaction(ctx, c, async (tx) => {
      const now = ctx.now();
      const { user, session } = await requireCaller(ctx, c, tx);
      await tx.query(
        "DELETE FROM auth_mfa_factor WHERE user_id = $1 AND status = 'unverified' AND created_at < $2",
        [user.id, new Date(now.getTime() - UNVERIFIED_FACTOR_TTL_MS)],
      );
      const factors = await listFactors(tx, user.id);
      if (factors.some((f) => f.status === 'verified') && session.aal !== 'aal2') {
        throw forbidden('insufficient_aal', 'AAL2 required to enroll a new factor');
      }
      if (factors.length >= MAX_FACTORS) {
        throw unprocessable(
          'too_many_enrolled_mfa_factors',
          'Maximum number of verified factors reached, unenroll to continue',
        );
      }
      if (friendlyName && factors.some((f) => f.friendly_name === friendlyName)) {
        throw unprocessable(
          'mfa_factor_name_conflict',
          `A factor with the friendly name "${friendlyName}" for this user already exists`,
        );
      }
      const id = randomUUID();
      const secret = factorType === 'totp' ? new OTPAuth.Secret({ size: 20 }).base32 : null;
      await tx.query(
        `INSERT INTO auth_mfa_factor (id, user_id, friendly_name, factor_type, status, secret, phone,
           created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'unverified', $5, $6, $7, $7)`,
        [id, user.id, friendlyName || null, factorType, secret, phone, now],
      );
      await audit(tx, {
        userId: user.id,
        action: 'factor_enrolled',
        ip: clientIp(c),
        detail: { factor_type: factorType },
        now,
      });
      if (secret === null) {
        return { id, type: 'phone', friendly_name: friendlyName, phone };
      }
      const uri = totpFor({ secret }, user.email ?? user.id, issuer).toString();
      // Raw SVG markup: auth-js prefixes `data:image/svg+xml;utf-8,` itself.
      const qrCode = await QRCode.toString(uri, {
        type: 'svg',
        errorCorrectionLevel: 'M',
        margin: 2,
      });
      return {
        id,
        type: 'totp',
        friendly_name: friendlyName,
        totp: { qr_code: qrCode, secret, uri },
      };
    });
    return c.json(response);
  });

  app.post('/factors/:factorId/challenge', async (c) => {
    const factorId = c.req.param('factorId');
    const body = await readBody(c, challengeSchema);
    if (body.channel && body.channel !== 'sms') {
      throw unprocessable('validation_failed', `Channel "${body.channel}" is not supported`);
    }
    if (!UUID.test(factorId)) throw factorNotFound();
    const ip = clientIp(c);
    let sms: { to: string; text: string } | null = null;
    const response = await inTransaction(ctx, c, async (tx) => {
      const now = ctx.now();
      const { user } = await requireCaller(ctx, c, tx);
      const factor = await findFactor(tx, user.id, factorId);
      let hash: string | null = null;
      if (factor.factor_type === 'phone' && factor.phone) {
        limit(ctx, ctx.limits.smsPerFactor, factor.id, 'over_sms_send_rate_limit');
        const code = randomOtp();
        hash = otpHash(factor.phone, code);
        sms = { to: factor.phone, text: `Your ${ctx.config.mfaIssuer} code is ${code}` };
      }
      // Challenges are short-lived; the factor's old ones are swept as new ones come.
      await tx.query('DELETE FROM auth_mfa_challenge WHERE factor_id = $1 AND created_at < $2', [
        factor.id,
        new Date(now.getTime() - 24 * 3600_000),
      ]);
      const id = randomUUID();
      await tx.query(
        'INSERT INTO auth_mfa_challenge (id, factor_id, ip, otp_hash, created_at) VALUES ($1, $2, $3, $4, $5)',
        [id, factor.id, ip, hash, now],
      );
      await tx.query('UPDATE auth_mfa_factor SET last_challenged_at = $2 WHERE id = $1', [
        factor.id,
        now,
      ]);
      return {
        id,
        type: factor.factor_type,
        expires_at: Math.floor(now.getTime() / 1000) + CHALLENGE_TTL_SECONDS,
      };
    });
    const message = sms as { to: string; text: string } | null;
    if (message) {
      // After the commit: the code only leaves once its challenge exists.
      await ctx.sms.send(message).catch((error: unknown) => {
        c.get('logger').error({ err: error }, 'sms send failed');
      });
    }
    return c.json(response);
  });

  app.post('/factors/:factorId/verify', async (c) => {
    const factorId = c.req.param('factorId');
    const body = await readBody(c, verifySchema);
    if (!body.challenge_id || !body.code) {
      throw validationFailed('challenge_id and code are required');
    }
    if (!UUID.test(factorId) || !UUID.test(body.challenge_id)) throw factorNotFound();
    const ip = clientIp(c);
    limit(ctx, ctx.limits.mfaVerifyPerIp, ip);
    const challengeId = body.challenge_id;
    const code = body.code.trim();

    const outcome = await inTransaction(ctx, c, async (tx, effects) => {
      const now = ctx.now();
      const { user, session } = await requireCaller(ctx, c, tx);
      limit(ctx, ctx.limits.mfaVerifyPerAccount, user.id);
      const factor = await findFactor(tx, user.id, factorId);
      const { rows } = await tx.query(
        `SELECT id, factor_id, ip, otp_hash, verified_at, created_at FROM auth_mfa_challenge
          WHERE id = $1 AND factor_id = $2 FOR UPDATE`,
        [challengeId, factor.id],
      );
      const challenge = rows[0] ? v.parse(challengeRowSchema, rows[0]) : null;
      if (!challenge || challenge.verified_at) {
        throw unprocessable(
          'mfa_factor_not_found',
          'MFA factor with the provided challenge ID not found',
        );
      }
      if (now.getTime() - challenge.created_at.getTime() > CHALLENGE_TTL_SECONDS * 1000) {
        await tx.query('DELETE FROM auth_mfa_challenge WHERE id = $1', [challenge.id]);
        return {
          ok: false as const,
          error: unprocessable(
            'mfa_challenge_expired',
            `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
          ),
        };
      }
      if (challenge.ip && challenge.ip !== ip) {
        throw unprocessable(
          'mfa_ip_address_mismatch',
          'Challenge and verify IP addresses mismatch.',
        );
      }
      const accepted = checkCode(
        factor,
        code,
        now,
        user.email ?? user.id,
        ctx.config.mfaIssuer,
        challenge.otp_hash,
      );
      if (!accepted.ok) {
        return {
          ok: false as const,
          error: unprocessable(
            'mfa_verification_failed',
            factor.factor_type === 'totp'
              ? 'Invalid TOTP code entered'
              : 'Invalid MFA Phone code entered',
          ),
        };
      }
      await tx.query('UPDATE auth_mfa_challenge SET verified_at = $2 WHERE id = $1', [
        challenge.id,
        now,
      ]);
      await tx.query(
        `UPDATE auth_mfa_factor SET status = 'verified', updated_at = $2,
           last_totp_step = COALESCE($3::bigint, last_totp_step) WHERE id = $1`,
        [factor.id, now, accepted.step],
      );
      if (factor.status === 'unverified') {
        // First verification: other unfinished enrollments of the type go, and sessions that
        // never reached aal2 are signed out (GoTrue InvalidateSessionsWithAALLessThan).
        await tx.query(
          `DELETE FROM auth_mfa_factor WHERE user_id = $1 AND factor_type = $2
             AND status = 'unverified' AND id <> $3`,
          [user.id, factor.factor_type, factor.id],
        );
        const ended = await tx.query<{ id: string }>(
          "DELETE FROM auth_session WHERE user_id = $1 AND id <> $2 AND aal = 'aal1' RETURNING id",
          [user.id, session.id],
        );
        const endedIds = ended.rows.map((row) => row.id);
        effects.push(() => Promise.resolve(ctx.sessionCheck.sessionsEnded(endedIds)));
      }
      // aal1 tokens of this user are kept from data from now on (session-check.ts).
      const userId = user.id;
      effects.push(() => Promise.resolve(ctx.sessionCheck.factorsChanged(userId)));
      const upgraded = await upgradeSession(tx, ctx.sessions, session, {
        factorId: factor.id,
        method: factor.factor_type === 'totp' ? 'totp' : 'mfa/phone',
      });
      await audit(tx, {
        userId: user.id,
        action: 'factor_verified',
        ip,
        detail: { factor_type: factor.factor_type },
        now,
      });
      return {
        ok: true as const,
        response: await tokenResponse(
          tx,
          ctx.sessions,
          user,
          upgraded.session,
          upgraded.refreshToken,
        ),
      };
    });
    // A failed code is answered after the commit so the TOTP replay guard and expiry stick.
    if (!outcome.ok) throw outcome.error;
    return c.json(outcome.response);
  });

  app.delete('/factors/:factorId', async (c) => {
    const factorId = c.req.param('factorId');
    if (!UUID.test(factorId)) throw factorNotFound();
    const response = await inTransaction(ctx, c, async (tx, effects) => {
      const now = ctx.now();
      const { user, session } = await requireCaller(ctx, c, tx);
      const factor = await findFactor(tx, user.id, factorId);
      if (factor.status === 'verified' && session.aal !== 'aal2') {
        throw unprocessable('insufficient_aal', 'AAL2 required to unenroll verified factor');
      }
      await tx.query('DELETE FROM auth_mfa_factor WHERE id = $1', [factor.id]);
      const userId = user.id;
      effects.push(() => Promise.resolve(ctx.sessionCheck.factorsChanged(userId)));
      // Sessions that proved this factor no longer stand on it (tokens already issued keep
      // their aal claim until they expire or refresh).
      await tx.query(
        "UPDATE auth_session SET aal = 'aal1', factor_id = NULL, updated_at = $2 WHERE factor_id = $1",
        [factor.id, now],
      );
      await audit(tx, {
        userId: user.id,
        action: 'factor_unenrolled',
        ip: clientIp(c),
        detail: { factor_type: factor.factor_type },
        now,
      });
      return { id: factor.id };
    });
    return c.json(response);
  });
}

async function findFactor(
  tx: Parameters<typeof listFactors>[0],
  userId: string,
  factorId: string,
): Promise<FactorRow> {
  const { rows } = await tx.query(
    `SELECT id, user_id, friendly_name, factor_type, status, secret, phone,
            last_totp_step::text AS last_totp_step, last_challenged_at, created_at, updated_at
       FROM auth_mfa_factor WHERE id = $1 AND user_id = $2 FOR UPDATE`,
    [factorId, userId],
  );
  if (!rows[0]) throw factorNotFound();
  return v.parse(factorRowSchema, rows[0]);
}

function checkCode(
  factor: FactorRow,
  code: string,
  now: Date,
  label: string,
  issuer: string,
  challengeHash: string | null,
): { ok: true; step: string | null } | { ok: false } {
  if (!/^\d{6}$/.test(code)) return { ok: false };
  if (factor.factor_type === 'phone') {
    if (!factor.phone || !challengeHash) return { ok: false };
    return constantTimeEqual(otpHash(factor.phone, code), challengeHash)
      ? { ok: true, step: null }
      : { ok: false };
  }
  if (!factor.secret) return { ok: false };
  const timestamp = now.getTime();
  const delta = totpFor({ secret: factor.secret }, label, issuer).validate({
    token: code,
    timestamp,
    window: 1,
  });
  if (delta === null) return { ok: false };
  const step = Math.floor(timestamp / 1000 / TOTP_PERIOD) + delta;
  // Replay guard: a code (time step) already accepted for this factor is not accepted again.
  if (factor.last_totp_step !== null && step <= Number(factor.last_totp_step)) return { ok: false };
  return { ok: true, step: String(step) };
}
