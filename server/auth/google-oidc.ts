/**
 * Google sign-in as an OpenID Connect client (openid-client): authorization code flow with our
 * own PKCE and nonce towards the provider. The issuer comes from configuration (GOOGLE_ISSUER),
 * so any OIDC provider can stand in; discovery runs on first use and is retried after a failure.
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import * as client from 'openid-client';
import * as v from 'valibot';
import type { GoogleConfig } from './auth-config.ts';

export interface GoogleProfile {
  sub: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  picture: string | null;
  /** The provider's claims as GoTrue keeps them in identity_data. */
  identityData: Record<string, unknown>;
}

export interface GoogleStart {
  url: URL;
  codeVerifier: string;
  nonce: string;
}

export interface GoogleClient {
  /** The provider's authorization URL for a new round trip whose `state` is given. */
  start(input: {
    state: string;
    scopes?: string;
    extra: Record<string, string>;
  }): Promise<GoogleStart>;
  /** Exchanges the provider's answer (the full callback URL) for the user's profile. */
  finish(
    callbackUrl: URL,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<GoogleProfile>;
  /**
   * An ID token the app got from the provider itself (native or One Tap sign-in): signature
   * against the issuer's JWKS, issuer and expiry. Audience and nonce are the caller's to check
   * (GoTrue's messages differ per failure). Throws IdTokenError.
   */
  verifyIdToken(idToken: string): Promise<VerifiedIdToken>;
  /** The configured issuer (GoTrue names it in "Provider (issuer …) is not enabled"). */
  readonly issuer: string;
  readonly clientId: string;
}

export interface VerifiedIdToken {
  profile: GoogleProfile;
  audience: string[];
  nonce: string | null;
  /** The at_hash claim: the access token issued with this ID token, when there was one. */
  atHash: string | null;
}

export class IdTokenError extends Error {}

const claimsSchema = v.looseObject({
  sub: v.pipe(v.string(), v.minLength(1)),
  email: v.optional(v.string()),
  email_verified: v.optional(v.union([v.boolean(), v.string()])),
  name: v.optional(v.string()),
  picture: v.optional(v.string()),
});

/** Parameters a client may pass on to Google (auth-js queryParams); the OAuth core ones are ours. */
const FORWARDED = new Set(['access_type', 'prompt', 'login_hint', 'hd', 'include_granted_scopes']);

export function createGoogleClient(
  config: GoogleConfig,
  options: { callbackUrl: string },
): GoogleClient {
  let discovered: Promise<client.Configuration> | null = null;
  let keySet: ReturnType<typeof createRemoteJWKSet> | null = null;
  const configuration = () => {
    discovered ??= client
      .discovery(
        new URL(config.issuer),
        config.clientId,
        undefined,
        client.ClientSecretPost(config.clientSecret),
        // Plain http is only ever a local stand-in issuer (tests, development).
        config.issuer.startsWith('http:') ? { execute: [client.allowInsecureRequests] } : {},
      )
      .catch((error: unknown) => {
        discovered = null;
        throw error;
      });
    return discovered;
  };

  return {
    async start({ state, scopes, extra }) {
      const oidc = await configuration();
      const codeVerifier = client.randomPKCECodeVerifier();
      const nonce = client.randomNonce();
      const requested = new Set(['openid', 'email', 'profile', ...(scopes ?? '').split(/[\s,]+/)]);
      requested.delete('');
      const parameters: Record<string, string> = {
        redirect_uri: options.callbackUrl,
        scope: [...requested].join(' '),
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      };
      for (const [key, value] of Object.entries(extra))
        if (FORWARDED.has(key)) parameters[key] = value;
      return { url: client.buildAuthorizationUrl(oidc, parameters), codeVerifier, nonce };
    },

    async finish(callbackUrl, checks) {
      const oidc = await configuration();
      const tokens = await client.authorizationCodeGrant(oidc, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('the provider returned no ID token');
      // Providers put profile claims in the ID token (Google) or only in userinfo (others).
      const userInfo = await client.fetchUserInfo(oidc, tokens.access_token, idClaims.sub);
      return profileFromClaims(v.parse(claimsSchema, { ...idClaims, ...userInfo }), idClaims.iss);
    },

    async verifyIdToken(idToken) {
      const oidc = await configuration();
      const jwksUri = oidc.serverMetadata().jwks_uri;
      if (!jwksUri) throw new Error('the provider publishes no jwks_uri');
      keySet ??= createRemoteJWKSet(new URL(jwksUri));
      // go-oidc, which GoTrue uses, also takes Google's scheme-less issuer.
      const issuers =
        config.issuer === 'https://accounts.google.com'
          ? [config.issuer, 'accounts.google.com']
          : [config.issuer];
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(idToken, keySet, {
          issuer: issuers,
          algorithms: ['RS256', 'ES256'],
          requiredClaims: ['exp', 'iat'],
        }));
      } catch (error) {
        if (error instanceof errors.JOSEError || error instanceof TypeError) {
          throw new IdTokenError(error.message);
        }
        throw error;
      }
      const parsed = v.safeParse(claimsSchema, payload);
      if (!parsed.success) throw new IdTokenError('Missing sub claim in id_token');
      const audience = Array.isArray(payload.aud) ? payload.aud : payload.aud ? [payload.aud] : [];
      return {
        profile: profileFromClaims(parsed.output, String(payload.iss)),
        audience,
        nonce: typeof payload.nonce === 'string' && payload.nonce !== '' ? payload.nonce : null,
        atHash: typeof payload.at_hash === 'string' ? payload.at_hash : null,
      };
    },

    issuer: config.issuer,
    clientId: config.clientId,
  };
}

function profileFromClaims(claims: v.InferOutput<typeof claimsSchema>, iss: string): GoogleProfile {
  const emailVerified = claims.email_verified === true || claims.email_verified === 'true';
  const name = claims.name ?? null;
  const picture = claims.picture ?? null;
  return {
    sub: claims.sub,
    email: claims.email ? claims.email.toLowerCase() : null,
    emailVerified,
    name,
    picture,
    identityData: {
      iss,
      sub: claims.sub,
      provider_id: claims.sub,
      ...(claims.email ? { email: claims.email.toLowerCase() } : {}),
      email_verified: emailVerified,
      phone_verified: false,
      ...(name ? { name, full_name: name } : {}),
      ...(picture ? { picture, avatar_url: picture } : {}),
    },
  };
}
