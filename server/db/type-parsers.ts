/**
 * Text-format value parsers shared by both adapters so the same SQL yields the same JS values on
 * PGlite and on PostgreSQL (the conformance suite checks it). Only types where the two libraries'
 * defaults differ, or where a default loses information, are listed; see database.ts for the
 * resulting mapping. Arrays reuse these element parsers (PGlite derives them, pg is told below).
 */

/** Postgres type OIDs this layer cares about (fixed across Postgres versions). */
export const PgOid = {
  bytea: 17,
  int8: 20,
  date: 1082,
  timestamp: 1114,
  interval: 1186,
  int8Array: 1016,
  textArray: 1009,
  dateArray: 1182,
  timestampArray: 1115,
  numericArray: 1231,
  intervalArray: 1187,
} as const;

export type TextParser = (value: string) => unknown;

const keepText: TextParser = (value) => value;

/**
 * `timestamp without time zone` carries no zone; read it as UTC so the result does not depend on
 * the server process' TZ (pg's default would read it as local time, PGlite's as UTC).
 */
export function parseTimestampAsUtc(value: string): Date {
  return new Date(`${value.replace(' ', 'T')}Z`);
}

/** bytea in Postgres' default `hex` output format (`\x0a1b…`) → Buffer, as pg returns it. */
export function parseByteaHex(value: string): Buffer {
  return Buffer.from(value.startsWith('\\x') ? value.slice(2) : value, 'hex');
}

/**
 * Element parsers handed to PGlite (its array parsers look these up per element, so int8[] and
 * date[] follow automatically). PGlite already returns numeric and uuid as text, Date for
 * timestamptz, parsed json/jsonb.
 */
export const pgliteParsers: Record<number, TextParser> = {
  [PgOid.int8]: keepText,
  [PgOid.date]: keepText,
  [PgOid.timestamp]: parseTimestampAsUtc,
  [PgOid.interval]: keepText,
  [PgOid.bytea]: parseByteaHex,
};

/**
 * Parsers for pg that override pg-types' defaults. `parseTextArray` is pg-types' own text[]
 * parser (arrays of the types below would otherwise come back as Date/number/objects).
 */
export function pgParserOverrides(
  parseTextArray: (value: string) => (string | null)[],
): Record<number, TextParser> {
  const mapArray =
    (element: TextParser): TextParser =>
    (value) =>
      parseTextArray(value).map((item) => (item === null ? null : element(item)));
  return {
    [PgOid.date]: keepText,
    [PgOid.timestamp]: parseTimestampAsUtc,
    [PgOid.interval]: keepText,
    [PgOid.dateArray]: parseTextArray,
    [PgOid.numericArray]: parseTextArray,
    [PgOid.intervalArray]: parseTextArray,
    [PgOid.timestampArray]: mapArray(parseTimestampAsUtc),
  };
}
