/**
 * The OAuth client registry (GoTrue internal/api/oauthserver: the client model, its validation
 * and its wire shape): rows of auth_oauth_client, the checks GoTrue applies to a registration or
 * an update, and the JSON supabase-js's `auth.admin.oauth` reads.
 *
 * A confidential client's secret is 256 random bits shown once; the table keeps only its SHA-256.
 * Nothing here lets a client sign anyone in: the authorization endpoints are not offered.
 */
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import type { Queryable } from '../db/database.ts';
import { randomToken, sha256Hex } from './auth-crypto.ts';
import { validationFailed } from './auth-error.ts';

export const CLIENT_TYPES = ['public', 'confidential'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];
export const AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];
const GRANT_TYPES = ['authorization_code', 'refresh_token'];
/** GoTrue's limits (validateRedirectURIList, validateClientName, validateClientURI). */
const MAX_REDIRECT_URIS = 10;
const MAX_NAME_LENGTH = 1024;
const MAX_URI_LENGTH = 2048;
/** Schemes that can run script or leak a code to the page (GoTrue validateRedirectURI). */
const DANGEROUS_SCHEMES = ['javascript', 'data', 'file', 'vbscript', 'about', 'blob'];
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '::1'];

const clientRowSchema = v.object({
  id: v.string(),
  client_type: v.picklist(CLIENT_TYPES),
  token_endpoint_auth_method: v.picklist(AUTH_METHODS),
  registration_type: v.picklist(['dynamic', 'manual']),
  client_name: v.nullable(v.string()),
  client_uri: v.nullable(v.string()),
  logo_uri: v.nullable(v.string()),
  redirect_uris: v.array(v.string()),
  grant_types: v.array(v.string()),
  created_at: v.date(),
  updated_at: v.date(),
});
export type OAuthClientRow = v.InferOutput<typeof clientRowSchema>;

const COLUMNS = `id, client_type, token_endpoint_auth_method, registration_type, client_name,
  client_uri, logo_uri, redirect_uris, grant_types, created_at, updated_at`;

const optionalString = v.optional(v.nullable(v.string()));
const optionalStrings = v.optional(v.nullable(v.array(v.string())));

/** POST /admin/oauth/clients (GoTrue OAuthServerClientRegisterParams; other keys are ignored). */
export const registerClientSchema = v.object({
  redirect_uris: optionalStrings,
  client_type: optionalString,
  token_endpoint_auth_method: optionalString,
  grant_types: optionalStrings,
  client_name: optionalString,
  client_uri: optionalString,
  logo_uri: optionalString,
});

/** PUT /admin/oauth/clients/:id: every field optional, a null is as good as absent (Go's nil). */
export const updateClientSchema = v.object({
  redirect_uris: optionalStrings,
  grant_types: optionalStrings,
  client_name: optionalString,
  client_uri: optionalString,
  logo_uri: optionalString,
  token_endpoint_auth_method: optionalString,
});

export interface NewClient {
  clientType: ClientType;
  authMethod: AuthMethod;
  redirectUris: string[];
  grantTypes: string[];
  clientName: string | null;
  clientUri: string | null;
  logoUri: string | null;
}

/** GoTrue registerOAuthServerClient's checks and defaults; every failure is 400 validation_failed. */
export function checkRegistration(body: v.InferOutput<typeof registerClientSchema>): NewClient {
  const redirectUris = body.redirect_uris ?? [];
  if (redirectUris.length === 0) throw validationFailed('redirect_uris is required');
  checkRedirectUris(redirectUris);
  const grantTypes = body.grant_types ?? [];
  if (grantTypes.length > 0) checkGrantTypes(grantTypes);
  checkName(body.client_name);
  checkUri('client_uri', body.client_uri);
  checkUri('logo_uri', body.logo_uri);
  const explicitType = oneOf(body.client_type, isClientType, () =>
    validationFailed("client_type must be 'public' or 'confidential'"),
  );
  const method = oneOf(body.token_endpoint_auth_method, isAuthMethod, () =>
    validationFailed(`token_endpoint_auth_method must be one of: [${AUTH_METHODS.join(' ')}]`),
  );
  const inferred = method ? typeFor(method) : null;
  if (explicitType && inferred && explicitType !== inferred) {
    throw validationFailed(
      `client_type '${explicitType}' is inconsistent with token_endpoint_auth_method '${method}' ` +
        `(expected client_type '${inferred}')`,
    );
  }
  // Explicit type, else the one the method implies, else confidential (GoTrue DetermineClientType);
  // RFC 7591's default method is client_secret_basic, and none for a public client.
  const clientType = explicitType ?? inferred ?? 'confidential';
  return {
    clientType,
    authMethod: method ?? (clientType === 'public' ? 'none' : 'client_secret_basic'),
    redirectUris,
    grantTypes: grantTypes.length > 0 ? grantTypes : [...GRANT_TYPES],
    clientName: body.client_name || null,
    clientUri: body.client_uri || null,
    logoUri: body.logo_uri || null,
  };
}

