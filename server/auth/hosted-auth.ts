/**
 * Hosted mode (SUPABASE_URL + SUPABASE_ANON_KEY): a Supabase project does the accounts, the app's
 * client talks to it directly, and this server only verifies its access tokens against the
 * project's JWKS (`${SUPABASE_URL}/auth/v1/.well-known/jwks.json`, cached by jose: refetched at
 * most every 10 minutes, or on an unknown `kid` with a 30 s cooldown). The embedded service is
 * not mounted.
 *
 * Projects still signing with the legacy shared HS256 secret publish no usable key; their tokens
 * are refused (asymmetric signing keys must be enabled on the project).
 */
import { createRemoteJWKSet } from 'jose';
import * as v from 'valibot';
import type { PublicConfig } from '#contract/endpoints/config.ts';
import type { Logger } from '../logger.ts';
import { createJwksVerifier } from './access-tokens.ts';
import type { VerifyAccessToken } from './identity.ts';

export interface HostedAuth {
  verifyAccessToken: VerifyAccessToken;
  publicConfig: () => PublicConfig;
}

export function createHostedVerifier(options: {
  supabaseUrl: string;
  now?: () => Date;
}): VerifyAccessToken {
  const base = options.supabaseUrl.replace(/\/+$/, '');
  const jwks = createRemoteJWKSet(new URL(`${base}/auth/v1/.well-known/jwks.json`), {
    cacheMaxAge: 600_000,
    cooldownDuration: 30_000,
    timeoutDuration: 5_000,
  });
  return createJwksVerifier(jwks, {
    issuer: `${base}/auth/v1`,
    ...(options.now ? { now: options.now } : {}),
  });
}

const settingsSchema = v.looseObject({
  external: v.optional(v.looseObject({ google: v.optional(v.boolean()) })),
});

/**
 * The verifier plus the public config pointing the app at the project. Whether Google is enabled
 * is read once from the project's /settings (a failure is logged and reads as disabled).
 */
export async function createHostedAuth(options: {
  supabaseUrl: string;
  anonKey: string;
  captchaSiteKey: string | null;
  logger: Logger;
  fetch?: typeof fetch;
}): Promise<HostedAuth> {
  const base = options.supabaseUrl.replace(/\/+$/, '');
  let googleEnabled = false;
  try {
    const response = await (options.fetch ?? fetch)(`${base}/auth/v1/settings`, {
      headers: { apikey: options.anonKey },
      signal: AbortSignal.timeout(5_000),
    });
    const settings = v.parse(settingsSchema, await response.json());
    googleEnabled = settings.external?.google ?? false;
  } catch (error) {
    options.logger.warn({ err: error }, 'hosted auth settings unavailable; Google sign-in hidden');
  }
  return {
    verifyAccessToken: createHostedVerifier({ supabaseUrl: base }),
    publicConfig: () => ({
      supabaseUrl: base,
      supabaseAnonKey: options.anonKey,
      googleEnabled,
      captchaSiteKey: options.captchaSiteKey,
    }),
  };
}
