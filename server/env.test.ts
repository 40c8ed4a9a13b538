import { describe, expect, it } from 'vitest';
import { EnvError, paidPlanIds, parseEnv, stripePriceVariable } from './env.ts';

describe('parseEnv', () => {
  it('gives the embedded defaults', () => {
    expect(parseEnv({})).toMatchObject({
      port: 8080,
      dataDir: './data',
      databaseUrl: undefined,
      publicUrl: 'http://localhost:8080',
      logLevel: 'info',
    });
  });

  it('keeps files on local disk with a 250 MiB upload maximum unless Azure is configured', () => {
    expect(parseEnv({}).files).toEqual({ maxFileBytes: 250 * 1024 * 1024, azure: null });
    const azure =
      'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=a2V5;EndpointSuffix=core.windows.net';
    expect(
      parseEnv({ AZURE_STORAGE_CONNECTION_STRING: azure, FILE_MAX_BYTES: '1048576' }).files,
    ).toEqual({
      maxFileBytes: 1048576,
      azure: { connectionString: azure, container: 'satchel-files' },
    });
    expect(() =>
      parseEnv({ AZURE_STORAGE_CONNECTION_STRING: 'UseDevelopmentStorage=true' }),
    ).toThrow(
      /AZURE_STORAGE_CONNECTION_STRING: must be a connection string with AccountName and AccountKey/,
    );
    expect(() => parseEnv({ AZURE_STORAGE_CONTAINER: 'Bad_Name' })).toThrow(
      /AZURE_STORAGE_CONTAINER: must be an Azure container name/,
    );
    expect(() => parseEnv({ FILE_MAX_BYTES: '0' })).toThrow(/FILE_MAX_BYTES: must be at least 1/);
  });

  it('treats empty values as unset and trims a trailing slash from PUBLIC_URL', () => {
    expect(parseEnv({ PORT: '', PUBLIC_URL: 'https://app.example.com/' })).toMatchObject({
      port: 8080,
      publicUrl: 'https://app.example.com',
    });
  });

  it('fails fast naming each bad variable', () => {
    const attempt = () =>
      parseEnv({
        PORT: '80a',
        DATABASE_URL: 'mysql://x',
        LOG_LEVEL: 'loud',
        PUBLIC_URL: 'ftp://x',
      });
    expect(attempt).toThrow(EnvError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'PUBLIC_URL'])
        expect(message).toContain(name);
    }
  });

  it('reads TRUST_PROXY as a hop count, off by default', () => {
    expect(parseEnv({}).trustProxyHops).toBe(0);
    expect(parseEnv({ TRUST_PROXY: '1' }).trustProxyHops).toBe(1);
    expect(parseEnv({ TRUST_PROXY: 'false' }).trustProxyHops).toBe(0);
    // "Trust everything" would let any client choose its own rate-limit key.
    expect(() => parseEnv({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: must be the number/);
    expect(() => parseEnv({ TRUST_PROXY: '11' })).toThrow(/TRUST_PROXY/);
  });

  it('rejects a port out of range', () => {
    expect(() => parseEnv({ PORT: '70000' })).toThrow(/PORT: must be 0-65535/);
  });

  it('gives the accounts defaults: embedded service, confirmation on, no SMTP, Google or captcha', () => {
    const env = parseEnv({});
    expect(env.auth).toEqual({
      autoconfirm: false,
      smtpUrl: undefined,
      captcha: null,
      google: null,
      mfaIssuer: 'Satchel',
      jwtExpirySeconds: 3600,
      additionalRedirectUrls: [],
      adminJwtKeys: [],
      limits: {
        signInSignUpsPerIp: 30,
        tokenRefreshPerIp: 150,
        verifyPerIp: 30,
        mailRequestsPerIp: 30,
        mfaVerifyPerIp: 30,
        signInPerAccount: 10,
        verifyPerAccount: 10,
        mfaVerifyPerAccount: 10,
        mailFrequencyMs: 60_000,
        smsFrequencyMs: 60_000,
      },
      passwordPolicy: { minLength: 8, requiredCharacters: [] },
      manualLinking: true,
    });
    expect(env.hosted).toBeNull();
  });

  it('reads AUTH_ADMIN_JWT_KEYS as a JWK array or a JWKS, and refuses anything else', () => {
    const jwk = { kty: 'RSA', n: 'abc', e: 'AQAB', kid: 'k1' };
    expect(parseEnv({ AUTH_ADMIN_JWT_KEYS: JSON.stringify([jwk]) }).auth.adminJwtKeys).toEqual([
      jwk,
    ]);
    expect(
      parseEnv({ AUTH_ADMIN_JWT_KEYS: JSON.stringify({ keys: [jwk] }) }).auth.adminJwtKeys,
    ).toEqual([jwk]);
    for (const bad of ['not json', '[]', '[{"n":"x"}]', '{"kty":"RSA"}']) {
      expect(() => parseEnv({ AUTH_ADMIN_JWT_KEYS: bad })).toThrow(/AUTH_ADMIN_JWT_KEYS: must be/);
    }
  });

  it("reads limits and the password policy under GoTrue's names", () => {
    const env = parseEnv({
      GOTRUE_RATE_LIMIT_TOKEN_REFRESH: '300',
      GOTRUE_RATE_LIMIT_VERIFY: '100',
      GOTRUE_RATE_LIMIT_OTP: '40',
      GOTRUE_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY: '20',
      AUTH_RATE_LIMIT_SIGN_IN_PER_ACCOUNT: '5',
      GOTRUE_SMTP_MAX_FREQUENCY: '1s',
      GOTRUE_SMS_MAX_FREQUENCY: '1m30s',
      GOTRUE_PASSWORD_MIN_LENGTH: '12',
      GOTRUE_PASSWORD_REQUIRED_CHARACTERS: 'abcdefghijklmnopqrstuvwxyz:0123456789:!\\:',
      GOTRUE_SECURITY_MANUAL_LINKING_ENABLED: 'false',
    });
    expect(env.auth.limits).toMatchObject({
      tokenRefreshPerIp: 300,
      verifyPerIp: 100,
      mailRequestsPerIp: 40,
      mfaVerifyPerIp: 20,
      signInPerAccount: 5,
      mailFrequencyMs: 1000,
      smsFrequencyMs: 90_000,
    });
    expect(env.auth.passwordPolicy).toEqual({
      minLength: 12,
      requiredCharacters: ['abcdefghijklmnopqrstuvwxyz', '0123456789', '!:'],
    });
    expect(env.auth.manualLinking).toBe(false);
    expect(() => parseEnv({ GOTRUE_PASSWORD_MIN_LENGTH: '4' })).toThrow(
      /GOTRUE_PASSWORD_MIN_LENGTH: must be at least 6/,
    );
    expect(() => parseEnv({ GOTRUE_SMTP_MAX_FREQUENCY: '60' })).toThrow(
      /GOTRUE_SMTP_MAX_FREQUENCY: must be a duration/,
    );
    expect(() => parseEnv({ GOTRUE_RATE_LIMIT_VERIFY: 'many' })).toThrow(
      /GOTRUE_RATE_LIMIT_VERIFY/,
    );
  });

  it('reads the accounts settings', () => {
    const env = parseEnv({
      AUTH_AUTOCONFIRM: 'true',
      SMTP_URL: 'smtps://user:pass@smtp.example.com:465',
      CAPTCHA_SECRET: 's3cret',
      CAPTCHA_SITE_KEY: 'site',
      GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'g-secret',
      MFA_ISSUER: 'Acme',
      JWT_EXPIRY: '900',
      ADDITIONAL_REDIRECT_URLS: 'http://localhost:5173, https://app.example.com/portal',
      SUPABASE_URL: 'https://abc.supabase.co/',
      SUPABASE_ANON_KEY: 'anon',
    });
    expect(env.auth).toEqual({
      autoconfirm: true,
      smtpUrl: 'smtps://user:pass@smtp.example.com:465',
      captcha: {
        secret: 's3cret',
        siteKey: 'site',
        verifyUrl: 'https://api.hcaptcha.com/siteverify',
      },
      google: {
        issuer: 'https://accounts.google.com',
        clientId: 'id.apps.googleusercontent.com',
        clientSecret: 'g-secret',
      },
      mfaIssuer: 'Acme',
      jwtExpirySeconds: 900,
      additionalRedirectUrls: ['http://localhost:5173', 'https://app.example.com/portal'],
      adminJwtKeys: [],
      limits: {
        signInSignUpsPerIp: 30,
        tokenRefreshPerIp: 150,
        verifyPerIp: 30,
        mailRequestsPerIp: 30,
        mfaVerifyPerIp: 30,
        signInPerAccount: 10,
        verifyPerAccount: 10,
        mfaVerifyPerAccount: 10,
        mailFrequencyMs: 60_000,
        smsFrequencyMs: 60_000,
      },
      passwordPolicy: { minLength: 8, requiredCharacters: [] },
      manualLinking: true,
    });
    expect(env.hosted).toEqual({ supabaseUrl: 'https://abc.supabase.co', anonKey: 'anon' });
  });

  it('refuses half-configured pairs and bad accounts values', () => {
    expect(() => parseEnv({ GOOGLE_CLIENT_ID: 'id' })).toThrow(
      /GOOGLE_CLIENT_SECRET: must be set together/,
    );
    expect(() => parseEnv({ SUPABASE_ANON_KEY: 'k' })).toThrow(
      /SUPABASE_URL: must be set together/,
    );
    expect(() => parseEnv({ CAPTCHA_SECRET: 's' })).toThrow(/CAPTCHA_SITE_KEY/);
    expect(() => parseEnv({ AUTH_AUTOCONFIRM: 'yes' })).toThrow(/AUTH_AUTOCONFIRM/);
    expect(() => parseEnv({ JWT_EXPIRY: '60' })).toThrow(/JWT_EXPIRY: must be at least 300/);
    expect(() => parseEnv({ GOTRUE_RATE_LIMIT_SIGN_IN_SIGN_UPS: '0' })).toThrow(
      /GOTRUE_RATE_LIMIT_SIGN_IN_SIGN_UPS: must be at least 1/,
    );
    expect(
      parseEnv({ GOTRUE_RATE_LIMIT_SIGN_IN_SIGN_UPS: '500' }).auth.limits.signInSignUpsPerIp,
    ).toBe(500);
    expect(() => parseEnv({ SMTP_URL: 'http://mail' })).toThrow(/SMTP_URL/);
    expect(() => parseEnv({ ADDITIONAL_REDIRECT_URLS: 'ftp://x' })).toThrow(
      /ADDITIONAL_REDIRECT_URLS/,
    );
  });
});

