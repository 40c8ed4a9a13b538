import * as v from 'valibot';
import { defineEndpoint, emptyQuerySchema } from '../define-endpoint.ts';
import { submitFeedbackInputSchema } from '../entities/feedback.ts';

export const submitFeedback = defineEndpoint({
  resource: 'feedback',
  operation: 'submit-feedback',
  method: 'POST',
  auth: 'public',
  summary: 'Send product feedback; a signed-in caller is recorded from the bearer token.',
  query: emptyQuerySchema,
  body: submitFeedbackInputSchema,
  output: v.object({ ok: v.literal(true) }),
});
