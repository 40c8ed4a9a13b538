/**
 * SET clauses for a patch: only the keys present in the body, in a fixed column order, with
 * parameter numbers starting at `firstParam`. Column names come from the caller's constant map,
 * never from the body, so a patch cannot name a column.
 */
export function buildPatch<K extends string>(
  columns: Readonly<Record<K, string>>,
  body: Partial<Record<K, unknown>>,
  encode: Partial<Record<K, { encode?: (value: never) => unknown; cast?: string }>>,
  firstParam: number,
): { sets: string[]; values: unknown[] } {
  const sets: string[] = [];
  const values: unknown[] = [];
  for (const key of Object.keys(columns) as K[]) {
    if (!(key in body)) continue;
    const value = body[key];
    const rule = encode[key] as { encode?: (value: unknown) => unknown; cast?: string } | undefined;
    values.push(rule?.encode ? rule.encode(value) : value);
    const cast = rule?.cast ? `::${rule.cast}` : '';
    sets.push(`${columns[key]} = $${firstParam + values.length - 1}${cast}`);
  }
  return { sets, values };
}