export type ClientChanges = Partial<{
  redirect_uris: string[];
  grant_types: string[];
  client_name: string | null;
  client_uri: string | null;
  logo_uri: string | null;
  token_endpoint_auth_method: AuthMethod;
}>;

/** GoTrue updateOAuthServerClient's checks: only the fields sent change. */
export function checkUpdate(
  body: v.InferOutput<typeof updateClientSchema>,
  client: OAuthClientRow,
): ClientChanges {
  if (Object.values(body).every((value) => value == null)) {
    throw validationFailed('No fields provided for update');
  }
  const changes: ClientChanges = {};
  if (body.redirect_uris != null) {
    if (body.redirect_uris.length === 0) throw validationFailed('redirect_uris cannot be empty');
    checkRedirectUris(body.redirect_uris);
    changes.redirect_uris = body.redirect_uris;
  }
  if (body.grant_types != null) {
    checkGrantTypes(body.grant_types);
    changes.grant_types = body.grant_types;
  }
  if (body.client_name != null) {
    checkName(body.client_name);
    changes.client_name = body.client_name || null;
  }
  if (body.client_uri != null) {
    checkUri('client_uri', body.client_uri);
    changes.client_uri = body.client_uri || null;
  }
  if (body.logo_uri != null) {
    checkUri('logo_uri', body.logo_uri);
    changes.logo_uri = body.logo_uri || null;
  }
  const method = body.token_endpoint_auth_method;
  if (method != null) {
    if (!isAuthMethod(method)) {
      throw validationFailed(
        `invalid token_endpoint_auth_method: must be one of [${AUTH_METHODS.join(' ')}]`,
      );
    }
    // The type (and so whether a secret exists) is fixed at registration.
    if (typeFor(method) !== client.client_type) {
      const valid = AUTH_METHODS.filter((m) => typeFor(m) === client.client_type);
      throw validationFailed(
        `token_endpoint_auth_method '${method}' is not valid for client_type ` +
          `'${client.client_type}'; valid methods: [${valid.join(' ')}]`,
      );
    }
    changes.token_endpoint_auth_method = method;
  }
  return changes;
}

/** An optional choice: null when absent or empty (Go's zero value), else one of the allowed. */
function oneOf<T extends string>(
  value: string | null | undefined,
  allowed: (value: string) => value is T,
  refuse: () => Error,
): T | null {
  if (!value) return null;
  if (!allowed(value)) throw refuse();
  return value;
}

function isClientType(value: string): value is ClientType {
  return (CLIENT_TYPES as readonly string[]).includes(value);
}

function isAuthMethod(value: string): value is AuthMethod {
  return (AUTH_METHODS as readonly string[]).includes(value);
}

function typeFor(method: AuthMethod): ClientType {
  return method === 'none' ? 'public' : 'confidential';
}

function checkRedirectUris(uris: string[]): void {
  if (uris.length > MAX_REDIRECT_URIS) {
    throw validationFailed(`redirect_uris cannot exceed ${MAX_REDIRECT_URIS} items`);
  }
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw validationFailed(`invalid redirect_uri '${uri.slice(0, 200)}': ${problem}`);
  }
}

/** OAuth 2.1 redirect URIs: absolute, no fragment, plain http only on loopback (RFC 6749 3.1.2). */
function redirectUriProblem(uri: string): string | null {
  if (uri === '') return 'redirect URI cannot be empty';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'invalid URL format';
  }
  const scheme = url.protocol.slice(0, -1);
  if (DANGEROUS_SCHEMES.includes(scheme.toLowerCase())) {
    return `scheme '${scheme}' is not allowed for security reasons`;
  }
  if (url.host === '') return 'must have scheme and host';
  if (scheme === 'http' && !LOOPBACK_HOSTS.includes(url.hostname.replace(/^\[|\]$/g, ''))) {
    return 'HTTP scheme only allowed for localhost';
  }
  if (url.hash !== '') return 'fragment not allowed in redirect URI';
  return null;
}

function checkGrantTypes(grantTypes: string[]): void {
  if (grantTypes.length === 0) throw validationFailed('grant_types cannot be empty');
  if (!grantTypes.every((type) => GRANT_TYPES.includes(type))) {
    throw validationFailed(
      "grant_types must only contain 'authorization_code' and/or 'refresh_token'",
    );
  }
}

function checkName(name: string | null | undefined): void {
  if (name && name.length > MAX_NAME_LENGTH) {
    throw validationFailed(`client_name cannot exceed ${MAX_NAME_LENGTH} characters`);
  }
}

