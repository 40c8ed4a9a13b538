/**
 * Rows of the auth tables (parsed with valibot where the service relies on them) and their JSON
 * shapes on the wire: GoTrue's User, UserIdentity and Factor (protocols.md A3.2-A3.4).
 */
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import type { Queryable } from '../db/database.ts';

const date = v.date();
const nullableDate = v.nullable(v.date());
const jsonObject = v.record(v.string(), v.unknown());

export const userRowSchema = v.object({
  id: v.string(),
  email: v.nullable(v.string()),
  encrypted_password: v.nullable(v.string()),
  email_confirmed_at: nullableDate,
  confirmation_sent_at: nullableDate,
  recovery_sent_at: nullableDate,
  email_change: v.nullable(v.string()),
  email_change_sent_at: nullableDate,
  email_change_confirm_status: v.number(),
  reauthentication_sent_at: nullableDate,
  last_sign_in_at: nullableDate,
  app_metadata: jsonObject,
  user_metadata: jsonObject,
  banned_until: nullableDate,
  invited_at: nullableDate,
  deleted_at: nullableDate,
  created_at: date,
  updated_at: date,
});
export type UserRow = v.InferOutput<typeof userRowSchema>;

export const identityRowSchema = v.object({
  id: v.string(),
  user_id: v.string(),
  provider: v.string(),
  provider_id: v.string(),
  identity_data: jsonObject,
  email: v.nullable(v.string()),
  last_sign_in_at: nullableDate,
  created_at: date,
  updated_at: date,
});
export type IdentityRow = v.InferOutput<typeof identityRowSchema>;

export const factorRowSchema = v.object({
  id: v.string(),
  user_id: v.string(),
  friendly_name: v.nullable(v.string()),
  factor_type: v.picklist(['totp', 'phone']),
  status: v.picklist(['unverified', 'verified']),
  secret: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  last_totp_step: v.nullable(v.string()),
  last_challenged_at: nullableDate,
  created_at: date,
  updated_at: date,
});
export type FactorRow = v.InferOutput<typeof factorRowSchema>;

export const sessionRowSchema = v.object({
  id: v.string(),
  user_id: v.string(),
  aal: v.picklist(['aal1', 'aal2']),
  factor_id: v.nullable(v.string()),
  amr: v.array(
    v.object({ method: v.string(), timestamp: v.number(), provider: v.optional(v.string()) }),
  ),
  created_at: date,
});
export type SessionRow = v.InferOutput<typeof sessionRowSchema>;

const USER_COLUMNS = `id, email, encrypted_password, email_confirmed_at, confirmation_sent_at,
  recovery_sent_at, email_change, email_change_sent_at, email_change_confirm_status,
  reauthentication_sent_at, last_sign_in_at, app_metadata, user_metadata, banned_until,
  invited_at, deleted_at, created_at, updated_at`;

