/**
 * Password rules: at least 8 characters and not one of the ~49 000 most common passwords
 * (zxcvbn-ts's common list, loaded once when this module is first imported). Reasons use GoTrue's
 * words so auth-js surfaces them as AuthWeakPasswordError.reasons.
 */
import { dictionary } from '@zxcvbn-ts/language-common';

export const MIN_PASSWORD_LENGTH = 8;
/** argon2 accepts anything, but a megabyte password is a cheap way to burn our CPU. */
export const MAX_PASSWORD_LENGTH = 1024;

const common = new Set(dictionary['passwords-common'].map((word) => word.toLowerCase()));

export interface PasswordWeakness {
  reasons: ('length' | 'pwned')[];
  message: string;
}

export function checkPassword(password: string): PasswordWeakness | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    return {
      reasons: ['length'],
      message: `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`,
    };
  }
  if (common.has(password.toLowerCase())) {
    return {
      reasons: ['pwned'],
      message: 'Password is known to be weak and easy to guess, please choose a different one.',
    };
  }
  return null;
}
