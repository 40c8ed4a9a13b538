/**
 * Account operations shared by several routes: creating an email user, confirming an address,
 * completing an email change, and the input rules for addresses and passwords.
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { AuthError, badRequest, unprocessable } from './auth-error.ts';
import {
  insertIdentity,
  insertUser,
  normalizeEmail,
  updateUser,
  type UserRow,
} from './auth-store.ts';
import { checkPassword, MAX_PASSWORD_LENGTH, type PasswordPolicy } from './password-policy.ts';

// GoTrue's format check (checkmail.ValidateFormat, the WHATWG address rule), plus a dot in the
// domain: addresses on a bare host name are not ones this service can mail.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

/** A usable address, lower-cased, or GoTrue's 400 validation_failed (api/mail.go validateEmail). */
export function parseEmail(raw: string): string {
  const email = normalizeEmail(raw);
  if (email === '') throw badRequest('validation_failed', 'An email address is required');
  if (email.length > 255) throw badRequest('validation_failed', 'An email address is too long');
  if (!EMAIL.test(email)) {
    throw badRequest('validation_failed', 'Unable to validate email address: invalid format');
  }
  return email;
}

/** GoTrue's phone rule (api/phone.go): `+` and spaces dropped, then E.164 digits. */
export function parsePhone(raw: string): string {
  const phone = raw.replace(/^\+/, '').replaceAll(' ', '');
  if (!/^[1-9][0-9]{1,14}$/.test(phone)) {
    throw badRequest('validation_failed', 'Invalid phone number format (E.164 required)');
  }
  return phone;
}

/** 422 weak_password with GoTrue's reasons (auth-js raises AuthWeakPasswordError). */
export function assertStrongPassword(password: string, policy?: PasswordPolicy): void {
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw unprocessable(
      'validation_failed',
      `Password cannot be longer than ${MAX_PASSWORD_LENGTH} characters`,
    );
  }
  const weakness = checkPassword(password, policy);
  if (weakness) {
    throw new AuthError(422, 'weak_password', weakness.message, {
      extra: { weak_password: { reasons: weakness.reasons } },
    });
  }
}

export function isBanned(user: UserRow, now: Date): boolean {
  return user.banned_until !== null && user.banned_until > now;
}

export function assertNotBanned(user: UserRow, now: Date): void {
  if (isBanned(user, now)) throw badRequest('user_banned', 'User is banned');
}

/** A new account with an email identity; metadata as GoTrue shapes it (A3.2). */
export async function createEmailUser(
  tx: Queryable,
  input: {
    email: string;
    passwordHash: string | null;
    data: Record<string, unknown>;
    confirmed: boolean;
    now: Date;
  },
): Promise<UserRow> {
  const id = randomUUID();
  const identityData = {
    sub: id,
    email: input.email,
    email_verified: input.confirmed,
    phone_verified: false,
  };
  const user = await insertUser(tx, {
    id,
    email: input.email,
    encryptedPassword: input.passwordHash,
    emailConfirmedAt: input.confirmed ? input.now : null,
    appMetadata: { provider: 'email', providers: ['email'] },
    userMetadata: { ...input.data, ...identityData },
    now: input.now,
  });
  await insertIdentity(tx, {
    userId: id,
    provider: 'email',
    providerId: id,
    identityData,
    email: input.email,
    now: input.now,
    signedIn: false,
  });
  return user;
}

/** Marks the address verified on the user, its metadata and its email identity. */
export async function confirmEmail(tx: Queryable, user: UserRow, now: Date): Promise<UserRow> {
  if (user.email_confirmed_at) return user;
  await tx.query(
    `UPDATE auth_identity
        SET identity_data = identity_data || '{"email_verified": true}'::jsonb, updated_at = $2
      WHERE user_id = $1 AND provider = 'email'`,
    [user.id, now],
  );
  return updateUser(
    tx,
    user.id,
    {
      email_confirmed_at: now,
      // Identity claims live in the metadata of users who signed up themselves; admin-made users
      // keep theirs as given.
      ...('email_verified' in user.user_metadata
        ? { user_metadata: { ...user.user_metadata, email_verified: true } }
        : {}),
    },
    now,
  );
}

/** The pending email change becomes the address (both confirmations are in). */
export async function completeEmailChange(
  tx: Queryable,
  user: UserRow,
  now: Date,
): Promise<UserRow> {
  const next = user.email_change;
  if (!next) return user;
  const taken = await tx.query('SELECT 1 FROM auth_user WHERE email = $1 AND id <> $2', [
    next,
    user.id,
  ]);
  if (taken.rowCount > 0) {
    throw unprocessable(
      'email_exists',
      'A user with this email address has already been registered',
    );
  }
  await tx.query(
    `UPDATE auth_identity
        SET identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', true),
            email = $2, updated_at = $3
      WHERE user_id = $1 AND provider = 'email'`,
    [user.id, next, now],
  );
  return updateUser(
    tx,
    user.id,
    {
      email: next,
      email_change: null,
      email_change_sent_at: null,
      email_change_confirm_status: 0,
      email_confirmed_at: user.email_confirmed_at ?? now,
      user_metadata: { ...user.user_metadata, email: next, email_verified: true },
    },
    now,
  );
}

/**
 * Sign-up of an address that is already registered and confirmed (confirmation on): a made-up
 * user with no identities, so the response does not reveal the account (GoTrue sanitizeUser).
 */
export function obfuscatedUser(
  email: string,
  data: Record<string, unknown>,
  now: Date,
): Record<string, unknown> {
  return {
    id: randomUUID(),
    aud: 'authenticated',
    role: 'authenticated',
    email,
    phone: '',
    confirmation_sent_at: now.toISOString(),
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: data,
    identities: [],
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    is_anonymous: false,
  };
}