/** Addresses are compared lower-cased and trimmed everywhere. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserById(
  tx: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<UserRow | null> {
  const { rows } = await tx.query(
    `SELECT ${USER_COLUMNS} FROM auth_user WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ? v.parse(userRowSchema, rows[0]) : null;
}

export async function findUsersByIds(tx: Queryable, ids: string[]): Promise<Map<string, UserRow>> {
  const { rows } = await tx.query(
    `SELECT ${USER_COLUMNS} FROM auth_user WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  const users = rows.map((row) => v.parse(userRowSchema, row));
  return new Map(users.map((user) => [user.id, user]));
}

export async function findUserByEmail(
  tx: Queryable,
  email: string,
  options: { forUpdate?: boolean } = {},
): Promise<UserRow | null> {
  const { rows } = await tx.query(
    `SELECT ${USER_COLUMNS} FROM auth_user WHERE email = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [normalizeEmail(email)],
  );
  return rows[0] ? v.parse(userRowSchema, rows[0]) : null;
}

export async function insertUser(
  tx: Queryable,
  user: {
    id?: string;
    email: string;
    encryptedPassword: string | null;
    emailConfirmedAt: Date | null;
    appMetadata: Record<string, unknown>;
    userMetadata: Record<string, unknown>;
    now: Date;
  },
): Promise<UserRow> {
  const { rows } = await tx.query(
    `INSERT INTO auth_user (id, email, encrypted_password, email_confirmed_at, app_metadata,
       user_metadata, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
     RETURNING ${USER_COLUMNS}`,
    [
      user.id ?? randomUUID(),
      normalizeEmail(user.email),
      user.encryptedPassword,
      user.emailConfirmedAt,
      JSON.stringify(user.appMetadata),
      JSON.stringify(user.userMetadata),
      user.now,
    ],
  );
  return v.parse(userRowSchema, rows[0]);
}

/** Applies a partial update (column -> value; objects become jsonb) and returns the new row. */
export async function updateUser(
  tx: Queryable,
  id: string,
  changes: Partial<Record<keyof UserRow, unknown>>,
  now: Date,
): Promise<UserRow> {
  const entries = Object.entries({ ...changes, updated_at: now });
  const sets = entries.map(([column], index) => `${column} = $${index + 2}`);
  const values = entries.map(([, value]) =>
    value !== null && typeof value === 'object' && !(value instanceof Date)
      ? JSON.stringify(value)
      : value,
  );
  const { rows } = await tx.query(
    `UPDATE auth_user SET ${sets.join(', ')} WHERE id = $1 RETURNING ${USER_COLUMNS}`,
    [id, ...values],
  );
  return v.parse(userRowSchema, rows[0]);
}

export async function listIdentities(tx: Queryable, userId: string): Promise<IdentityRow[]> {
  const { rows } = await tx.query(
    `SELECT id, user_id, provider, provider_id, identity_data, email, last_sign_in_at, created_at,
            updated_at
       FROM auth_identity WHERE user_id = $1 ORDER BY created_at, id`,
    [userId],
  );
  return rows.map((row) => v.parse(identityRowSchema, row));
}

export async function listIdentitiesOf(tx: Queryable, userIds: string[]): Promise<IdentityRow[]> {
  const { rows } = await tx.query(
    `SELECT id, user_id, provider, provider_id, identity_data, email, last_sign_in_at, created_at,
            updated_at
       FROM auth_identity WHERE user_id = ANY($1::uuid[]) ORDER BY created_at, id`,
    [userIds],
  );
  return rows.map((row) => v.parse(identityRowSchema, row));
}

