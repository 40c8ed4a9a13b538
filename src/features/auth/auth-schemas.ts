import * as v from 'valibot';
import { emailSchema } from '#contract/entities/contact-message.ts';
import { registerUserInputSchema } from '#contract/entities/user-profile.ts';

/** The contract's name rules (trimmed, at most 100 characters), required on the sign-up form. */
const requiredName = (label: string) =>
  v.pipe(registerUserInputSchema.entries.firstName.wrapped, v.nonEmpty(`Enter your ${label}`));

/** Spec: minimum 8 characters; "not a common password" is the server's check (weak_password). */
export const minPasswordLength = 8;

export const newPasswordSchema = v.pipe(
  v.string(),
  v.minLength(minPasswordLength, `Use at least ${minPasswordLength} characters`),
);

export const signInSchema = v.object({
  email: emailSchema,
  password: v.pipe(v.string(), v.nonEmpty('Enter your password')),
});

export const signUpSchema = v.object({
  firstName: requiredName('first name'),
  lastName: requiredName('last name'),
  email: emailSchema,
  password: newPasswordSchema,
});

export const emailOnlySchema = v.object({ email: emailSchema });

export const chooseNewPasswordSchema = v.pipe(
  v.object({ password: newPasswordSchema, confirm: v.string() }),
  v.forward(
    v.check((input) => input.password === input.confirm, 'The passwords do not match'),
    ['confirm'],
  ),
);

export const verificationCodeSchema = v.object({
  code: v.pipe(
    v.string(),
    v.transform((code) => code.replace(/\s+/g, '')),
    v.regex(/^\d{6}$/, 'Enter the 6-digit code'),
  ),
});
