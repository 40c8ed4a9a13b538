/**
 * Password rules: a minimum length and, optionally, character sets a password must draw from
 * (GoTrue's GOTRUE_PASSWORD_MIN_LENGTH and GOTRUE_PASSWORD_REQUIRED_CHARACTERS; our defaults: 8
 * characters, no required sets), and never one of the ~49 000 most common passwords (zxcvbn-ts's
 * common list, loaded once when this module is first imported). Reasons and messages are
 * GoTrue's, so auth-js surfaces them as AuthWeakPasswordError.reasons.
 */
import { dictionary } from '@zxcvbn-ts/language-common';

export interface PasswordPolicy {
  minLength: number;
  /** Each entry is a set of characters; the password needs one character of every set. */
  requiredCharacters: readonly string[];
}

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = { minLength: 8, requiredCharacters: [] };

/** argon2 accepts anything, but a megabyte password is a cheap way to burn our CPU. */
export const MAX_PASSWORD_LENGTH = 1024;

const common = new Set(dictionary['passwords-common'].map((word) => word.toLowerCase()));

export interface PasswordWeakness {
  reasons: ('length' | 'characters' | 'pwned')[];
  message: string;
}

/** GoTrue's syntax: sets separated by `:`, a `\:` inside a set is a colon. */
export function parseRequiredCharacters(value: string): string[] {
  const parts = value.split(':');
  for (let i = 0; i < parts.length - 1; i += 1) {
    const part = parts[i] ?? '';
    if (part.endsWith('\\')) {
      parts[i] = `${part.slice(0, -1)}:${parts[i + 1] ?? ''}`;
      parts[i + 1] = '';
    }
  }
  return parts.filter((part) => part !== '');
}

export function checkPassword(
  password: string,
  policy: PasswordPolicy = DEFAULT_PASSWORD_POLICY,
): PasswordWeakness | null {
  const reasons: PasswordWeakness['reasons'] = [];
  const messages: string[] = [];
  if ([...password].length < policy.minLength) {
    reasons.push('length');
    messages.push(`Password should be at least ${policy.minLength} characters.`);
  }
  if (policy.requiredCharacters.some((set) => ![...set].some((ch) => password.includes(ch)))) {
    reasons.push('characters');
    messages.push(
      `Password should contain at least one character of each: ${policy.requiredCharacters.join(', ')}.`,
    );
  }
  if (common.has(password.toLowerCase())) {
    reasons.push('pwned');
    messages.push('Password is known to be weak and easy to guess, please choose a different one.');
  }
  return reasons.length > 0 ? { reasons, message: messages.join(' ') } : null;
}
