/**
 * Settings of the embedded auth service. main.ts builds them from the environment; tests pass
 * their own (fast argon2, short windows, generous rate limits).
 */
import type { JWK } from 'jose';
import type { RateLimitRule } from '../http/rate-limiter.ts';

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
