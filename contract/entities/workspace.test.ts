// The workspace logo setting: an https:// address or an inline PNG or JPEG of at most 256 KiB
// (the form the invoice PDF can embed without the server fetching anything); nothing else.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { embeddableLogo } from './invoice-document.ts';
import {
  logoUrlProblem,
  MAX_LOGO_BYTES,
  MAX_LOGO_URL_LENGTH,
  updateWorkspaceSettingsInputSchema,
} from './workspace.ts';

/** A 1x1 PNG. */
const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** `bytes` bytes starting with a file type's magic number, as base64. */
function base64Of(magic: number[], bytes: number): string {
  const data = new Uint8Array(bytes);
  data.set(magic);
  for (let i = magic.length; i < bytes; i += 1) data[i] = (i * 31) % 256;
  return base64(data);
}

/** Base64 with the web's btoa (the contract is compiled without Node's types). */
function base64(data: Uint8Array | string): string {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_MAGIC = [0xff, 0xd8, 0xff, 0xe0];

const parse = (logoUrl: unknown) => v.safeParse(updateWorkspaceSettingsInputSchema, { logoUrl });
const messages = (logoUrl: unknown) => {
  const result = parse(logoUrl);
  return result.success ? [] : result.issues.map((issue) => issue.message);
};

describe('workspace logo (updateWorkspaceSettingsInputSchema.logoUrl)', () => {
  it.each([
    ['a PNG data URL', `data:image/png;base64,${PNG_1X1}`],
    ['a JPEG data URL', `data:image/jpeg;base64,${base64Of(JPEG_MAGIC, 2_000)}`],
    ['a PNG of exactly 256 KiB', `data:image/png;base64,${base64Of(PNG_MAGIC, MAX_LOGO_BYTES)}`],
    ['a JPEG of exactly 256 KiB', `data:image/jpeg;base64,${base64Of(JPEG_MAGIC, MAX_LOGO_BYTES)}`],
    ['an https address', 'https://cdn.example.com/logo.png'],
    ['null (no logo)', null],
  ])('accepts %s', (_, value) => {
    const result = parse(value);
    expect(result.success, JSON.stringify(result.issues?.map((i) => i.message))).toBe(true);
    expect(result.output).toEqual({ logoUrl: value });
  });

  it('accepts the longest value it allows, and the invoice PDF embeds the inline ones', () => {
    const largest = `data:image/jpeg;base64,${base64Of(JPEG_MAGIC, MAX_LOGO_BYTES)}`;
    expect(largest.length).toBeLessThanOrEqual(MAX_LOGO_URL_LENGTH);
    expect(embeddableLogo(largest)).toBe(largest);
    expect(embeddableLogo(`data:image/png;base64,${PNG_1X1}`)).not.toBeNull();
    expect(embeddableLogo('https://cdn.example.com/logo.png')).toBeNull();
  });

  it.each([
    [
      'an SVG data URL',
      `data:image/svg+xml;base64,${base64('<svg xmlns="http://www.w3.org/2000/svg"/>')}`,
      'A logo is a PNG or JPEG image',
    ],
    [
      'a URL-encoded SVG',
      `data:image/svg+xml,${encodeURIComponent('<svg onload="alert(1)"/>')}`,
      'A logo is a PNG or JPEG image',
    ],
    [
      'a 1 MB PNG',
      `data:image/png;base64,${base64Of(PNG_MAGIC, 1_000_000)}`,
      'A logo is at most 256 KiB',
    ],
    [
      'a PNG one byte over 256 KiB',
      `data:image/png;base64,${base64Of(PNG_MAGIC, MAX_LOGO_BYTES + 1)}`,
      'A logo is at most 256 KiB',
    ],
    [
      'bad base64 (characters outside the alphabet)',
      `data:image/png;base64,${PNG_1X1.slice(0, 20)}*!${PNG_1X1.slice(22)}`,
      'The logo’s image data is not valid base64',
    ],
    [
      'bad base64 (a length that is not a multiple of 4)',
      `data:image/png;base64,${PNG_1X1.replace(/=+$/, '')}A`,
      'The logo’s image data is not valid base64',
    ],
    [
      'padding in the middle',
      `data:image/png;base64,iVBO=w0KGgo${PNG_1X1}`,
      'The logo’s image data is not valid base64',
    ],
    ['empty image data', 'data:image/png;base64,', 'The logo’s image data is not valid base64'],
    [
      'a JPEG called a PNG',
      `data:image/png;base64,${base64Of(JPEG_MAGIC, 100)}`,
      'The logo’s data is not a PNG image',
    ],
    [
      'text called a JPEG',
      `data:image/jpeg;base64,${base64('hello, world')}`,
      'The logo’s data is not a JPEG image',
    ],
    ['a GIF', 'data:image/gif;base64,R0lGODlhAQABAAAAACw=', 'A logo is a PNG or JPEG image'],
    ['a data URL that is not base64', `data:image/png,${PNG_1X1}`, 'A logo is a PNG or JPEG image'],
    [
      'a javascript: URL',
      'javascript:alert(document.cookie)',
      'A logo is an https:// address or a PNG or JPEG image',
    ],
    [
      'an http address',
      'http://169.254.169.254/latest/meta-data',
      'A logo is an https:// address or a PNG or JPEG image',
    ],
    ['an https prefix that is no address', 'https://', 'Must be a web address'],
  ])('refuses %s', (_, value, message) => {
    expect(parse(value).success).toBe(false);
    expect(messages(value)).toContain(message);
  });

  it('refuses what is not text', () => {
    expect(parse(42).success).toBe(false);
    expect(parse({ url: 'https://x.test' }).success).toBe(false);
  });

  it('explains each problem with logoUrlProblem', () => {
    expect(logoUrlProblem(`data:image/png;base64,${PNG_1X1}`)).toBeNull();
    expect(logoUrlProblem('data:text/html;base64,PGI+aGk8L2I+')).toBe(
      'A logo is a PNG or JPEG image',
    );
  });
});
