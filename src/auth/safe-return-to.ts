/** Where a signed-in user lands when there is no (acceptable) return path: spec 9. */
export const defaultReturnTo = '/dashboard';

const maxLength = 2048;
// Control characters (\p{Cc}: C0, DEL, C1): browsers strip tab/CR/LF from URLs, so "/\t/evil.com"
// becomes "//evil.com". A backslash anywhere is refused: browsers read "\" as "/" in http(s) URLs.
const forbiddenCharacters = /[\p{Cc}\\]/u;
const probeOrigin = 'https://return-to.invalid';

function isSameOriginPath(value: string): boolean {
  if (!value.startsWith('/') || value.startsWith('//')) return false;
  if (forbiddenCharacters.test(value)) return false;
  try {
    return new URL(value, probeOrigin).origin === probeOrigin;
  } catch {
    return false;
  }
}

/**
 * `value` when it is a same-origin path (a single leading `/`, no scheme, no control characters,
 * no backslash), else `/dashboard`. Each percent-decoded layer must pass too, so a value that
 * someone decodes once more later (`/%2F%2Fevil.com`, `/%09/evil.com`) cannot turn into an
 * off-site URL. Undecodable values are refused.
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > maxLength) {
    return defaultReturnTo;
  }
  let layer = value;
  for (let depth = 0; depth < 4; depth++) {
    if (!isSameOriginPath(layer)) return defaultReturnTo;
    let decoded: string;
    try {
      decoded = decodeURIComponent(layer);
    } catch {
      return defaultReturnTo;
    }
    if (decoded === layer) return value;
    layer = decoded;
  }
  return defaultReturnTo;
}
