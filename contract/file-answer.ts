/**
 * An operation that answers a file rather than JSON (an invoice's PDF). Its output is this
 * object; the dispatcher sends `render()`'s bytes with the content type and an attachment
 * Content-Disposition naming `fileName`, and a failure before that is the contract's error body
 * as for any call.
 *
 * `render` runs after the operation's transaction commits: the handler reads what it needs in
 * the transaction, and the slow part (laying out a PDF) does not hold a database connection.
 */
import * as v from 'valibot';
import type { EndpointDefinition } from './define-endpoint.ts';
import { text } from './text.ts';

export const fileAnswerSchema = v.object({
  fileName: text(),
  contentType: text(),
  render: v.custom<() => Promise<Uint8Array>>(
    (value) => typeof value === 'function',
    'A file answer renders its bytes',
  ),
});
export type FileAnswer = v.InferOutput<typeof fileAnswerSchema>;

/** The operation answers a file (declared with `output: fileAnswerSchema`). */
export function answersFile(def: EndpointDefinition): boolean {
  return def.output === fileAnswerSchema;
}
