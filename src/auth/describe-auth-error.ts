/**
 * Turns what supabase-js (or our own API client) reports into a sentence for people. Errors are
 * read by shape (`code`, `status`, `name`) rather than with supabase-js's classes, so screens do
 * not pull the library into their bundle.
 */

export type AuthErrorKind =
  | 'wrongCredentials'
  | 'emailNotConfirmed'
  | 'rateLimited'
  | 'weakPassword'
  | 'accountExists'
  | 'network'
  | 'sessionEnded'
  | 'other';

export interface DescribedAuthError {
  kind: AuthErrorKind;
  message: string;
  /** For `rateLimited`: how long to wait, when the server said so. */
  retryAfterSeconds?: number;
  /** For `weakPassword`: supabase reasons such as `length`, `characters`, `pwned`. */
  weakPasswordReasons?: string[];
}

export interface DescribeOptions {
  /** Seconds from the last 429's Retry-After header (see retry-after-tracker.ts). */
  retryAfterSeconds?: number | null;
}

interface ErrorShape {
  name: string;
  message: string;
  code: string | undefined;
  status: number | undefined;
  reasons: string[];
  detailsCode: string | undefined;
}

function shapeOf(error: unknown): ErrorShape {
  const record = (typeof error === 'object' && error !== null ? error : {}) as Record<
    string,
    unknown
  >;
  const details = record['details'];
  const detailsCode =
    typeof details === 'object' && details !== null
      ? (details as Record<string, unknown>)['code']
      : undefined;
  const reasons = record['reasons'];
  return {
    name: typeof record['name'] === 'string' ? record['name'] : '',
    message: typeof record['message'] === 'string' ? record['message'] : '',
    code: typeof record['code'] === 'string' ? record['code'] : undefined,
    status: typeof record['status'] === 'number' ? record['status'] : undefined,
    reasons: Array.isArray(reasons)
      ? reasons.filter((r): r is string => typeof r === 'string')
      : [],
    detailsCode: typeof detailsCode === 'string' ? detailsCode : undefined,
  };
}

/** "try again in 40 s": from Retry-After, else a number of seconds in the message. */
function waitSeconds(shape: ErrorShape, options: DescribeOptions): number | undefined {
  if (options.retryAfterSeconds && options.retryAfterSeconds > 0) return options.retryAfterSeconds;
  const match = /(\d+)\s*(?:s\b|sec|second)/i.exec(shape.message);
  return match?.[1] ? Number(match[1]) : undefined;
}

export function rateLimitMessage(seconds: number | undefined): string {
  return seconds
    ? `Too many attempts, try again in ${seconds} s`
    : 'Too many attempts, try again shortly';
}

const weakReasonText: Record<string, string> = {
  length: 'use at least 8 characters',
  characters: 'mix letters, numbers and symbols',
  pwned: 'this password is too common',
  common: 'this password is too common',
};

const messages: Record<string, string> = {
  same_password: 'Choose a password different from your current one',
  signup_disabled: 'New sign-ups are closed on this server',
  email_provider_disabled: 'Signing in with email is turned off on this server',
  user_banned: 'This account is blocked. Contact support.',
  otp_expired: 'This link or code has expired or was already used. Ask for a new one.',
  flow_state_not_found: 'This link was already used or has expired. Ask for a new one.',
  flow_state_expired: 'This link has expired. Ask for a new one.',
  bad_code_verifier: 'Open the link in the browser where you asked for it.',
  pkce_code_verifier_not_found: 'Open the link in the browser where you asked for it.',
  mfa_verification_failed: 'That code is not right. Check it and try again.',
  mfa_challenge_expired: 'The code has expired. Ask for a new one.',
  mfa_factor_not_found: 'This verification method no longer exists. Reload the page.',
  mfa_factor_name_conflict: 'You already have a method with this name. Choose another name.',
  too_many_enrolled_mfa_factors: 'You have the most verification methods allowed.',
  mfa_totp_enroll_not_enabled: 'Authenticator apps are turned off on this server',
  mfa_phone_enroll_not_enabled: 'Text-message codes are turned off on this server',
  insufficient_aal: 'Verify with your second factor first, then try again.',
  reauthentication_needed: 'For your security, sign in again before changing your password.',
  single_identity_not_deletable: 'This is your only way to sign in, so it cannot be removed.',
  identity_already_exists: 'This Google account is already linked to another Satchel account.',
  identity_not_found: 'This sign-in method is no longer linked.',
  manual_linking_disabled: 'Linking accounts is turned off on this server',
  captcha_failed: 'The captcha check failed. Try again.',
  validation_failed: 'Check what you entered and try again.',
  phone_exists: 'This phone number is already in use.',
  sms_send_failed: 'The text message could not be sent. Try again later.',
};

export function describeAuthError(
  error: unknown,
  options: DescribeOptions = {},
): DescribedAuthError {
  const shape = shapeOf(error);
  const code =
    shape.detailsCode && shape.detailsCode !== 'unspecified_code' ? shape.detailsCode : shape.code;

  if (
    shape.status === 429 ||
    code === 'over_request_rate_limit' ||
    code === 'over_email_send_rate_limit' ||
    code === 'over_sms_send_rate_limit' ||
    code === 'RATE_LIMITED'
  ) {
    const seconds = waitSeconds(shape, options);
    return {
      kind: 'rateLimited',
      message: rateLimitMessage(seconds),
      ...(seconds ? { retryAfterSeconds: seconds } : {}),
    };
  }
  if (code === 'weak_password' || shape.name === 'AuthWeakPasswordError') {
    const hints = [...new Set(shape.reasons.map((r) => weakReasonText[r]).filter(Boolean))];
    return {
      kind: 'weakPassword',
      message: hints.length
        ? `Choose a stronger password: ${hints.join('; ')}.`
        : 'Choose a stronger password.',
      weakPasswordReasons: shape.reasons,
    };
  }
  if (code === 'invalid_credentials') {
    return { kind: 'wrongCredentials', message: 'Wrong email or password' };
  }
  if (code === 'user_already_exists' || code === 'email_exists') {
    return { kind: 'accountExists', message: 'An account with this email already exists.' };
  }
  if (code === 'email_not_confirmed') {
    return { kind: 'emailNotConfirmed', message: 'Confirm your email first' };
  }
  if (
    shape.name === 'AuthSessionMissingError' ||
    code === 'session_not_found' ||
    code === 'session_expired' ||
    code === 'refresh_token_not_found' ||
    code === 'refresh_token_already_used'
  ) {
    return { kind: 'sessionEnded', message: 'Your session has ended. Sign in again.' };
  }
  const known = code ? messages[code] : undefined;
  if (known) return { kind: 'other', message: known };
  if (shape.name === 'AuthRetryableFetchError' || shape.status === 0) {
    return shape.status && shape.status >= 500
      ? { kind: 'network', message: 'The server had a problem. Try again in a moment.' }
      : {
          kind: 'network',
          message: "Can't reach the server. Check your connection and try again.",
        };
  }
  if (shape.status !== undefined && shape.status >= 500) {
    return { kind: 'network', message: 'The server had a problem. Try again in a moment.' };
  }
  return { kind: 'other', message: 'Something went wrong. Try again.' };
}
