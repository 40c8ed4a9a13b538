/**
 * The ES256 key that signs access tokens, and the public `anon` key signed with it. Created at
 * first start and kept in auth_signing_key, so tokens and the anon key survive restarts and every
 * process of a scaled-out deployment signs with the same key.
 *
 * The private JWK is stored unencrypted: whoever can read the database can already read or change
 * every account, so a key-encryption key would need a secret kept outside the database, which the
 * embedded deployment does not have. (A KMS-held key is the place for that, hosted mode aside.)
 */
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  SignJWT,
  type CryptoKey,
  type JWK,
} from 'jose';
import * as v from 'valibot';
import type { Database } from '../db/database.ts';

export interface PublicJwk extends JWK {
  kid: string;
  alg: 'ES256';
  use: 'sig';
  key_ops: ['verify'];
}

export interface SigningKeyRing {
  kid: string;
  privateKey: CryptoKey;
  /** Served at /.well-known/jwks.json: every key whose tokens may still be alive. */
  jwks: { keys: PublicJwk[] };
  anonKey: string;
}

const ANON_KEY_LIFETIME_SECONDS = 10 * 365 * 24 * 3600;

// Serializes first-start key creation across processes sharing one PostgreSQL database.
const KEY_CREATION_LOCK = '7236915502144';

const keyRowSchema = v.object({
  kid: v.string(),
  status: v.picklist(['current', 'previous']),
  public_jwk: v.looseObject({ kty: v.literal('EC'), crv: v.literal('P-256') }),
  private_jwk: v.looseObject({ kty: v.literal('EC'), d: v.string() }),
  anon_key: v.string(),
});

export async function loadSigningKeys(
  db: Database,
  options: { issuer: string; now: () => Date },
): Promise<SigningKeyRing> {
  const rows = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [KEY_CREATION_LOCK]);
    const existing = await tx.query(
      `SELECT kid, status, public_jwk, private_jwk, anon_key FROM auth_signing_key
        WHERE status IN ('current', 'previous') ORDER BY created_at DESC`,
    );
    if (existing.rows.some((row) => row.status === 'current')) return existing.rows;
    const created = await createKey(options.issuer, options.now());
    await tx.query(
      `INSERT INTO auth_signing_key (kid, algorithm, public_jwk, private_jwk, anon_key, status, created_at)
       VALUES ($1, 'ES256', $2, $3, $4, 'current', $5)`,
      [
        created.kid,
        JSON.stringify(created.publicJwk),
        JSON.stringify(created.privateJwk),
        created.anonKey,
        options.now(),
      ],
    );
    return [
      {
        kid: created.kid,
        status: 'current',
        public_jwk: created.publicJwk,
        private_jwk: created.privateJwk,
        anon_key: created.anonKey,
      },
      ...existing.rows,
    ];
  });
  const keys = rows.map((row) => v.parse(keyRowSchema, row));
  const current = keys.find((key) => key.status === 'current');
  if (!current) throw new Error('auth_signing_key has no current key');
  const privateKey = await importJWK({ ...current.private_jwk, alg: 'ES256' }, 'ES256');
  if (privateKey instanceof Uint8Array) throw new Error('signing key imported as raw bytes');
  return {
    kid: current.kid,
    privateKey,
    jwks: { keys: keys.map((key) => publicJwk(key.public_jwk as JWK, key.kid)) },
    anonKey: current.anon_key,
  };
}

async function createKey(issuer: string, now: Date) {
  const pair = await generateKeyPair('ES256', { extractable: true });
  const exportedPublic = await exportJWK(pair.publicKey);
  const kid = await calculateJwkThumbprint(exportedPublic);
  const iat = Math.floor(now.getTime() / 1000);
  // Supabase's anon key: a long-lived public JWT with role anon. Clients send it as `apikey`.
  const anonKey = await new SignJWT({ role: 'anon' })
    .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
    .setIssuer(issuer)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ANON_KEY_LIFETIME_SECONDS)
    .sign(pair.privateKey);
  return {
    kid,
    publicJwk: publicJwk(exportedPublic, kid),
    privateJwk: await exportJWK(pair.privateKey),
    anonKey,
  };
}

/** Importable by WebCrypto with usage verify (auth-js getClaims): use sig, key_ops [verify]. */
function publicJwk(jwk: JWK, kid: string): PublicJwk {
  const { kty, crv, x, y } = jwk;
  return { kty, crv, x, y, kid, alg: 'ES256', use: 'sig', key_ops: ['verify'] } as PublicJwk;
}
