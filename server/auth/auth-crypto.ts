/**
 * Small primitives for bearer secrets: random tokens, the hashes they are stored as, 6-digit
 * codes, and sealing one token under another (refresh-token reuse window).
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  hkdfSync,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';

/** 256 random bits, base64url (43 characters): refresh tokens, link tokens, PKCE codes. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** A 6-digit code, uniformly drawn (leading zeros kept). */
export function randomOtp(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** How a code is stored: bound to the address it was sent to, so equal codes never collide. */
export function otpHash(address: string, code: string): string {
  return sha256Hex(`${address.toLowerCase()}:${code}`);
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

function sealingKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, '', 'satchel refresh-token child', 32));
}

/** Encrypts `plaintext` so that only a holder of `secret` can read it back (AES-256-GCM). */
export function seal(secret: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(secret), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The sealed plaintext, or null when `secret` is not the one it was sealed with. */
export function unseal(secret: string, sealed: string): string | null {
  const raw = Buffer.from(sealed, 'base64url');
  if (raw.length < 29) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(secret), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** RFC 7636 S256: base64url(sha256(verifier)) without padding. */
export function pkceS256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}
