/**
 * grant_type=id_token (supabase-js signInWithIdToken / linkIdentity with a token): Google's ID
 * token verified against GOOGLE_ISSUER's JWKS, GOOGLE_CLIENT_ID as audience, the nonce as GoTrue
 * checks it (the token carries the SHA-256 of the nonce sent). A small loopback issuer publishes
 * discovery and the JWKS; the tests sign tokens with its key (and with keys it does not publish).
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAuthTestServer,
  TEST_PASSWORD,
  type AuthTestServer,
} from '../fixtures/create-auth-test-server.ts';

const CLIENT_ID = 'satchel-web.apps.example';
let issuerServer: Server;
let issuer = '';
let signingKey: CryptoKey;
let t: AuthTestServer;
let unconfigured: AuthTestServer;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  signingKey = pair.privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  issuerServer = createServer((request, response) => {
    response.setHeader('Content-Type', 'application/json');
    if (request.url === '/.well-known/openid-configuration') {
      response.end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
        }),
      );
    } else if (request.url === '/jwks') {
      response.end(JSON.stringify({ keys: [jwk] }));
    } else {
      response.statusCode = 404;
      response.end('{}');
    }
  });
  await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
  t = await createAuthTestServer({
    config: { google: { issuer, clientId: CLIENT_ID, clientSecret: 'unused-here' } },
  });
  unconfigured = await createAuthTestServer();
});

afterAll(async () => {
  await t.cleanup();
  await unconfigured.cleanup();
  await new Promise((resolve) => issuerServer.close(resolve));
});

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

async function idToken(
  claims: Record<string, unknown>,
  options: { key?: CryptoKey; audience?: string; issuer?: string; expiresIn?: string } = {},
): Promise<string> {
  return new SignJWT({ email_verified: true, ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer(options.issuer ?? issuer)
    .setAudience(options.audience ?? CLIENT_ID)
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '10m')
    .sign(options.key ?? signingKey);
}

async function userCount(server: AuthTestServer): Promise<number> {
  const { rows } = await server.db.query<{ n: string }>(
    'SELECT count(*)::text AS n FROM auth_user',
  );
  return Number(rows[0]?.n);
}

describe('provider not configured', () => {
  it('answers GoTrue\'s "Provider (issuer …) is not enabled", not unsupported_grant_type', async () => {
    const { data, error } = await unconfigured.createClient().auth.signInWithIdToken({
      provider: 'google',
      token: 'mock-id-token',
      nonce: 'mock-nonce',
    });
    expect(data.session).toBeNull();
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('provider_disabled');
    expect(error?.message).toBe('Provider (issuer "https://accounts.google.com") is not enabled');
  });

  it('a custom provider is not allowed', async () => {
    const { error } = await unconfigured.createClient().auth.signInWithIdToken({
      provider: 'custom:my-oidc',
      token: 'mock-id-token',
    });
    expect(error?.message).toBe('Custom OIDC provider "custom:my-oidc" not allowed');
  });
});

describe('Google ID tokens', () => {
  it('signs in a new account with a verified address and a Google identity', async () => {
    const nonce = 'raw-nonce-1';
    const token = await idToken({
      sub: 'g-100',
      email: 'OneTap@Example.com',
      name: 'One Tap',
      nonce: sha256(nonce),
    });
    const { data, error } = await t.createClient().auth.signInWithIdToken({
      provider: 'google',
      token,
      nonce,
    });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    expect(data.user?.email).toBe('onetap@example.com');
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(data.user?.app_metadata.providers).toEqual(['google']);
    expect(data.user?.user_metadata.full_name).toBe('One Tap');
    expect(await t.auth.verifyAccessToken(data.session?.access_token ?? '')).toMatchObject({
      userId: data.user?.id,
    });

    const again = await t.createClient().auth.signInWithIdToken({
      provider: 'google',
      token: await idToken({ sub: 'g-100', email: 'onetap@example.com' }),
    });
    expect(again.data.user?.id).toBe(data.user?.id);
  });

  it('signs in to the existing account with the same verified address', async () => {
    const userId = await t.registerUser('linked-by-address@example.com');
    const { data, error } = await t.createClient().auth.signInWithIdToken({
      provider: 'google',
      token: await idToken({ sub: 'g-200', email: 'linked-by-address@example.com' }),
    });
    expect(error).toBeNull();
    expect(data.user?.id).toBe(userId);
    expect(data.user?.identities?.map((i) => i.provider).sort()).toEqual(['email', 'google']);
  });

  it.each([
    [
      'another audience',
      { audience: 'someone-else' },
      {},
      'Unacceptable audience in id_token: [someone-else]',
    ],
    ['a key the issuer does not publish', { foreignKey: true }, {}, 'Bad ID token'],
    ['an expired token', { expiresIn: '-1m' }, {}, 'Bad ID token'],
    ['another issuer', { issuer: 'https://evil.example' }, {}, 'Bad ID token'],
    ['a wrong nonce', {}, { nonce: 'other' }, 'Nonces mismatch'],
    [
      'a nonce missing from the request',
      {},
      { nonce: undefined },
      'Passed nonce and nonce in id_token should either both exist or not.',
    ],
  ] as const)('refuses %s, creating nothing', async (_name, tokenOptions, request, message) => {
    const before = await userCount(t);
    const foreign =
      'foreignKey' in tokenOptions ? (await generateKeyPair('RS256')).privateKey : undefined;
    const token = await idToken(
      { sub: 'g-bad', email: 'bad-token@example.com', nonce: sha256('right') },
      {
        ...('audience' in tokenOptions ? { audience: tokenOptions.audience } : {}),
        ...('expiresIn' in tokenOptions ? { expiresIn: tokenOptions.expiresIn } : {}),
        ...('issuer' in tokenOptions ? { issuer: tokenOptions.issuer } : {}),
        ...(foreign ? { key: foreign } : {}),
      },
    );
    const nonce = 'nonce' in request ? request.nonce : 'right';
    const { data, error } = await t.createClient().auth.signInWithIdToken({
      provider: 'google',
      token,
      ...(nonce === undefined ? {} : { nonce }),
    });
    expect(data.session).toBeNull();
    expect(error?.status).toBe(400);
    expect(error?.message).toBe(message);
    expect(await userCount(t)).toBe(before);
  });

  it('links Google to the signed-in account (link_identity)', async () => {
    await t.registerUser('links-token@example.com');
    const client = t.createClient();
    await client.auth.signInWithPassword({
      email: 'links-token@example.com',
      password: TEST_PASSWORD,
    });
    const { data, error } = await client.auth.linkIdentity({
      provider: 'google',
      token: await idToken({ sub: 'g-300', email: 'other-address@example.com' }),
    });
    expect(error).toBeNull();
    expect(data.user?.email).toBe('links-token@example.com');
    expect(data.user?.identities?.map((i) => i.provider).sort()).toEqual(['email', 'google']);
  });
});
