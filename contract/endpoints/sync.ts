import * as v from 'valibot';
import { text } from '../text.ts';
import { defineEndpoint } from '../define-endpoint.ts';
import { idSchema } from '../entities/ids.ts';
import { MAX_PULL_LIMIT, pullOutputSchema, pushInputSchema, pushOutputSchema } from '../sync.ts';

export const pushMutations = defineEndpoint({
  resource: 'sync',
  operation: 'push',
  method: 'POST',
  auth: 'user',
  summary: 'Apply up to 100 queued mutations in order, each exactly once.',
  query: v.strictObject({}),
  body: pushInputSchema,
  output: pushOutputSchema,
});

export const pullChanges = defineEndpoint({
  resource: 'sync',
  operation: 'pull',
  method: 'GET',
  auth: 'user',
  summary: "A workspace's changes after a cursor (no cursor: a snapshot in pages).",
  query: v.strictObject({
    workspaceId: idSchema,
    cursor: v.optional(v.pipe(text(), v.maxLength(200))),
    limit: v.optional(
      v.pipe(
        text(),
        v.regex(/^\d{1,4}$/, 'limit must be a whole number'),
        v.transform(Number),
        v.minValue(1),
        v.maxValue(MAX_PULL_LIMIT, `limit must be at most ${MAX_PULL_LIMIT}`),
      ),
    ),
  }),
  output: pullOutputSchema,
});
