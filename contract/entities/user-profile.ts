import * as v from 'valibot';
import { text } from '../text.ts';
import { emailSchema } from './contact-message.ts';
import { idSchema } from './ids.ts';

const nameSchema = (label: string) =>
  v.pipe(
    text(`${label} must be text`),
    v.trim(),
    v.maxLength(100, `${label} must be at most 100 characters`),
  );

/** A picture URL the app may show: https (or http for local development), never javascript:. */
export const pictureUrlSchema = v.nullable(
  v.pipe(
    text(),
    v.trim(),
    v.maxLength(2048),
    v.url('Must be a web address'),
    v.check((url) => /^https?:\/\//i.test(url), 'Must start with https://'),
  ),
);

/** Spec section 3: id, email, firstName, lastName, profilePictureUrl. */
export const userProfileSchema = v.object({
  id: text(),
  email: text(),
  firstName: text(),
  lastName: text(),
  profilePictureUrl: v.nullable(text()),
});
export type UserProfile = v.InferOutput<typeof userProfileSchema>;

export const updateUserProfileInputSchema = v.pipe(
  v.strictObject({
    // Others see this name (chat, assignees, the portal): it cannot be blanked once set. The
    // last name may be empty, for people with one name.
    firstName: v.optional(v.pipe(nameSchema('First name'), v.nonEmpty('Enter your first name'))),
    lastName: v.optional(nameSchema('Last name')),
    profilePictureUrl: v.optional(pictureUrlSchema),
  }),
  v.check((patch) => Object.keys(patch).length > 0, 'Change at least one field'),
);
export type UpdateUserProfileInput = v.InferOutput<typeof updateUserProfileInputSchema>;

/** Spec section 7 `register-user` body; id and email must be the caller's own (checked server-side). */
export const registerUserInputSchema = v.object({
  id: idSchema,
  email: emailSchema,
  firstName: v.optional(nameSchema('First name'), ''),
  lastName: v.optional(nameSchema('Last name'), ''),
  profilePictureUrl: v.optional(pictureUrlSchema, null),
});
export type RegisterUserInput = v.InferOutput<typeof registerUserInputSchema>;