describe('parseEnv: payments (Stripe)', () => {
  const stripe = {
    STRIPE_SECRET_KEY: 'sk_test_abc123',
    STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
  };

  it('has no payments without STRIPE_SECRET_KEY', () => {
    expect(parseEnv({}).stripe).toBeNull();
  });

  it('reads the key, the webhook secret, a price per paid plan and interval, and a fake base', () => {
    expect(
      parseEnv({
        ...stripe,
        STRIPE_PRICE_PRO_MONTH: 'price_pm',
        STRIPE_PRICE_PRO_YEAR: 'price_py',
        STRIPE_PRICE_AGENCY_MONTH: 'price_am',
        STRIPE_PRICE_AGENCY_YEAR: 'price_ay',
        STRIPE_API_BASE: 'http://127.0.0.1:4352',
      }).stripe,
    ).toEqual({
      secretKey: 'sk_test_abc123',
      webhookSecret: 'whsec_abc123',
      prices: [
        { planId: 'pro', interval: 'month', priceId: 'price_pm' },
        { planId: 'pro', interval: 'year', priceId: 'price_py' },
        { planId: 'agency', interval: 'month', priceId: 'price_am' },
        { planId: 'agency', interval: 'year', priceId: 'price_ay' },
      ],
      apiBase: { protocol: 'http', host: '127.0.0.1', port: 4352 },
    });
    // Every paid plan of the contract has its two variables.
    expect(paidPlanIds).toEqual(['pro', 'agency']);
    expect(stripePriceVariable('agency', 'year')).toBe('STRIPE_PRICE_AGENCY_YEAR');
    expect(parseEnv(stripe).stripe).toMatchObject({ prices: [], apiBase: null });
  });

  it('refuses a secret with whitespace, a wrong prefix, or half a setup, with a clear message', () => {
    expect(() => parseEnv({ ...stripe, STRIPE_SECRET_KEY: 'sk_test_abc123\n' })).toThrow(
      /STRIPE_SECRET_KEY: must not contain spaces or line breaks/,
    );
    expect(() => parseEnv({ ...stripe, STRIPE_WEBHOOK_SECRET: 'whsec_abc 123' })).toThrow(
      /STRIPE_WEBHOOK_SECRET: must not contain spaces or line breaks/,
    );
    expect(() => parseEnv({ ...stripe, STRIPE_SECRET_KEY: 'pk_test_abc' })).toThrow(
      /STRIPE_SECRET_KEY: must start with sk_ or rk_/,
    );
    expect(() => parseEnv({ ...stripe, STRIPE_PRICE_PRO_MONTH: 'prod_123' })).toThrow(
      /STRIPE_PRICE_PRO_MONTH: must start with price_/,
    );
    expect(() => parseEnv({ STRIPE_SECRET_KEY: 'sk_test_abc123' })).toThrow(
      /STRIPE_WEBHOOK_SECRET: must be set together with STRIPE_SECRET_KEY/,
    );
    expect(() => parseEnv({ ...stripe, STRIPE_API_BASE: 'ftp://x' })).toThrow(/STRIPE_API_BASE/);
    expect(() =>
      parseEnv({
        ...stripe,
        STRIPE_PRICE_PRO_MONTH: 'price_1',
        STRIPE_PRICE_AGENCY_MONTH: 'price_1',
      }),
    ).toThrow(/STRIPE_PRICE_AGENCY_MONTH: must differ from STRIPE_PRICE_PRO_MONTH/);
  });
});
