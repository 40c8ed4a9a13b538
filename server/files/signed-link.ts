/**
 * Expiring download links for files on local disk, the server's own SAS: a URL
 * `/files/d/<blobName>?exp=&dn=&ct=&disp=&kid=&sig=` whose HMAC-SHA-256 covers the method, the path
 * and every parameter, so a holder can neither extend it, point it at another blob, nor change
 * how the browser saves or shows the file (an HTML file turned `inline` would be an attack).
 * The newest key signs and every key verifies, so keys rotate without breaking live links; `kid`
 * names the key so verifying never tries them all.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { assertBlobName } from './storage/blob-storage.ts';

export interface SigningKey {
  id: string;
  secret: Uint8Array;
}

export interface SignedLinkOptions {
  blobName: string;
  /** Rounded down to the second: a link never outlives what was asked. */
  expiresAt: Date;
  downloadFileName: string;
  contentType: string;
  inline: boolean;
}

export type VerifiedLink =
  | {
      ok: true;
      blobName: string;
      downloadFileName: string;
      contentType: string;
      inline: boolean;
      /** When the link stops working (whole seconds), for the response's cache lifetime. */
      expiresAt: Date;
    }
  | { ok: false; reason: 'expired' | 'tampered' | 'unknown-key' | 'malformed' };

export interface SignedLinks {
  /** The absolute URL (under publicUrl) of a link to `blobName`. */
  sign(options: SignedLinkOptions): Promise<string>;
  /**
   * Checks a link's URL (absolute, or a path with its query) as requested with `method`: HEAD is
   * checked as GET (a HEAD only asks what the GET would answer); anything else is malformed.
   */
  verify(url: string | URL, now?: Date, method?: string): Promise<VerifiedLink>;
}

/** Where the download route is mounted; signed as is, whatever prefix a proxy adds in front. */
const ROUTE_PATH = '/files/d/';
/** The query parameters, in the order they are signed. */
const PARAMS = ['exp', 'dn', 'ct', 'disp', 'kid'] as const;
const DIGEST_BYTES = 32;

export function createSignedLinks(deps: {
  /** Newest first: the first signs, all verify. */
  keys: () => Promise<SigningKey[]>;
  publicUrl: string;
}): SignedLinks {
  const base = deps.publicUrl.replace(/\/+$/, '');

  return {
    async sign(options) {
      assertBlobName(options.blobName);
      const [key] = await deps.keys();
      if (!key) throw new Error('No key to sign download links with.');
      const params = new URLSearchParams({
        exp: String(Math.floor(options.expiresAt.getTime() / 1000)),
        dn: options.downloadFileName,
        ct: options.contentType,
        disp: options.inline ? 'inline' : 'attachment',
        kid: key.id,
      });
      params.set('sig', digest(key.secret, options.blobName, params).toString('base64url'));
      return `${base}${ROUTE_PATH}${options.blobName}?${params.toString()}`;
    },

    async verify(url, now = new Date(), method = 'GET') {
      if (method !== 'GET' && method !== 'HEAD') return { ok: false, reason: 'malformed' };
      const parsed = parseLink(url);
      if (!parsed) return { ok: false, reason: 'malformed' };
      const { blobName, params, sig } = parsed;
      const key = (await deps.keys()).find((candidate) => candidate.id === params.get('kid'));
      if (!key) return { ok: false, reason: 'unknown-key' };
      const expected = digest(key.secret, blobName, params);
      // Signature before expiry: an `exp` pushed into the future is tampering, not a live link.
      if (sig.length !== DIGEST_BYTES || !timingSafeEqual(sig, expected)) {
        return { ok: false, reason: 'tampered' };
      }
      const expiresAt = new Date(Number(params.get('exp')) * 1000);
      if (now.getTime() >= expiresAt.getTime()) return { ok: false, reason: 'expired' };
      return {
        ok: true,
        blobName,
        downloadFileName: params.get('dn') ?? '',
        contentType: params.get('ct') ?? '',
        inline: params.get('disp') === 'inline',
        expiresAt,
      };
    },
  };
}

/**
 * HMAC over `GET`, the route path and each parameter as `name=value` (URI-encoded, fixed order),
 * one per line: encoding keeps a newline inside a value from faking a boundary.
 */
function digest(secret: Uint8Array, blobName: string, params: URLSearchParams): Buffer {
  const lines = [
    'GET',
    `${ROUTE_PATH}${blobName}`,
    ...PARAMS.map((name) => `${name}=${encodeURIComponent(params.get(name) ?? '')}`),
  ];
  return createHmac('sha256', secret).update(lines.join('\n')).digest();
}

/** The blob name and parameters of a link, or null when it is not shaped like one. */
function parseLink(
  url: string | URL,
): { blobName: string; params: URLSearchParams; sig: Buffer } | null {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://link.invalid');
  } catch {
    return null;
  }
  const match = /\/d\/([^/]*)$/.exec(parsed.pathname);
  const blobName = match?.[1];
  if (!blobName) return null;
  try {
    assertBlobName(blobName);
  } catch {
    return null;
  }
  const query = parsed.searchParams;
  // Exactly the signed parameters, each once: nothing unsigned may ride along.
  const names = [...query.keys()];
  const expectedNames: readonly string[] = [...PARAMS, 'sig'];
  if (names.length !== expectedNames.length || !expectedNames.every((n) => names.includes(n))) {
    return null;
  }
  if (!/^\d{1,12}$/.test(query.get('exp') ?? '')) return null;
  const disp = query.get('disp');
  if (disp !== 'inline' && disp !== 'attachment') return null;
  const sig = query.get('sig') ?? '';
  if (!/^[\w-]+$/.test(sig)) return null;
  return { blobName, params: query, sig: Buffer.from(sig, 'base64url') };
}