/** GoTrue validateClientURI / validateLogoURI: empty is fine, else a URL (Go ParseRequestURI). */
function checkUri(field: 'client_uri' | 'logo_uri', value: string | null | undefined): void {
  if (!value) return;
  if (value.length > MAX_URI_LENGTH) {
    throw validationFailed(`${field} cannot exceed ${MAX_URI_LENGTH} characters`);
  }
  if (!URL.canParse(value) && !value.startsWith('/')) {
    throw validationFailed(`${field} must be a valid URL`);
  }
}

/** A new secret and the hash that is stored for it. */
function newSecret(): { secret: string; hash: string } {
  const secret = randomToken();
  return { secret, hash: sha256Hex(secret) };
}

/** Inserts a client; the secret (confidential clients only) is returned to be shown once. */
export async function insertClient(
  tx: Queryable,
  client: NewClient,
  now: Date,
): Promise<{ row: OAuthClientRow; secret: string | null }> {
  const credentials = client.clientType === 'confidential' ? newSecret() : null;
  const { rows } = await tx.query(
    `INSERT INTO auth_oauth_client (id, client_secret_hash, client_type, token_endpoint_auth_method,
       registration_type, client_name, client_uri, logo_uri, redirect_uris, grant_types,
       created_at, updated_at)
     VALUES ($1, $2, $3, $4, 'manual', $5, $6, $7, $8, $9, $10, $10)
     RETURNING ${COLUMNS}`,
    [
      randomUUID(),
      credentials?.hash ?? null,
      client.clientType,
      client.authMethod,
      client.clientName,
      client.clientUri,
      client.logoUri,
      client.redirectUris,
      client.grantTypes,
      now,
    ],
  );
  return { row: v.parse(clientRowSchema, rows[0]), secret: credentials?.secret ?? null };
}

export async function findClient(
  tx: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<OAuthClientRow | null> {
  const { rows } = await tx.query(
    `SELECT ${COLUMNS} FROM auth_oauth_client WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ? v.parse(clientRowSchema, rows[0]) : null;
}

/** Newest first (GoTrue's order), one page, and how many there are in all. */
export async function listClients(
  tx: Queryable,
  page: { limit: number; offset: number },
): Promise<{ clients: OAuthClientRow[]; total: number }> {
  const { rows: counted } = await tx.query<{ count: string }>(
    'SELECT count(*)::text AS count FROM auth_oauth_client',
  );
  const { rows } = await tx.query(
    `SELECT ${COLUMNS} FROM auth_oauth_client ORDER BY created_at DESC, id LIMIT $1 OFFSET $2`,
    [page.limit, page.offset],
  );
  return {
    clients: rows.map((row) => v.parse(clientRowSchema, row)),
    total: Number(counted[0]?.count ?? 0),
  };
}

export async function updateClient(
  tx: Queryable,
  id: string,
  changes: ClientChanges,
  now: Date,
): Promise<OAuthClientRow> {
  const entries = Object.entries({ ...changes, updated_at: now });
  const sets = entries.map(([column], index) => `${column} = $${index + 2}`);
  const { rows } = await tx.query(
    `UPDATE auth_oauth_client SET ${sets.join(', ')} WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, ...entries.map(([, value]) => value)],
  );
  return v.parse(clientRowSchema, rows[0]);
}

/** Replaces a confidential client's secret; the old one stops matching at once. */
export async function regenerateSecret(
  tx: Queryable,
  id: string,
  now: Date,
): Promise<{ row: OAuthClientRow; secret: string }> {
  const { secret, hash } = newSecret();
  const { rows } = await tx.query(
    `UPDATE auth_oauth_client SET client_secret_hash = $2, updated_at = $3 WHERE id = $1
     RETURNING ${COLUMNS}`,
    [id, hash, now],
  );
  return { row: v.parse(clientRowSchema, rows[0]), secret };
}

export async function deleteClient(tx: Queryable, id: string): Promise<void> {
  await tx.query('DELETE FROM auth_oauth_client WHERE id = $1', [id]);
}

/** GoTrue OAuthServerClientResponse: empty strings are omitted, response_types is always code. */
export function clientJson(
  client: OAuthClientRow,
  secret: string | null = null,
): Record<string, unknown> {
  return {
    client_id: client.id,
    ...(secret ? { client_secret: secret } : {}),
    client_type: client.client_type,
    redirect_uris: client.redirect_uris,
    token_endpoint_auth_method: client.token_endpoint_auth_method,
    grant_types: client.grant_types,
    response_types: ['code'],
    ...(client.client_name ? { client_name: client.client_name } : {}),
    ...(client.client_uri ? { client_uri: client.client_uri } : {}),
    ...(client.logo_uri ? { logo_uri: client.logo_uri } : {}),
    registration_type: client.registration_type,
    created_at: client.created_at.toISOString(),
    updated_at: client.updated_at.toISOString(),
  };
}
