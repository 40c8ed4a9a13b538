/**
 * The auth service's part in deleting an account (server/endpoints/account.ts runs the whole
 * deletion in the API's transaction): proving it is the account's owner again, and removing the
 * auth user with every session.
 *
 * The proof is the password, or the 6-digit code `GET /auth/v1/reauthenticate` mails (GoTrue's
 * reauthentication nonce, the same one `PUT /user` accepts), for accounts that sign in with
 * Google only. A verified second factor needs nothing more here: every user operation of such
 * an account already requires an aal2 token (session-check.ts).
 *
 * The user is deleted outright, not soft-deleted: GoTrue's soft delete keeps the row so that
 * foreign keys into auth.users stay valid, and nothing of ours points there (profiles and records
 * carry the id without a key into the auth tables), so a kept row would only keep an id and a
 * creation time. A hard delete frees the address for a new sign-up and leaves nothing behind but
 * the audit line that says it happened (id, time, address of the request: no name or email).
 */
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import { audit, findUserById } from './auth-store.ts';
import { consumeToken, findByOtp } from './one-time-tokens.ts';
import type { PasswordHasher } from './password-hasher.ts';
import type { SessionCheck } from './session-check.ts';

export interface ReauthenticationProof {
  password?: string | undefined;
  nonce?: string | undefined;
}

export interface AccountAuth {
  /** Whether the account signs in with a password (else it proves itself with a mailed code). */
  hasPassword(tx: Queryable, userId: string): Promise<boolean>;
  /** Throws 422 (nothing consumed) unless the proof is the account's; consumes a code. */
  verifyProof(tx: Queryable, userId: string, proof: ReauthenticationProof): Promise<void>;
  /** Deletes the auth user and its sessions; answers the ended session ids (for after commit). */
  deleteUser(tx: Queryable, userId: string, ip: string): Promise<string[]>;
  /** After the commit: the ended sessions' tokens are refused at once, hub connections close. */
  sessionsEnded(sessionIds: readonly string[]): void;
}

export const WRONG_PROOF = 'That is not the right password. Nothing was deleted.';
const WRONG_CODE = 'That code is not right or has expired. Ask for a new one. Nothing was deleted.';

function refuse(message: string, field: 'password' | 'nonce'): AppError {
  return new AppError(ErrorCode.BUSINESS_RULE, message, {
    details: { reason: 'reauthentication_failed', field },
  });
}

export function createAccountAuth(deps: {
  passwords: PasswordHasher;
  sessionCheck: SessionCheck;
  now: () => Date;
}): AccountAuth {
  return {
    async hasPassword(tx, userId) {
      const user = await findUserById(tx, userId);
      return Boolean(user?.encrypted_password);
    },

    async verifyProof(tx, userId, proof) {
      const user = await findUserById(tx, userId, { forUpdate: true });
      if (!user) {
        throw new AppError(ErrorCode.UNAUTHORIZED, 'This account no longer exists; sign in again.');
      }
      if (proof.password !== undefined) {
        if (!user.encrypted_password) {
          // Same time as a wrong password, so the answer does not tell how the account signs in.
          await deps.passwords.burn(proof.password);
          throw refuse(
            'Your account has no password: confirm with a code sent by email instead.',
            'password',
          );
        }
        if (!(await deps.passwords.verify(user.encrypted_password, proof.password))) {
          throw refuse(WRONG_PROOF, 'password');
        }
        return;
      }
      const token =
        proof.nonce !== undefined && user.email
          ? await findByOtp(tx, user.email, proof.nonce, ['reauthentication'], deps.now())
          : null;
      if (!token || token.user_id !== user.id) throw refuse(WRONG_CODE, 'nonce');
      await consumeToken(tx, token.id);
    },

    async deleteUser(tx, userId, ip) {
      const { rows } = await tx.query<{ id: string }>(
        'DELETE FROM auth_session WHERE user_id = $1 RETURNING id',
        [userId],
      );
      // Identities, factors, one-time tokens, flow states and refresh tokens go by cascade.
      await tx.query('DELETE FROM auth_user WHERE id = $1', [userId]);
      await audit(tx, {
        userId,
        action: 'user_deleted',
        ip,
        detail: { by: 'self' },
        now: deps.now(),
      });
      return rows.map((row) => row.id);
    },

    sessionsEnded(sessionIds) {
      deps.sessionCheck.sessionsEnded(sessionIds);
    },
  };
}
