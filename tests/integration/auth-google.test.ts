/**
 * Conformance: Google sign-in (protocols.md A7 items 10-11) against a local oidc-provider standing
 * in as GOOGLE_ISSUER on a loopback port. A small cookie-keeping "browser" follows the redirects:
 * our /authorize -> the provider's login and consent pages -> our /callback -> the app.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SupabaseClient } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAuthTestServer,
  fragmentParams,
  SITE_URL,
  TEST_PASSWORD,
  type AuthTestServer,
} from '../fixtures/create-auth-test-server.ts';

let t: AuthTestServer;
let issuerServer: Server;
let issuer = '';

/** Provider accounts: the login name is the account id. */
const accounts: Record<string, { email: string; name: string }> = {
  ada: { email: 'ada.google@example.com', name: 'Ada King Lovelace' },
  grace: { email: 'grace@example.com', name: 'Grace Hopper' },
  linus: { email: 'linus.google@example.com', name: 'Linus' },
  eve: { email: 'eve.google@example.com', name: 'Eve' },
};

beforeAll(async () => {
  issuerServer = createServer();
  await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'satchel-test',
        client_secret: 'satchel-test-secret',
        redirect_uris: [`${SITE_URL}/auth/v1/callback`],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    cookies: { keys: ['test-cookie-key'] },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({
        sub: id,
        email: accounts[id]?.email,
        email_verified: true,
        name: accounts[id]?.name,
        picture: `https://pictures.example/${id}.png`,
      }),
    }),
  });
  issuerServer.on('request', provider.callback());
  t = await createAuthTestServer({
    config: {
      google: { issuer, clientId: 'satchel-test', clientSecret: 'satchel-test-secret' },
    },
  });
});

afterAll(async () => {
  await t.cleanup();
  await new Promise((resolve) => issuerServer.close(resolve));
});

/**
 * Follows redirects like a browser until it leaves /auth/v1 for the app, logging in at the
 * provider as `login` and consenting. Returns the final URL the app would load.
 */
