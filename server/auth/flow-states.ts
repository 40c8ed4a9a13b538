/**
 * PKCE flow states (GoTrue models/flow_state.go). A PKCE client sends `code_challenge` when it
 * starts a flow (sign-up, recovery, magic link, email change, OAuth); when the flow completes in
 * the browser, the redirect carries `?code=` instead of tokens, and only the holder of the
 * verifier can exchange that code for a session (POST /token?grant_type=pkce).
 */
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import type { Queryable } from '../db/database.ts';
import { constantTimeEqual, pkceS256, randomToken, sha256Hex } from './auth-crypto.ts';
import { badRequest, notFound, unprocessable, validationFailed } from './auth-error.ts';

/** GoTrue FlowStateExpiryDuration: a code must be exchanged within 5 minutes. */
export const AUTH_CODE_TTL_MS = 5 * 60_000;
/** How long a user may take at the OAuth provider before the round trip is forgotten. */
export const OAUTH_FLOW_TTL_MS = 10 * 60_000;

export interface CodeChallenge {
  challenge: string;
  method: 's256' | 'plain';
}

const CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * Reads `code_challenge` / `code_challenge_method` (both or neither; auth-js sends JSON nulls for
 * implicit clients). The method is case-insensitive; `plain` is what auth-js falls back to where
 * WebCrypto is unavailable (plain HTTP on a LAN address), so it is accepted.
 */
export function parseCodeChallenge(
  challenge: string | null | undefined,
  method: string | null | undefined,
): CodeChallenge | null {
  if (!challenge && !method) return null;
  if (!challenge || !method) {
    throw validationFailed('PKCE flow requires code_challenge_method and code_challenge');
  }
  const normalized = method.toLowerCase();
  if (normalized !== 's256' && normalized !== 'plain') {
    throw validationFailed(`code challenge method not supported: ${method}`);
  }
  if (!CHALLENGE.test(challenge)) {
    throw validationFailed('code challenge has to be between 43 and 128 characters');
  }
  return { challenge, method: normalized };
}

export async function createFlowState(
  tx: Queryable,
  input: {
    /** Chosen by the caller when it must be known first (OAuth `state`). */
    id?: string;
    userId: string | null;
    challenge: CodeChallenge | null;
    providerType: string;
    authenticationMethod: string;
    redirectTo: string | null;
    oidcCodeVerifier?: string;
    oidcNonce?: string;
    linkingTargetId?: string | null;
    now: Date;
  },
): Promise<string> {
  const id = input.id ?? randomUUID();
  await tx.query(
    `INSERT INTO auth_flow_state (id, user_id, code_challenge, code_challenge_method, provider_type,
       authentication_method, redirect_to, oidc_code_verifier, oidc_nonce, linking_target_id,
       created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      id,
      input.userId,
      input.challenge?.challenge ?? null,
      input.challenge?.method ?? null,
      input.providerType,
      input.authenticationMethod,
      input.redirectTo,
      input.oidcCodeVerifier ?? null,
      input.oidcNonce ?? null,
      input.linkingTargetId ?? null,
      input.now,
    ],
  );
  // Expired round trips are dead weight: swept whenever a new one starts.
  await tx.query('DELETE FROM auth_flow_state WHERE created_at < $1', [
    new Date(input.now.getTime() - 24 * 3600_000),
  ]);
  return id;
}

const flowRowSchema = v.object({
  id: v.string(),
  user_id: v.nullable(v.string()),
  code_challenge: v.nullable(v.string()),
  code_challenge_method: v.nullable(v.picklist(['s256', 'plain'])),
  provider_type: v.string(),
  authentication_method: v.string(),
  redirect_to: v.nullable(v.string()),
  oidc_code_verifier: v.nullable(v.string()),
  oidc_nonce: v.nullable(v.string()),
  linking_target_id: v.nullable(v.string()),
  auth_code_issued_at: v.nullable(v.date()),
  created_at: v.date(),
});
export type FlowStateRow = v.InferOutput<typeof flowRowSchema>;

const FLOW_COLUMNS = `id, user_id, code_challenge, code_challenge_method, provider_type,
  authentication_method, redirect_to, oidc_code_verifier, oidc_nonce, linking_target_id,
  auth_code_issued_at, created_at`;

export async function findFlowState(tx: Queryable, id: string): Promise<FlowStateRow | null> {
  const { rows } = await tx.query(
    `SELECT ${FLOW_COLUMNS} FROM auth_flow_state WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0] ? v.parse(flowRowSchema, rows[0]) : null;
}

/** The flow reached its user: hand out a one-time code for the client's PKCE exchange. */
export async function issueAuthCode(
  tx: Queryable,
  flowStateId: string,
  userId: string,
  now: Date,
): Promise<string> {
  const code = randomToken();
  await tx.query(
    `UPDATE auth_flow_state SET user_id = $2, auth_code_hash = $3, auth_code_issued_at = $4
      WHERE id = $1`,
    [flowStateId, userId, sha256Hex(code), now],
  );
  return code;
}

export async function deleteFlowState(tx: Queryable, id: string): Promise<void> {
  await tx.query('DELETE FROM auth_flow_state WHERE id = $1', [id]);
}

/** POST /token?grant_type=pkce: the flow's user and sign-in method, once, for the right verifier. */
export async function exchangeAuthCode(
  tx: Queryable,
  input: { authCode: string; codeVerifier: string; now: Date },
): Promise<FlowStateRow & { user_id: string }> {
  const { rows } = await tx.query(
    `SELECT ${FLOW_COLUMNS} FROM auth_flow_state WHERE auth_code_hash = $1 FOR UPDATE`,
    [sha256Hex(input.authCode)],
  );
  const flow = rows[0] ? v.parse(flowRowSchema, rows[0]) : null;
  if (!flow?.user_id || !flow.auth_code_issued_at || !flow.code_challenge) {
    throw notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
  }
  if (input.now.getTime() - flow.auth_code_issued_at.getTime() > AUTH_CODE_TTL_MS) {
    throw unprocessable('flow_state_expired', 'invalid flow state, flow state has expired');
  }
  const expected =
    flow.code_challenge_method === 'plain' ? input.codeVerifier : pkceS256(input.codeVerifier);
  if (!constantTimeEqual(expected, flow.code_challenge)) {
    throw badRequest(
      'bad_code_verifier',
      'code challenge does not match previously saved code verifier',
    );
  }
  await deleteFlowState(tx, flow.id);
  return { ...flow, user_id: flow.user_id };
}
