import * as v from 'valibot';
import { defineEndpoint } from '../define-endpoint.ts';
import { idSchema } from '../entities/ids.ts';
import { updateUserProfileInputSchema, userProfileSchema } from '../entities/user-profile.ts';

export const getUserProfile = defineEndpoint({
  resource: 'user',
  operation: 'get-user-profile',
  method: 'GET',
  auth: 'user',
  summary: "A user's profile: your own, or a member of a workspace you share.",
  query: v.strictObject({ id: idSchema }),
  output: v.object({ user: userProfileSchema }),
});

export const updateUserProfile = defineEndpoint({
  resource: 'user',
  operation: 'update-user-profile',
  method: 'PATCH',
  auth: 'user',
  summary: 'Change your own profile (names, picture).',
  query: v.strictObject({ id: idSchema }),
  body: updateUserProfileInputSchema,
  output: v.object({ user: userProfileSchema }),
});
