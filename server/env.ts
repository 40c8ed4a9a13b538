/**
 * The only reader of process.env. Parsed once at start with valibot; a bad value stops the
 * process with a message naming the variable, before anything listens or opens the database.
 */
import * as v from 'valibot';
import { DEFAULT_FILE_MAX_BYTES } from '#contract/entities/file.ts';
import {
  billingIntervals,
  plans,
  type BillingInterval,
  type PlanId,
} from '#contract/entities/plan.ts';
import { parseGoDurationMs, type AuthLimitSettings } from './auth/auth-config.ts';
import { parseRequiredCharacters, type PasswordPolicy } from './auth/password-policy.ts';

const portSchema = v.pipe(
  v.string(),
  v.regex(/^\d+$/, 'must be a whole number'),
  v.transform(Number),
  v.minValue(0, 'must be 0-65535'),
  v.maxValue(65535, 'must be 0-65535'),
);

const urlSchema = (protocols: string[]) =>
  v.pipe(
    v.string(),
    v.url('must be a URL'),
    v.check(
      (value) => protocols.includes(new URL(value).protocol),
      `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    ),
  );

const booleanSchema = v.pipe(
  v.string(),
  v.picklist(['true', 'false', '1', '0'], 'must be true or false'),
  v.transform((value) => value === 'true' || value === '1'),
);

const countSchema = v.pipe(
  v.string(),
  v.regex(/^\d+$/, 'must be a whole number'),
  v.transform(Number),
  v.minValue(1, 'must be at least 1'),
  v.maxValue(100_000, 'must be at most 100000'),
);

const frequencySchema = v.pipe(
  v.string(),
  v.transform((value) => parseGoDurationMs(value)),
  v.check(
    (ms): ms is number => ms !== null && ms >= 1000 && ms <= 86_400_000,
    'must be a duration from 1s to 24h, e.g. 60s or 1m',
  ),
  v.transform((ms) => ms as number),
);

/**
 * A Stripe credential as pasted: its prefix, then no whitespace. A key copied with a trailing
 * newline or space fails every call (and every webhook signature) much later and obscurely.
 */
const stripeSecretSchema = (prefixes: string[]) =>
  v.pipe(
    v.string(),
    v.check((value) => !/\s/.test(value), 'must not contain spaces or line breaks (copy it again)'),
    v.check(
      (value) => prefixes.some((prefix) => value.startsWith(prefix)),
      `must start with ${prefixes.join(' or ')}`,
    ),
  );

/** The paid plans of the contract, each sold monthly and yearly through its own Stripe price. */
export const paidPlanIds = plans.filter((plan) => plan.prices.month > 0).map((plan) => plan.id);

/** STRIPE_PRICE_<PLAN>_<INTERVAL>, e.g. STRIPE_PRICE_PRO_MONTH. */
export function stripePriceVariable(planId: PlanId, interval: BillingInterval): string {
  return `STRIPE_PRICE_${planId.toUpperCase()}_${interval.toUpperCase()}`;
}

const stripePriceEntries = Object.fromEntries(
  paidPlanIds.flatMap((planId) =>
    billingIntervals.map((interval) => [
      stripePriceVariable(planId, interval),
      v.optional(stripeSecretSchema(['price_'])),
    ]),
  ),
) as Record<string, v.OptionalSchema<ReturnType<typeof stripeSecretSchema>, undefined>>;

const envSchema = v.object({
  PORT: v.optional(portSchema, '8080'),
  HOST: v.optional(v.pipe(v.string(), v.minLength(1)), '0.0.0.0'),
  DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1)), './data'),
  STATIC_DIR: v.optional(v.pipe(v.string(), v.minLength(1))),
  DATABASE_URL: v.optional(urlSchema(['postgres:', 'postgresql:'])),
  PUBLIC_URL: v.optional(
    v.pipe(
      urlSchema(['http:', 'https:']),
      v.transform((u) => u.replace(/\/+$/, '')),
    ),
  ),
  CONTACT_EMAIL: v.optional(
    v.pipe(v.string(), v.email('must be an email address')),
    'hello@satchel.local',
  ),
  MAIL_FROM: v.optional(v.pipe(v.string(), v.minLength(3)), 'Satchel <no-reply@satchel.local>'),
  // How many reverse proxies in front append to X-Forwarded-For; off unless set, because the
  // header is otherwise whatever the client wrote. `false` reads as 0; `true` is refused, since
  // "trust everything" would let any client pick its own rate-limit key.
  TRUST_PROXY: v.optional(
    v.pipe(
      v.string(),
      v.transform((value) => (value === 'false' ? '0' : value)),
      v.regex(/^\d{1,2}$/, 'must be the number of proxies in front (0-10), e.g. 1'),
      v.transform(Number),
      v.maxValue(10, 'must be the number of proxies in front (0-10), e.g. 1'),
    ),
    '0',
  ),
  LOG_LEVEL: v.optional(
    v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    'info',
  ),
  // --- Accounts: the embedded auth service (/auth/v1) or a hosted Supabase project ---
  AUTH_AUTOCONFIRM: v.optional(booleanSchema, 'false'),
  SMTP_URL: v.optional(urlSchema(['smtp:', 'smtps:'])),
  CAPTCHA_SECRET: v.optional(v.pipe(v.string(), v.minLength(1))),
  CAPTCHA_SITE_KEY: v.optional(v.pipe(v.string(), v.minLength(1))),
  CAPTCHA_VERIFY_URL: v.optional(
    urlSchema(['http:', 'https:']),
    'https://api.hcaptcha.com/siteverify',
  ),
  GOOGLE_ISSUER: v.optional(urlSchema(['http:', 'https:']), 'https://accounts.google.com'),
  GOOGLE_CLIENT_ID: v.optional(v.pipe(v.string(), v.minLength(1))),
  GOOGLE_CLIENT_SECRET: v.optional(v.pipe(v.string(), v.minLength(1))),
  // GoTrue's name and default: password sign-ins and sign-ups per address per 5 minutes.
  GOTRUE_RATE_LIMIT_SIGN_IN_SIGN_UPS: v.optional(countSchema, '30'),
  // Further limits per client address per 5 minutes (GoTrue's names), per account (ours), and
  // the least time between two mails / SMS codes to one address (Go durations, as GoTrue).
  GOTRUE_RATE_LIMIT_TOKEN_REFRESH: v.optional(countSchema, '150'),
  GOTRUE_RATE_LIMIT_VERIFY: v.optional(countSchema, '30'),
  GOTRUE_RATE_LIMIT_OTP: v.optional(countSchema, '30'),
  GOTRUE_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY: v.optional(countSchema, '30'),
  AUTH_RATE_LIMIT_SIGN_IN_PER_ACCOUNT: v.optional(countSchema, '10'),
  AUTH_RATE_LIMIT_VERIFY_PER_ACCOUNT: v.optional(countSchema, '10'),
  AUTH_RATE_LIMIT_MFA_VERIFY_PER_ACCOUNT: v.optional(countSchema, '10'),
  GOTRUE_SMTP_MAX_FREQUENCY: v.optional(frequencySchema, '1m'),
  GOTRUE_SMS_MAX_FREQUENCY: v.optional(frequencySchema, '1m'),
  // Password policy (GoTrue's names): minimum length, and character sets separated by `:`.
  GOTRUE_PASSWORD_MIN_LENGTH: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a whole number'),
      v.transform(Number),
      v.minValue(6, "must be at least 6 (GoTrue's floor)"),
      v.maxValue(1024, 'must be at most 1024'),
    ),
    '8',
  ),
  GOTRUE_PASSWORD_REQUIRED_CHARACTERS: v.optional(v.string(), ''),
  GOTRUE_SECURITY_MANUAL_LINKING_ENABLED: v.optional(booleanSchema, 'true'),
  // Public JWKs (a JSON array or {"keys": [...]}) whose admin-role tokens the admin API accepts.
  AUTH_ADMIN_JWT_KEYS: v.optional(
    v.pipe(
      v.string(),
      v.rawTransform(({ dataset, addIssue, NEVER }) => {
        try {
          const parsed: unknown = JSON.parse(dataset.value);
          const list = Array.isArray(parsed) ? parsed : (parsed as { keys?: unknown })?.keys;
          if (
            Array.isArray(list) &&
            list.length > 0 &&
            list.every((k) => typeof k === 'object' && k !== null && 'kty' in k)
          ) {
            return list as Record<string, unknown>[];
          }
        } catch {
          // reported below
        }
        addIssue({ message: 'must be a JSON array of JWKs or a JWKS ({"keys": [...]})' });
        return NEVER;
      }),
    ),
  ),
  MFA_ISSUER: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(100)), 'Satchel'),
  JWT_EXPIRY: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a whole number of seconds'),
      v.transform(Number),
      // auth-js refreshes 90 s before expiry: shorter lifetimes would refresh on every call.
      v.minValue(300, 'must be at least 300 seconds'),
      v.maxValue(604_800, 'must be at most 604800 seconds (7 days)'),
    ),
    '3600',
  ),
  ADDITIONAL_REDIRECT_URLS: v.optional(
    v.pipe(
      v.string(),
      v.transform((list) =>
        list
          .split(',')
          .map((entry) => entry.trim())
          .filter((entry) => entry !== ''),
      ),
      v.check(
        (urls) => urls.every((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol)),
        'must be a comma-separated list of http(s) URLs',
      ),
    ),
  ),
  SUPABASE_URL: v.optional(
    v.pipe(
      urlSchema(['http:', 'https:']),
      v.transform((u) => u.replace(/\/+$/, '')),
    ),
  ),
  SUPABASE_ANON_KEY: v.optional(v.pipe(v.string(), v.minLength(1))),
  // --- Files ---
  // The largest single upload, in bytes (default 250 MiB); the plan's storage limits the total.
  FILE_MAX_BYTES: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a whole number of bytes'),
      v.transform(Number),
      v.minValue(1, 'must be at least 1'),
      v.maxValue(1024 ** 4, 'must be at most 1 TiB'),
    ),
    String(DEFAULT_FILE_MAX_BYTES),
  ),
  // Azure Blob Storage instead of DATA_DIR/files (a connection string with AccountName and
  // AccountKey: download links are service SAS signed with that key).
  AZURE_STORAGE_CONNECTION_STRING: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (value) => /AccountName=[^;]+/.test(value) && /AccountKey=[^;]+/.test(value),
        'must be a connection string with AccountName and AccountKey',
      ),
    ),
  ),
  AZURE_STORAGE_CONTAINER: v.optional(
    v.pipe(
      v.string(),
      v.regex(
        /^(?!.*--)[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/,
        "must be an Azure container name (3-63 lower-case letters, digits and single '-')",
      ),
    ),
    'satchel-files',
  ),
  // --- Payments (Stripe): unset, every workspace stays on Free and Billing says so ---
  STRIPE_SECRET_KEY: v.optional(stripeSecretSchema(['sk_', 'rk_'])),
  STRIPE_WEBHOOK_SECRET: v.optional(stripeSecretSchema(['whsec_'])),
  // Where the Stripe library sends its calls; only for tests' local fake (Stripe's own by default).
  STRIPE_API_BASE: v.optional(urlSchema(['http:', 'https:'])),
  ...stripePriceEntries,
  // --- Real-time hub ---
  REDIS_URL: v.optional(urlSchema(['redis:', 'rediss:'])),
  REDIS_PREFIX: v.optional(
    v.pipe(v.string(), v.regex(/^[\w:.-]{1,64}$/, 'must be 1-64 letters, digits, _ : . or -')),
    'satchel:',
  ),
  HUB_ALLOWED_ORIGINS: v.optional(
    v.pipe(
      v.string(),
      v.transform((list) =>
        list
          .split(',')
          .map((entry) => entry.trim())
          .filter((entry) => entry !== ''),
      ),
      v.check(
        (origins) => origins.every((o) => URL.canParse(o) && /^https?:$/.test(new URL(o).protocol)),
        'must be a comma-separated list of http(s) origins',
      ),
    ),
  ),
});

export interface Env {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** The built PWA to serve; undefined means `dist/` of this checkout. */
  staticDir: string | undefined;
  /** Origin the app is reached at; defaults to http://localhost:<port>. */
  publicUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** TRUST_PROXY: proxies in front whose X-Forwarded-For entries are believed (0: none). */
  trustProxyHops: number;
  /** Where contact-form messages are mailed. */
  contactEmail: string;
  mailFrom: string;
  /** Accounts: the embedded auth service's settings (unused in hosted mode). */
  auth: {
    /** AUTH_AUTOCONFIRM: sign-ups are confirmed without a mail round trip. */
    autoconfirm: boolean;
    /** SMTP_URL: send mail through this server; unset writes `.eml` files to the outbox. */
    smtpUrl: string | undefined;
    captcha: { secret: string; siteKey: string; verifyUrl: string } | null;
    google: { issuer: string; clientId: string; clientSecret: string } | null;
    mfaIssuer: string;
    jwtExpirySeconds: number;
    /** Redirect targets allowed besides PUBLIC_URL's origin (links in mail, OAuth returns). */
    additionalRedirectUrls: string[];
    /** AUTH_ADMIN_JWT_KEYS: operator-held public keys trusted for admin-role tokens. */
    adminJwtKeys: Record<string, unknown>[];
    /** The GOTRUE_RATE_LIMIT_* / AUTH_RATE_LIMIT_* / *_MAX_FREQUENCY settings. */
    limits: AuthLimitSettings;
    /** GOTRUE_PASSWORD_MIN_LENGTH, GOTRUE_PASSWORD_REQUIRED_CHARACTERS. */
    passwordPolicy: PasswordPolicy;
    /** GOTRUE_SECURITY_MANUAL_LINKING_ENABLED */
    manualLinking: boolean;
  };
  /** SUPABASE_URL + SUPABASE_ANON_KEY: a hosted project replaces the embedded service. */
  hosted: { supabaseUrl: string; anonKey: string } | null;
  /** Project files. */
  files: {
    /** FILE_MAX_BYTES: the largest single upload. */
    maxFileBytes: number;
    /** AZURE_STORAGE_*: Azure Blob Storage; null keeps bytes under DATA_DIR/files. */
    azure: { connectionString: string; container: string } | null;
  };
  /**
   * STRIPE_*: payments; null without STRIPE_SECRET_KEY (every workspace on Free, Billing says
   * payments are not configured).
   */
  stripe: {
    secretKey: string;
    webhookSecret: string;
    /** The Stripe price of each paid plan and interval that is on sale (STRIPE_PRICE_*). */
    prices: { planId: PlanId; interval: BillingInterval; priceId: string }[];
    /** STRIPE_API_BASE: a local fake's address; null talks to Stripe. */
    apiBase: { protocol: 'http' | 'https'; host: string; port: number } | null;
  } | null;
  /** The notification hub. */
  realtime: {
    /** REDIS_URL + REDIS_PREFIX: groups and sends span processes; null keeps them in-process. */
    redis: { url: string; prefix: string } | null;
    /** HUB_ALLOWED_ORIGINS: pages besides PUBLIC_URL that may open the hub (dev server). */
    allowedOrigins: string[];
  };
}

export class EnvError extends Error {}

/** Parses an environment; empty strings count as unset so `FOO= npm start` means the default. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const present = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = v.safeParse(envSchema, present);
  if (!result.success) {
    const lines = result.issues.map((issue) => {
      const key = issue.path?.map((p) => String(p.key)).join('.') ?? '(environment)';
      return `  ${key}: ${issue.message} (got ${JSON.stringify(issue.input)})`;
    });
    throw new EnvError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const out = result.output;
  const problems = [
    pairProblem(out, 'GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'),
    pairProblem(out, 'CAPTCHA_SECRET', 'CAPTCHA_SITE_KEY'),
    pairProblem(out, 'SUPABASE_URL', 'SUPABASE_ANON_KEY'),
    // Without the webhook secret no payment would ever be confirmed: refuse half a setup.
    pairProblem(out, 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'),
    samePriceProblem(out),
  ].filter((problem) => problem !== null);
  if (problems.length > 0) {
    throw new EnvError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  return {
    port: out.PORT,
    host: out.HOST,
    dataDir: out.DATA_DIR,
    databaseUrl: out.DATABASE_URL,
    staticDir: out.STATIC_DIR,
    publicUrl: out.PUBLIC_URL ?? `http://localhost:${out.PORT}`,
    logLevel: out.LOG_LEVEL,
    trustProxyHops: out.TRUST_PROXY,
    contactEmail: out.CONTACT_EMAIL,
    mailFrom: out.MAIL_FROM,
    auth: {
      autoconfirm: out.AUTH_AUTOCONFIRM,
      smtpUrl: out.SMTP_URL,
      captcha:
        out.CAPTCHA_SECRET && out.CAPTCHA_SITE_KEY
          ? {
              secret: out.CAPTCHA_SECRET,
              siteKey: out.CAPTCHA_SITE_KEY,
              verifyUrl: out.CAPTCHA_VERIFY_URL,
            }
          : null,
      google:
        out.GOOGLE_CLIENT_ID && out.GOOGLE_CLIENT_SECRET
          ? {
              issuer: out.GOOGLE_ISSUER,
              clientId: out.GOOGLE_CLIENT_ID,
              clientSecret: out.GOOGLE_CLIENT_SECRET,
            }
          : null,
      mfaIssuer: out.MFA_ISSUER,
      jwtExpirySeconds: out.JWT_EXPIRY,
      additionalRedirectUrls: out.ADDITIONAL_REDIRECT_URLS ?? [],
      adminJwtKeys: out.AUTH_ADMIN_JWT_KEYS ?? [],
      limits: {
        signInSignUpsPerIp: out.GOTRUE_RATE_LIMIT_SIGN_IN_SIGN_UPS,
        tokenRefreshPerIp: out.GOTRUE_RATE_LIMIT_TOKEN_REFRESH,
        verifyPerIp: out.GOTRUE_RATE_LIMIT_VERIFY,
        mailRequestsPerIp: out.GOTRUE_RATE_LIMIT_OTP,
        mfaVerifyPerIp: out.GOTRUE_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY,
        signInPerAccount: out.AUTH_RATE_LIMIT_SIGN_IN_PER_ACCOUNT,
        verifyPerAccount: out.AUTH_RATE_LIMIT_VERIFY_PER_ACCOUNT,
        mfaVerifyPerAccount: out.AUTH_RATE_LIMIT_MFA_VERIFY_PER_ACCOUNT,
        mailFrequencyMs: out.GOTRUE_SMTP_MAX_FREQUENCY,
        smsFrequencyMs: out.GOTRUE_SMS_MAX_FREQUENCY,
      },
      passwordPolicy: {
        minLength: out.GOTRUE_PASSWORD_MIN_LENGTH,
        requiredCharacters: parseRequiredCharacters(out.GOTRUE_PASSWORD_REQUIRED_CHARACTERS),
      },
      manualLinking: out.GOTRUE_SECURITY_MANUAL_LINKING_ENABLED,
    },
    hosted:
      out.SUPABASE_URL && out.SUPABASE_ANON_KEY
        ? { supabaseUrl: out.SUPABASE_URL, anonKey: out.SUPABASE_ANON_KEY }
        : null,
    files: {
      maxFileBytes: out.FILE_MAX_BYTES,
      azure: out.AZURE_STORAGE_CONNECTION_STRING
        ? {
            connectionString: out.AZURE_STORAGE_CONNECTION_STRING,
            container: out.AZURE_STORAGE_CONTAINER,
          }
        : null,
    },
    stripe: readStripe(out),
    realtime: {
      redis: out.REDIS_URL ? { url: out.REDIS_URL, prefix: out.REDIS_PREFIX } : null,
      allowedOrigins: out.HUB_ALLOWED_ORIGINS ?? [],
    },
  };
}

