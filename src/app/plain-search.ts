/**
 * Search strings as plain text. The router's default JSON-parses values, so `?projectId=123`
 * would arrive as a number and a string that looks like JSON gets written with quotes
 * (`?returnTo=%22...%22`). Links from e-mails and other sites carry plain strings, so every value
 * stays a string here and route schemas decide what is valid. Repeated keys become arrays
 * (the API's convention too). Booleans and numbers are written with String() and read back by
 * the schemas in features/shell/search-values.ts (`?archived=true` round-trips).
 */
export function parsePlainSearch(searchStr: string): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  const params = new URLSearchParams(searchStr.startsWith('?') ? searchStr.slice(1) : searchStr);
  for (const [key, value] of params) {
    const previous = result[key];
    if (previous === undefined) result[key] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else result[key] = [previous, value];
  }
  return result;
}

export function stringifyPlainSearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      params.append(key, typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