export async function insertIdentity(
  tx: Queryable,
  identity: {
    userId: string;
    provider: string;
    providerId: string;
    identityData: Record<string, unknown>;
    email: string | null;
    now: Date;
    signedIn: boolean;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO auth_identity (id, user_id, provider, provider_id, identity_data, email,
       last_sign_in_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
    [
      randomUUID(),
      identity.userId,
      identity.provider,
      identity.providerId,
      JSON.stringify(identity.identityData),
      identity.email,
      identity.signedIn ? identity.now : null,
      identity.now,
    ],
  );
}

export async function listFactors(tx: Queryable, userId: string): Promise<FactorRow[]> {
  const { rows } = await tx.query(
    `SELECT id, user_id, friendly_name, factor_type, status, secret, phone,
            last_totp_step::text AS last_totp_step, last_challenged_at, created_at, updated_at
       FROM auth_mfa_factor WHERE user_id = $1 ORDER BY created_at, id`,
    [userId],
  );
  return rows.map((row) => v.parse(factorRowSchema, row));
}

export async function listFactorsOf(tx: Queryable, userIds: string[]): Promise<FactorRow[]> {
  const { rows } = await tx.query(
    `SELECT id, user_id, friendly_name, factor_type, status, secret, phone,
            last_totp_step::text AS last_totp_step, last_challenged_at, created_at, updated_at
       FROM auth_mfa_factor WHERE user_id = ANY($1::uuid[]) ORDER BY created_at, id`,
    [userIds],
  );
  return rows.map((row) => v.parse(factorRowSchema, row));
}

/** app_metadata.provider / providers follow the identities (GoTrue UpdateAppMetaDataProviders). */
export async function syncProviders(tx: Queryable, user: UserRow, now: Date): Promise<UserRow> {
  const identities = await listIdentities(tx, user.id);
  const providers = [...new Set(identities.map((identity) => identity.provider))];
  const current = user.app_metadata;
  const provider =
    typeof current.provider === 'string' && providers.includes(current.provider)
      ? current.provider
      : (providers[0] ?? 'email');
  return updateUser(tx, user.id, { app_metadata: { ...current, provider, providers } }, now);
}

export async function audit(
  tx: Queryable,
  event: {
    userId: string | null;
    action: string;
    ip: string | null;
    detail?: Record<string, unknown>;
    now: Date;
  },
): Promise<void> {
  await tx.query(
    'INSERT INTO auth_audit_event (user_id, action, ip, detail, created_at) VALUES ($1, $2, $3, $4, $5)',
    [event.userId, event.action, event.ip, JSON.stringify(event.detail ?? {}), event.now],
  );
}

const iso = (value: Date) => value.toISOString();

/** GoTrue omits empty timestamps (omitempty); absent keys, never nulls. */
function optionalTimes(fields: Record<string, Date | null>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) if (value) out[key] = iso(value);
  return out;
}

export function identityJson(identity: IdentityRow): Record<string, unknown> {
  return {
    identity_id: identity.id,
    id: identity.provider_id,
    user_id: identity.user_id,
    identity_data: identity.identity_data,
    provider: identity.provider,
    ...optionalTimes({ last_sign_in_at: identity.last_sign_in_at }),
    created_at: iso(identity.created_at),
    updated_at: iso(identity.updated_at),
    email: identity.email ?? '',
  };
}

export function factorJson(factor: FactorRow): Record<string, unknown> {
  return {
    id: factor.id,
    ...(factor.friendly_name ? { friendly_name: factor.friendly_name } : {}),
    factor_type: factor.factor_type,
    status: factor.status,
    created_at: iso(factor.created_at),
    updated_at: iso(factor.updated_at),
    last_challenged_at: factor.last_challenged_at ? iso(factor.last_challenged_at) : null,
    phone: factor.phone ?? '',
  };
}

export function userJson(
  user: UserRow,
  identities: IdentityRow[],
  factors: FactorRow[],
): Record<string, unknown> {
  return {
    id: user.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: user.email ?? '',
    ...optionalTimes({
      email_confirmed_at: user.email_confirmed_at,
      confirmation_sent_at: user.confirmation_sent_at,
      confirmed_at: user.email_confirmed_at,
      recovery_sent_at: user.recovery_sent_at,
      email_change_sent_at: user.email_change_sent_at,
      reauthentication_sent_at: user.reauthentication_sent_at,
      last_sign_in_at: user.last_sign_in_at,
      invited_at: user.invited_at,
      banned_until: user.banned_until,
      deleted_at: user.deleted_at,
    }),
    ...(user.email_change ? { new_email: user.email_change } : {}),
    phone: '',
    app_metadata: user.app_metadata,
    user_metadata: user.user_metadata,
    identities: identities.map(identityJson),
    // The client derives listFactors() and the next assurance level from these.
    ...(factors.length > 0 ? { factors: factors.map(factorJson) } : {}),
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    is_anonymous: false,
  };
}

/** The full wire User: the row with its identities and factors. */
export async function loadUserJson(tx: Queryable, user: UserRow): Promise<Record<string, unknown>> {
  // Sequential: a transaction is one connection, and PGlite runs one statement at a time anyway.
  const identities = await listIdentities(tx, user.id);
  const factors = await listFactors(tx, user.id);
  return userJson(user, identities, factors);
}