function readStripe(out: Record<string, unknown>): Env['stripe'] {
  const secretKey = out.STRIPE_SECRET_KEY as string | undefined;
  const webhookSecret = out.STRIPE_WEBHOOK_SECRET as string | undefined;
  if (!secretKey || !webhookSecret) return null;
  const prices = paidPlanIds.flatMap((planId) =>
    billingIntervals.flatMap((interval) => {
      const priceId = out[stripePriceVariable(planId, interval)] as string | undefined;
      return priceId ? [{ planId, interval, priceId }] : [];
    }),
  );
  const base = out.STRIPE_API_BASE as string | undefined;
  const url = base ? new URL(base) : null;
  return {
    secretKey,
    webhookSecret,
    prices,
    apiBase: url
      ? {
          protocol: url.protocol === 'http:' ? 'http' : 'https',
          host: url.hostname,
          port: Number(url.port || (url.protocol === 'http:' ? 80 : 443)),
        }
      : null,
  };
}

/** One price selling two plans or intervals would make a subscription's plan ambiguous. */
function samePriceProblem(out: Record<string, unknown>): string | null {
  const names = paidPlanIds.flatMap((planId) =>
    billingIntervals.map((interval) => stripePriceVariable(planId, interval)),
  );
  for (const [index, name] of names.entries()) {
    const twin = names.slice(index + 1).find((other) => out[other] && out[other] === out[name]);
    if (twin) return `${twin}: must differ from ${name} (each plan and interval has its own price)`;
  }
  return null;
}

/** Variables that only make sense together: one without the other is a mistake, not a default. */
function pairProblem(out: Record<string, unknown>, a: string, b: string): string | null {
  const hasA = out[a] !== undefined;
  const hasB = out[b] !== undefined;
  if (hasA === hasB) return null;
  return `${hasA ? b : a}: must be set together with ${hasA ? a : b}`;
}

export function readEnv(): Env {
  return parseEnv(process.env);
}
