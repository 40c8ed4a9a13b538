/**
 * Mail links and codes (confirmation, recovery / magic link, email change, reauthentication).
 * Each token has two faces: a 256-bit link token (the `token` of a /verify link, the `token_hash`
 * of verifyOtp) and a 6-digit code the user can type (verifyOtp `token`). Only their hashes are
 * stored. A link token of a PKCE flow carries GoTrue's `pkce_` prefix so a link click answers with
 * `?code=` instead of a session in the fragment.
 */
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import type { Queryable } from '../db/database.ts';
import { otpHash, randomOtp, randomToken, sha256Hex } from './auth-crypto.ts';

export type OneTimeTokenType =
  'confirmation' | 'recovery' | 'email_change_new' | 'email_change_current' | 'reauthentication';

export const PKCE_PREFIX = 'pkce_';

/** GoTrue MAILER_OTP_EXP default: links and codes live one day. */
export const ONE_TIME_TOKEN_TTL_SECONDS = 86_400;

const tokenRowSchema = v.object({
  id: v.string(),
  user_id: v.string(),
  token_type: v.picklist([
    'confirmation',
    'recovery',
    'email_change_new',
    'email_change_current',
    'reauthentication',
  ]),
  relates_to: v.string(),
  flow_state_id: v.nullable(v.string()),
  expires_at: v.date(),
});
export type OneTimeTokenRow = v.InferOutput<typeof tokenRowSchema>;

export interface IssuedToken {
  linkToken: string;
  otp: string;
}

export async function issueOneTimeToken(
  tx: Queryable,
  input: {
    userId: string;
    type: OneTimeTokenType;
    relatesTo: string;
    flowStateId: string | null;
    now: Date;
  },
): Promise<IssuedToken> {
  const raw = randomToken();
  const otp = randomOtp();
  // One outstanding token per type: asking again invalidates the previous mail.
  await tx.query('DELETE FROM auth_one_time_token WHERE user_id = $1 AND token_type = $2', [
    input.userId,
    input.type,
  ]);
  await tx.query(
    `INSERT INTO auth_one_time_token (id, user_id, token_type, token_hash, otp_hash, relates_to,
       flow_state_id, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      randomUUID(),
      input.userId,
      input.type,
      sha256Hex(raw),
      otpHash(input.relatesTo, otp),
      input.relatesTo,
      input.flowStateId,
      input.now,
      new Date(input.now.getTime() + ONE_TIME_TOKEN_TTL_SECONDS * 1000),
    ],
  );
  return { linkToken: input.flowStateId ? `${PKCE_PREFIX}${raw}` : raw, otp };
}

const SELECT = `SELECT id, user_id, token_type, relates_to, flow_state_id, expires_at
  FROM auth_one_time_token`;

function live(rows: Record<string, unknown>[], now: Date): OneTimeTokenRow | null {
  const row = rows[0] ? v.parse(tokenRowSchema, rows[0]) : null;
  return row && row.expires_at > now ? row : null;
}

/** The live token behind a link token (with or without `pkce_`), among the given types. */
export async function findByLinkToken(
  tx: Queryable,
  linkToken: string,
  types: OneTimeTokenType[],
  now: Date,
): Promise<OneTimeTokenRow | null> {
  const raw = linkToken.startsWith(PKCE_PREFIX) ? linkToken.slice(PKCE_PREFIX.length) : linkToken;
  const { rows } = await tx.query(
    `${SELECT} WHERE token_hash = $1 AND token_type = ANY($2::text[]) FOR UPDATE`,
    [sha256Hex(raw), types],
  );
  return live(rows, now);
}

/** The live token whose 6-digit code was sent to `address`, trying types in the given order. */
export async function findByOtp(
  tx: Queryable,
  address: string,
  otp: string,
  types: OneTimeTokenType[],
  now: Date,
): Promise<OneTimeTokenRow | null> {
  const { rows } = await tx.query(
    `${SELECT} WHERE otp_hash = $1 AND token_type = ANY($2::text[])
      ORDER BY array_position($2::text[], token_type) FOR UPDATE`,
    [otpHash(address, otp), types],
  );
  return live(rows, now);
}

export async function consumeToken(tx: Queryable, id: string): Promise<void> {
  await tx.query('DELETE FROM auth_one_time_token WHERE id = $1', [id]);
}

export async function deleteUserTokens(
  tx: Queryable,
  userId: string,
  types: OneTimeTokenType[],
): Promise<void> {
  await tx.query(
    'DELETE FROM auth_one_time_token WHERE user_id = $1 AND token_type = ANY($2::text[])',
    [userId, types],
  );
}