async function browse(start: string, login: string): Promise<string> {
  const cookies = new Map<string, string>();
  let url = start;
  let method = 'GET';
  let body: string | undefined;
  for (let hop = 0; hop < 25; hop += 1) {
    const target = new URL(url);
    let response: Response;
    if (target.origin === SITE_URL) {
      if (!target.pathname.startsWith('/auth/v1/')) return url;
      response = await t.fetch(url, { method, redirect: 'manual' });
    } else {
      response = await fetch(url, {
        method,
        redirect: 'manual',
        headers: {
          cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
          ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(body ? { body } : {}),
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const index = pair.indexOf('=');
        cookies.set(pair.slice(0, index), pair.slice(index + 1));
      }
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url).toString();
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await response.text();
    const action = /action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`stuck at ${url} (${response.status}): ${html.slice(0, 300)}`);
    body = html.includes('name="login"')
      ? new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString()
      : new URLSearchParams({ prompt: 'consent' }).toString();
    url = new URL(action, url).toString();
    method = 'POST';
  }
  throw new Error('too many redirects');
}

async function signInWithGoogle(client: SupabaseClient, login: string, redirectTo: string) {
  const { data, error } = await client.auth.signInWithOAuth({
    provider: 'google',
    options: { redirectTo, skipBrowserRedirect: true },
  });
  if (error) throw error;
  return browse(data.url, login);
}

describe('sign-in with Google', () => {
  it('implicit flow: the session comes back in the fragment; a new account is created', async () => {
    const client = t.createClient();
    const landed = await signInWithGoogle(client, 'ada', `${SITE_URL}/dashboard`);
    expect(landed.startsWith(`${SITE_URL}/dashboard#`)).toBe(true);
    const params = fragmentParams(landed);
    expect(params).toMatchObject({ token_type: 'bearer', expires_in: '3600' });
    const { data, error } = await client.auth.setSession({
      access_token: params.access_token ?? '',
      refresh_token: params.refresh_token ?? '',
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      email: 'ada.google@example.com',
      app_metadata: { provider: 'google', providers: ['google'] },
      user_metadata: {
        full_name: 'Ada King Lovelace',
        avatar_url: 'https://pictures.example/ada.png',
        email_verified: true,
      },
    });
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(data.user?.identities?.map((identity) => identity.provider)).toEqual(['google']);
    // The provider's subject (oidc-provider uses the account id) is the identity's id.
    expect(data.user?.identities?.[0]?.id).toBe('ada');
    const amr = decodeJwt(params.access_token ?? '').amr as { method: string; provider?: string }[];
    expect(amr[0]).toMatchObject({ method: 'oauth', provider: 'google' });
  });

  it('PKCE flow: ?code= comes back, the exchange signs in the same account again', async () => {
    const client = t.createClient({ flowType: 'pkce' });
    const { data } = await client.auth.signInWithOAuth({
      provider: 'google',
      options: { redirectTo: `${SITE_URL}/dashboard`, skipBrowserRedirect: true },
    });
    const startUrl = data.url ?? '';
    const start = new URL(startUrl);
    expect(start.searchParams.get('code_challenge_method')).toBe('s256');
    const authorize = await t.fetch(startUrl, { redirect: 'manual' });
    expect(authorize.status).toBe(302);
    const atProvider = new URL(authorize.headers.get('location') ?? '');
    expect(atProvider.origin).toBe(issuer);
    expect(atProvider.searchParams.get('redirect_uri')).toBe(`${SITE_URL}/auth/v1/callback`);
    expect(atProvider.searchParams.get('state')).toBeTruthy();

    const landed = new URL(await browse(startUrl, 'ada'));
    const code = landed.searchParams.get('code') ?? '';
    expect(code).not.toBe('');
    const exchanged = await client.auth.exchangeCodeForSession(code);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe('ada.google@example.com');
    expect(exchanged.data.user?.identities).toHaveLength(1);
  });

  it('links automatically to the account with the same provider-verified address', async () => {
    const userId = await t.registerUser('grace@example.com');
    const client = t.createClient();
    const params = fragmentParams(await signInWithGoogle(client, 'grace', SITE_URL));
    const { data } = await client.auth.setSession({
      access_token: params.access_token ?? '',
      refresh_token: params.refresh_token ?? '',
    });
    expect(data.user?.id).toBe(userId);
    expect(data.user?.app_metadata.providers).toEqual(['email', 'google']);
    expect(data.user?.identities?.map((identity) => identity.provider).sort()).toEqual([
      'email',
      'google',
    ]);
  });

  it('refuses unknown providers and a forged state', async () => {
    const unknown = await t.fetch(`${SITE_URL}/auth/v1/authorize?provider=github`, {
      redirect: 'manual',
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ code: 'validation_failed' });
    const forged = await t.fetch(
      `${SITE_URL}/auth/v1/callback?code=x&state=00000000-0000-4000-8000-000000000000`,
      { redirect: 'manual' },
    );
    expect(forged.status).toBe(303);
    expect(fragmentParams(forged.headers.get('location') ?? '').error_code).toBe('bad_oauth_state');
    const settings = await t.fetch(`${SITE_URL}/auth/v1/settings`, {
      headers: { apikey: t.anonKey },
    });
    expect(await settings.json()).toMatchObject({ external: { google: true } });
  });
});

describe('identity linking', () => {
  it('links Google to a signed-in account, unlinks it, and keeps the last identity', async () => {
    await t.registerUser('linker@example.com');
    const client = t.createClient();
    await client.auth.signInWithPassword({ email: 'linker@example.com', password: TEST_PASSWORD });
    const { data, error } = await client.auth.linkIdentity({
      provider: 'google',
      options: { redirectTo: `${SITE_URL}/settings/security`, skipBrowserRedirect: true },
    });
    expect(error).toBeNull();
    expect(new URL(data.url ?? '').origin).toBe(issuer);
    const landed = await browse(data.url ?? '', 'linus');
    const params = fragmentParams(landed);
    expect(params.access_token).toBeTruthy();
    await client.auth.setSession({
      access_token: params.access_token ?? '',
      refresh_token: params.refresh_token ?? '',
    });
    const identities = (await client.auth.getUserIdentities()).data?.identities ?? [];
    expect(identities.map((identity) => identity.provider).sort()).toEqual(['email', 'google']);
    const { data: me } = await client.auth.getUser();
    expect(me.user?.email).toBe('linker@example.com');
    expect(me.user?.app_metadata.providers).toEqual(['email', 'google']);

    const google = identities.find((identity) => identity.provider === 'google');
    const email = identities.find((identity) => identity.provider === 'email');
    if (!google || !email) throw new Error('identities missing');
    expect((await client.auth.unlinkIdentity(google)).error).toBeNull();
    const last = await client.auth.unlinkIdentity(email);
    expect(last.error).toMatchObject({ status: 422, code: 'single_identity_not_deletable' });
    const after = await client.auth.getUser();
    expect(after.data.user?.app_metadata.providers).toEqual(['email']);
  });

  it('refuses to link an identity that belongs to another account', async () => {
    // eve signs in with Google first: her identity belongs to her own new account.
    await signInWithGoogle(t.createClient(), 'eve', SITE_URL);
    await t.registerUser('thief@example.com');
    const client = t.createClient();
    await client.auth.signInWithPassword({ email: 'thief@example.com', password: TEST_PASSWORD });
    const { data } = await client.auth.linkIdentity({
      provider: 'google',
      options: { redirectTo: SITE_URL, skipBrowserRedirect: true },
    });
    const landed = await browse(data.url ?? '', 'eve');
    expect(fragmentParams(landed)).toMatchObject({
      error_code: 'identity_already_exists',
      error_description: 'Identity is already linked to another user',
    });
  });
});
