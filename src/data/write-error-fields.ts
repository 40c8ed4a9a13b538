/**
 * Turns a refused local write into messages beside the fields. The mutations validate with the
 * contract's schemas and throw LocalWriteError with `details.issues` ({path, message}); anything
 * without a field path (or any other error) becomes the form-level message.
 */
import { LocalWriteError } from '../db/local-write.ts';

export type WriteErrorFields = Record<string, string | undefined>;

export function writeErrorFields(error: unknown): WriteErrorFields {
  if (!(error instanceof LocalWriteError)) {
    return { form: "This change couldn't be saved on this device. Please try again." };
  }
  const issues = Array.isArray(error.details.issues)
    ? (error.details.issues as { path?: unknown; message?: unknown }[])
    : [];
  const fields: WriteErrorFields = {};
  for (const issue of issues) {
    const key =
      typeof issue.path === 'string' && issue.path !== '' ? issue.path.split('.')[0] : 'form';
    if (key !== undefined && typeof issue.message === 'string') fields[key] ??= issue.message;
  }
  if (Object.keys(fields).length === 0) fields.form = error.message;
  return fields;
}
