/**
 * Turns a raw request into the values an operation's schemas check: the query without its
 * `endpoint` key (repeated keys become arrays), and the JSON body when the operation takes one.
 */
import * as v from 'valibot';
import type { ValidationIssue } from '#contract/errors.ts';
import { AppError, ErrorCode } from './app-error.ts';

export function queryObject(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    if (key === 'endpoint') continue;
    const values = url.searchParams.getAll(key);
    out[key] = values.length === 1 ? (values[0] as string) : values;
  }
  return out;
}

const JSON_CONTENT_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** Parses a JSON body; empty text means "no body". */
export function parseJsonBody(text: string, contentType: string | undefined): unknown {
  if (text.trim() === '') return undefined;
  if (contentType === undefined || !JSON_CONTENT_TYPE.test(contentType)) {
    throw new AppError(
      ErrorCode.UNSUPPORTED_MEDIA_TYPE,
      'Request bodies must be JSON with Content-Type: application/json.',
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new AppError(ErrorCode.MALFORMED_JSON, 'The request body is not valid JSON.', {
      details: { reason: error instanceof Error ? error.message : String(error) },
    });
  }
}

export function issuesToDetails(
  where: 'query' | 'body',
  issues: readonly v.BaseIssue<unknown>[],
): ValidationIssue[] {
  return issues.map((issue) => {
    const keys = issue.path?.map((item) => String(item.key)) ?? [];
    return { path: [where, ...keys].join('.'), message: issue.message };
  });
}

/** Validates against a schema, or throws VALIDATION_FAILED listing every failing path. */
export function parseInput<S extends v.GenericSchema>(
  where: 'query' | 'body',
  schema: S,
  value: unknown,
): v.InferOutput<S> {
  if (where === 'body' && value === undefined) {
    throw new AppError(ErrorCode.VALIDATION_FAILED, 'A JSON request body is required.', {
      details: [{ path: 'body', message: 'Required' }],
    });
  }
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  const details = issuesToDetails(where, result.issues);
  const first = details[0];
  throw new AppError(
    ErrorCode.VALIDATION_FAILED,
    first ? `Invalid ${first.path}: ${first.message}` : `Invalid ${where}.`,
    { details },
  );
}
