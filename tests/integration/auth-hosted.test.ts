/**
 * Hosted mode: tokens of a Supabase project verified against its JWKS, served here by a tiny
 * local server standing in for `${SUPABASE_URL}/auth/v1/.well-known/jwks.json`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostedAuth, createHostedVerifier } from '../../server/auth/hosted-auth.ts';
import { createLogger } from '../../server/logger.ts';

let server: Server;
let supabaseUrl = '';
let privateKey: CryptoKey;
let jwksRequests = 0;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  privateKey = pair.privateKey;
  const publicJwk = {
    ...(await exportJWK(pair.publicKey)),
    kid: 'hosted-1',
    alg: 'ES256',
    use: 'sig',
  };
  server = createServer((request, response) => {
    response.setHeader('Content-Type', 'application/json');
    if (request.url === '/auth/v1/.well-known/jwks.json') {
      jwksRequests += 1;
      response.end(JSON.stringify({ keys: [publicJwk] }));
    } else if (request.url === '/auth/v1/settings' && request.headers.apikey === 'anon-key') {
      response.end(JSON.stringify({ external: { email: true, google: true } }));
    } else {
      response.statusCode = 404;
      response.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  supabaseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function token(
  claims: Record<string, unknown> = {},
  options: {
    key?: CryptoKey;
    kid?: string;
    expiresIn?: string;
    issuer?: string;
    audience?: string;
  } = {},
): Promise<string> {
  return new SignJWT({
    role: 'authenticated',
    email: 'h@example.com',
    session_id: 's-1',
    aal: 'aal1',
    ...claims,
  })
    .setProtectedHeader({ alg: 'ES256', kid: options.kid ?? 'hosted-1', typ: 'JWT' })
    .setIssuer(options.issuer ?? `${supabaseUrl}/auth/v1`)
    .setSubject('8d0fd2b3-9ca7-4d9e-a95f-9e13dded323e')
    .setAudience(options.audience ?? 'authenticated')
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '1h')
    .sign(options.key ?? privateKey);
}

describe('createHostedVerifier', () => {
  it('accepts the project tokens and fetches the JWKS once for many verifications', async () => {
    const verify = createHostedVerifier({ supabaseUrl: `${supabaseUrl}/` });
    const before = jwksRequests;
    for (let i = 0; i < 5; i += 1) {
      expect(await verify(await token())).toEqual({
        userId: '8d0fd2b3-9ca7-4d9e-a95f-9e13dded323e',
        email: 'h@example.com',
        role: 'authenticated',
        sessionId: 's-1',
        aal: 'aal1',
      });
    }
    expect(jwksRequests - before).toBe(1);
  });

  it('refuses foreign-signed, expired, wrong-audience and wrong-issuer tokens with 401', async () => {
    const verify = createHostedVerifier({ supabaseUrl });
    const other = await generateKeyPair('ES256');
    await expect(verify(await token({}, { key: other.privateKey }))).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'Invalid JWT signature',
    });
    await expect(verify(await token({}, { kid: 'unknown-kid' }))).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'Invalid JWT signature',
    });
    await expect(verify(await token({}, { expiresIn: '-1m' }))).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'Invalid JWT: token has expired',
    });
    await expect(verify(await token({}, { audience: 'anon' }))).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    await expect(
      verify(await token({}, { issuer: 'https://elsewhere.example/auth/v1' })),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(verify('not.a.jwt')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('publicConfig points the app at the project and reads whether Google is on', async () => {
    const hosted = await createHostedAuth({
      supabaseUrl,
      anonKey: 'anon-key',
      captchaSiteKey: null,
      logger: createLogger({ level: 'silent' }),
    });
    expect(hosted.publicConfig()).toEqual({
      supabaseUrl,
      supabaseAnonKey: 'anon-key',
      googleEnabled: true,
      captchaSiteKey: null,
    });
  });
});
