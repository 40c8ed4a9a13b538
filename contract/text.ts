/**
 * The one text primitive of the contract: every string a schema accepts goes through `text()`
 * (lint forbids `v.string` elsewhere in contract/), so no current or future field can carry a
 * character that a database refuses or a person never meant to type.
 *
 * It strips, rather than refuses, control characters (U+0000-U+0008, U+000B, U+000C,
 * U+000E-U+001F, U+007F-U+009F; tab, line feed and carriage return stay) and replaces lone UTF-16
 * surrogates with U+FFFD. Why strip: they are invisible and arrive by paste (a PDF, a terminal);
 * an error about a character nobody can see or find gives the user nothing to fix, and an outbox
 * entry queued with one must still apply. Stripping is deterministic and idempotent, so the
 * device's optimistic row (written through the same schema) and the server's row agree.
 * PostgreSQL refuses U+0000 in text and jsonb; a lone surrogate would be silently re-encoded as
 * U+FFFD by the driver, leaving device and server with different values.
 *
 * Kept on purpose: bidirectional controls (U+202A-U+202E, U+2066-U+2069) and zero-width joiners
 * are part of real right-to-left and emoji text; screens isolate user text instead.
 */
import * as v from 'valibot';

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNWANTED_CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The cleaning `text()` applies; exported for values that reach storage outside a schema. */
export function cleanText(value: string): string {
  return value.replace(UNWANTED_CONTROLS, '').replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * The cleaning as a pipe step. Its own type name, not `transform`: JSON Schema tooling (the
 * OpenAPI document) stops reading an input pipe at a `transform`, and this one keeps the type,
 * so the length and format checks after it still belong in the document.
 */
const cleanTextAction = {
  ...v.transform(cleanText),
  type: 'clean_text',
} as unknown as v.TransformAction<string, string>;

/** A string, cleaned (see the header). Pipe length and format checks after it. */
export function text(message?: string) {
  return v.pipe(v.string(message), cleanTextAction);
}

/**
 * JSON data of any shape (settings, free-form records) with every string, key or value, cleaned
 * as `text()` does; anything JSON cannot hold is refused.
 */
export function jsonValue(message = 'Must be JSON data') {
  return v.pipe(
    v.unknown(),
    v.check(isJson, message),
    v.transform((value) => cleanJson(value)),
  );
}

function isJson(value: unknown, depth = 0): boolean {
  if (depth > 32) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isJson(item, depth + 1));
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.values(value).every((item) => isJson(item, depth + 1));
  }
  return false;
}

/** A deep copy of JSON data with every string cleaned (keys too). */
export function cleanJson(value: unknown): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (Array.isArray(value)) return value.map(cleanJson);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [cleanText(key), cleanJson(item)]),
    );
  }
  return value;
}
