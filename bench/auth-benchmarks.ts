/**
 * Accounts benchmarks, each beside a reference measured in the same run:
 * - access-token verification per request with the signing keys cached (the embedded service's
 *   local key set, and hosted mode's remote JWKS after its first fetch) against a bare
 *   `jose.jwtVerify` with the same, already imported key;
 * - password sign-in (POST /auth/v1/token?grant_type=password through the whole HTTP app) with
 *   OWASP argon2id parameters against a bare argon2 verify of the same hash.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verify as argon2Verify } from '@node-rs/argon2';
import { exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT } from 'jose';
import { createHostedVerifier } from '../server/auth/hosted-auth.ts';
import { OWASP_ARGON2ID } from '../server/auth/password-hasher.ts';
import type { BenchRow } from './bench-row.ts';
import {
  createAuthTestServer,
  SITE_URL,
  TEST_PASSWORD,
} from '../tests/fixtures/create-auth-test-server.ts';

// Issue 3 sets no target for these: they are recorded beside their references only.
export type Row = BenchRow;

async function timeIt(iterations: number, fn: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  return samples;
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const ms = (value: number) => `${value.toFixed(3)} ms`;

export async function runAuthBenchmarks(): Promise<Row[]> {
  const t = await createAuthTestServer({ argon2Options: OWASP_ARGON2ID });
  const hostedKeys = await generateKeyPair('ES256');
  const hostedJwk = { ...(await exportJWK(hostedKeys.publicKey)), kid: 'bench', alg: 'ES256' };
  const stub = createServer((_request, response) => {
    response.setHeader('Content-Type', 'application/json');
    response.end(JSON.stringify({ keys: [hostedJwk] }));
  });
  try {
    await t.registerUser('bench@example.com');
    const signIn = () =>
      t.fetch(`${SITE_URL}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: t.anonKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'bench@example.com', password: TEST_PASSWORD }),
      });
    const session = (await (await signIn()).json()) as { access_token: string };
    const token = session.access_token;

    // The same key, imported once: what a verifier costs with nothing around it.
    const jwk = t.auth.jwks.keys[0];
    if (!jwk) throw new Error('no signing key');
    const key = await importJWK(jwk, 'ES256');
    const bare = () => jwtVerify(token, key, { audience: 'authenticated' });

    // Hosted mode against a local JWKS endpoint (fetched once, then cached), with its own key.
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    const supabaseUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
    const hostedToken = await new SignJWT({ role: 'authenticated', session_id: 's' })
      .setProtectedHeader({ alg: 'ES256', kid: 'bench', typ: 'JWT' })
      .setIssuer(`${supabaseUrl}/auth/v1`)
      .setSubject('8d0fd2b3-9ca7-4d9e-a95f-9e13dded323e')
      .setAudience('authenticated')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(hostedKeys.privateKey);
    const hosted = createHostedVerifier({ supabaseUrl });
    const hostedRun = () => hosted(hostedToken);
    const hostedBare = () =>
      jwtVerify(hostedToken, hostedKeys.publicKey, { audience: 'authenticated' });

    const n = 5000;
    await timeIt(500, () => t.auth.verifyAccessToken(token));
    await timeIt(500, bare);
    await timeIt(500, hostedRun);
    await timeIt(500, hostedBare);
    const embedded = await timeIt(n, () => t.auth.verifyAccessToken(token));
    const reference = await timeIt(n, bare);
    const remote = await timeIt(n, hostedRun);
    const remoteReference = await timeIt(n, hostedBare);

    const m = 40;
    const stored = await t.db.query<{ encrypted_password: string }>(
      "SELECT encrypted_password FROM auth_user WHERE email = 'bench@example.com'",
    );
    const hash = stored.rows[0]?.encrypted_password ?? '';
    await timeIt(3, signIn);
    const signIns = await timeIt(m, async () => {
      const response = await signIn();
      if (response.status !== 200) throw new Error(`sign-in answered ${response.status}`);
    });
    const verifies = await timeIt(m, () => argon2Verify(hash, TEST_PASSWORD));

    const row = (what: string, samples: number[], ref: number[], refLabel: string): Row => {
      const a = percentile(samples, 50);
      const r = percentile(ref, 50);
      return {
        what: `${what}, p50 of ${samples.length} (p95 ${ms(percentile(samples, 95))})`,
        figure: ms(a),
        reference: `${ms(r)} (${refLabel}, p95 ${ms(percentile(ref, 95))})`,
        ratio: `${(a / r).toFixed(2)}x`,
      };
    };
    return [
      row(
        'access-token verification, embedded service (ES256, local key set)',
        embedded,
        reference,
        'bare jose.jwtVerify, same key',
      ),
      row(
        'access-token verification, hosted mode (remote JWKS, cached)',
        remote,
        remoteReference,
        'bare jose.jwtVerify, same key',
      ),
      row(
        'password sign-in through /auth/v1/token, argon2id 19 MiB t=2 p=1',
        signIns,
        verifies,
        'bare argon2 verify of the same hash',
      ),
    ];
  } finally {
    await new Promise((resolve) => stub.close(resolve));
    await t.cleanup();
  }
}
