/**
 * Settings of the embedded auth service. main.ts builds them from the environment; tests pass
 * their own (fast argon2, short windows, generous rate limits).
 */
import type { JWK } from 'jose';
import type { RateLimitRule } from '../http/rate-limiter.ts';
import type { PasswordPolicy } from './password-policy.ts';

export interface CaptchaConfig {
  secret: string;
  siteKey: string;
  /** hCaptcha / Turnstile style siteverify endpoint (form POST, JSON `{success}` answer). */
  verifyUrl: string;
}

export interface GoogleConfig {
  /** Any OpenID Connect issuer can stand in for Google (tests use a local oidc-provider). */
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** Every rate limit the service applies; each is counted per IP and, where named, per account. */
export interface AuthRateLimits {
  /** Password sign-in, per client IP. */
  signInPerIp: RateLimitRule;
  /** Password sign-in, per email address. */
  signInPerAccount: RateLimitRule;
  signUpPerIp: RateLimitRule;
  /** recover, resend, otp (magic link): requests per IP. */
  mailRequestPerIp: RateLimitRule;
  /** Any mail to one address (sign-up, recovery, resend, email change, magic link). */
  mailPerAddress: RateLimitRule;
  verifyPerIp: RateLimitRule;
  /** Code guesses per address (email OTP) or per link token. */
  verifyPerAccount: RateLimitRule;
  refreshPerIp: RateLimitRule;
  mfaVerifyPerIp: RateLimitRule;
  mfaVerifyPerAccount: RateLimitRule;
  /** SMS codes per phone factor. */
  smsPerFactor: RateLimitRule;
}

const MINUTE = 60_000;

/**
 * Defaults follow hosted Supabase's (5-minute windows, one mail per address per minute), made a
 * little stricter per account because this service has no upstream WAF in front of it.
 */
export const defaultAuthRateLimits: AuthRateLimits = {
  signInPerIp: { name: 'auth-sign-in-ip', max: 30, windowMs: 5 * MINUTE },
  signInPerAccount: { name: 'auth-sign-in-account', max: 10, windowMs: 5 * MINUTE },
  signUpPerIp: { name: 'auth-sign-up-ip', max: 30, windowMs: 5 * MINUTE },
  mailRequestPerIp: { name: 'auth-mail-request-ip', max: 30, windowMs: 5 * MINUTE },
  mailPerAddress: { name: 'auth-mail-address', max: 1, windowMs: MINUTE },
  verifyPerIp: { name: 'auth-verify-ip', max: 30, windowMs: 5 * MINUTE },
  verifyPerAccount: { name: 'auth-verify-account', max: 10, windowMs: 5 * MINUTE },
  refreshPerIp: { name: 'auth-refresh-ip', max: 150, windowMs: 5 * MINUTE },
  mfaVerifyPerIp: { name: 'auth-mfa-verify-ip', max: 30, windowMs: 5 * MINUTE },
  mfaVerifyPerAccount: { name: 'auth-mfa-verify-account', max: 10, windowMs: 5 * MINUTE },
  smsPerFactor: { name: 'auth-sms-factor', max: 1, windowMs: MINUTE },
};

export interface AuthConfig {
  /**
   * PUBLIC_URL: the origin users reach the app at. The auth API is `${siteUrl}/auth/v1`, mail
   * links point there, and redirects default to it.
   */
  siteUrl: string;
  autoconfirm: boolean;
  /** Access-token lifetime (GoTrue JWT_EXP); 3600 by default. */
  jwtExpirySeconds: number;
  mfaIssuer: string;
  /** Redirect targets allowed besides siteUrl's origin: an origin, or an origin plus path prefix. */
  additionalRedirectUrls: readonly string[];
  captcha: CaptchaConfig | null;
  google: GoogleConfig | null;
  /** Log mail links (outbox mode, where nobody receives the mail); never with SMTP. */
  logMailLinks: boolean;
  /** How long a rotated refresh token still yields the active session (GoTrue hosted: 10 s). */
  refreshTokenReuseIntervalSeconds?: number;
  /** GOTRUE_PASSWORD_MIN_LENGTH / _REQUIRED_CHARACTERS; DEFAULT_PASSWORD_POLICY unless given. */
  passwordPolicy?: PasswordPolicy;
  /**
   * GOTRUE_SECURITY_MANUAL_LINKING_ENABLED: a signed-in user may link (and unlink) a Google
   * identity themselves. On unless false.
   */
  manualLinking?: boolean;
  /** Overrides of single rules (tests lift the per-IP limits, the rate-limit test lowers them). */
  rateLimits?: Partial<AuthRateLimits>;
  /**
   * AUTH_ADMIN_JWT_KEYS: public keys (JWK) of the operator's whose tokens with an admin role are
   * accepted by the admin API besides the service-role key (admin-credentials.ts).
   */
  adminJwtKeys?: readonly JWK[];
}

/**
 * The limits the environment sets (server/env.ts), GoTrue's names where GoTrue has the limit:
 * counts per client address (or per account) per 5 minutes, and the least time between two mails
 * (or SMS codes) to one address (or phone factor).
 */
export interface AuthLimitSettings {
  /** GOTRUE_RATE_LIMIT_SIGN_IN_SIGN_UPS */
  signInSignUpsPerIp: number;
  /** GOTRUE_RATE_LIMIT_TOKEN_REFRESH */
  tokenRefreshPerIp: number;
  /** GOTRUE_RATE_LIMIT_VERIFY */
  verifyPerIp: number;
  /** GOTRUE_RATE_LIMIT_OTP: recover, resend and magic-link requests. */
  mailRequestsPerIp: number;
  /** GOTRUE_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY */
  mfaVerifyPerIp: number;
  /** AUTH_RATE_LIMIT_SIGN_IN_PER_ACCOUNT: wrong passwords per account. */
  signInPerAccount: number;
  /** AUTH_RATE_LIMIT_VERIFY_PER_ACCOUNT: code guesses per address or link. */
  verifyPerAccount: number;
  /** AUTH_RATE_LIMIT_MFA_VERIFY_PER_ACCOUNT */
  mfaVerifyPerAccount: number;
  /** GOTRUE_SMTP_MAX_FREQUENCY, in ms. */
  mailFrequencyMs: number;
  /** GOTRUE_SMS_MAX_FREQUENCY, in ms. */
  smsFrequencyMs: number;
}

export function rateLimitsFromSettings(settings: AuthLimitSettings): AuthRateLimits {
  const d = defaultAuthRateLimits;
  return {
    signInPerIp: { ...d.signInPerIp, max: settings.signInSignUpsPerIp },
    signUpPerIp: { ...d.signUpPerIp, max: settings.signInSignUpsPerIp },
    signInPerAccount: { ...d.signInPerAccount, max: settings.signInPerAccount },
    mailRequestPerIp: { ...d.mailRequestPerIp, max: settings.mailRequestsPerIp },
    mailPerAddress: { ...d.mailPerAddress, windowMs: settings.mailFrequencyMs },
    verifyPerIp: { ...d.verifyPerIp, max: settings.verifyPerIp },
    verifyPerAccount: { ...d.verifyPerAccount, max: settings.verifyPerAccount },
    refreshPerIp: { ...d.refreshPerIp, max: settings.tokenRefreshPerIp },
    mfaVerifyPerIp: { ...d.mfaVerifyPerIp, max: settings.mfaVerifyPerIp },
    mfaVerifyPerAccount: { ...d.mfaVerifyPerAccount, max: settings.mfaVerifyPerAccount },
    smsPerFactor: { ...d.smsPerFactor, windowMs: settings.smsFrequencyMs },
  };
}

const GO_DURATION_UNITS_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** A Go duration ("60s", "1m30s", "1h") in ms, as GoTrue reads its *_FREQUENCY settings; else null. */
export function parseGoDurationMs(raw: string): number | null {
  if (!/^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/.test(raw)) return null;
  let ms = 0;
  for (const [, amount, unit] of raw.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) {
    ms += Number(amount) * (GO_DURATION_UNITS_MS[unit ?? 'ms'] ?? 1);
  }
  return ms;
}
