/**
 * Valibot pieces for URL search schemas. The router reads every search value as a plain string
 * (src/app/plain-search.ts) and writes booleans and numbers back with String(), so a schema
 * that wants a boolean or a number reads it from its text here: `?archived=true` round-trips.
 * A missing or malformed value becomes `undefined` instead of failing the page.
 */
import * as v from 'valibot';

/** An optional value; anything the schema refuses (typo, repeated key) reads as "not set". */
export const optionalSearch = <S extends v.GenericSchema>(schema: S) =>
  v.fallback(v.optional(schema), undefined);

/** `true`/`false` from the URL (or from a navigation that passed a boolean). */
export const searchBoolean = v.pipe(
  v.union([v.boolean(), v.picklist(['true', 'false'])]),
  v.transform((value) => value === true || value === 'true'),
);

/** A finite number from the URL (or from a navigation that passed a number). */
export const searchNumber = v.pipe(
  v.union([
    v.number(),
    v.pipe(v.string(), v.trim(), v.regex(/^-?\d+(\.\d+)?$/), v.transform(Number)),
  ]),
  v.finite(),
);
