import * as v from 'valibot';
import { text } from '../text.ts';
import { defineEndpoint, emptyQuerySchema } from '../define-endpoint.ts';

/** Lets the app show which server build it talks to (settings > about). */
export const getVersion = defineEndpoint({
  resource: 'system',
  operation: 'get-version',
  method: 'GET',
  auth: 'public',
  summary: 'Version of the server and of its database schema.',
  query: emptyQuerySchema,
  output: v.object({
    version: text(),
    schemaVersion: v.nullable(v.number()),
  }),
});
