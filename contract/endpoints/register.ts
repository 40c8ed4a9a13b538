import * as v from 'valibot';
import { defineEndpoint, emptyQuerySchema } from '../define-endpoint.ts';
import { registerUserInputSchema } from '../entities/user-profile.ts';
import { workspaceSchema } from '../entities/workspace.ts';

export const registerUser = defineEndpoint({
  resource: 'register',
  operation: 'register-user',
  method: 'POST',
  auth: 'user',
  summary:
    'Create your profile and your own workspace after sign-up; calling again returns the same workspace.',
  query: emptyQuerySchema,
  body: registerUserInputSchema,
  output: v.object({ ok: v.literal(true), data: v.object({ workspace: workspaceSchema }) }),
});
