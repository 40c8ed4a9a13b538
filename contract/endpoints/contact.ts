import * as v from 'valibot';
import { defineEndpoint, emptyQuerySchema } from '../define-endpoint.ts';
import { submitContactInputSchema } from '../entities/contact-message.ts';

export const submitContact = defineEndpoint({
  resource: 'contact',
  operation: 'submit-contact',
  method: 'POST',
  auth: 'public',
  summary: 'Send a message through the public contact form.',
  query: emptyQuerySchema,
  body: submitContactInputSchema,
  output: v.object({ ok: v.literal(true) }),
});
