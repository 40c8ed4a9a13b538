import * as v from 'valibot';

/**
 * An optional search value. A missing, repeated or otherwise malformed value becomes `undefined`
 * instead of failing the page: search strings are typed by people and by other sites.
 */
export const optionalSearchString = v.fallback(
  v.optional(v.pipe(v.string(), v.maxLength(2048))),
  undefined,
);

/** A path segment naming an entity (UUIDs in practice, but old links must not crash the page). */
export const routeIdSchema = v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(128));

/** `params.parse` for a route whose params are all ids. */
export function parseIdParams<const K extends string>(keys: readonly K[]) {
  const schema = v.object(
    Object.fromEntries(keys.map((key) => [key, routeIdSchema])) as Record<K, typeof routeIdSchema>,
  );
  return (raw: Record<K, string>): Record<K, string> => v.parse(schema, raw);
}
