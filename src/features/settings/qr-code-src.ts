const utf8Prefix = 'data:image/svg+xml;utf-8,';
const base64Prefix = 'data:image/svg+xml;base64,';

/**
 * An <img src> for the TOTP QR code. The auth service sends raw SVG and supabase-js prefixes it
 * with `data:image/svg+xml;utf-8,` without encoding it, which breaks on `#` or `%` in the markup.
 * The SVG is re-encoded here and only ever shown through <img>, where it cannot run script (never
 * as innerHTML). Anything that is not SVG gives null.
 */
export function qrCodeImageSrc(qrCode: string): string | null {
  const value = qrCode.trim();
  if (value.startsWith(base64Prefix)) return value;
  const svg = (value.startsWith(utf8Prefix) ? value.slice(utf8Prefix.length) : value).trim();
  if (!/^(<\?xml[^>]*>\s*)?<svg[\s>]/i.test(svg)) return null;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** The TOTP secret in groups of four, easier to type into an app by hand. */
export function groupSecret(secret: string): string {
  return secret.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}
