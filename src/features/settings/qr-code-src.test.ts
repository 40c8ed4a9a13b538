import { describe, expect, it } from 'vitest';
import { groupSecret, qrCodeImageSrc } from './qr-code-src.ts';

const svg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path fill="#000" d="M0 0h1v1H0z"/></svg>';

describe('qrCodeImageSrc', () => {
  it('re-encodes the SVG supabase-js prefixed', () => {
    const src = qrCodeImageSrc(`data:image/svg+xml;utf-8,${svg}`);
    expect(src).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    expect(src).not.toContain('#');
  });

  it('accepts raw SVG and base64 data URLs', () => {
    expect(qrCodeImageSrc(svg)).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
    expect(qrCodeImageSrc('data:image/svg+xml;base64,PHN2Zz4=')).toBe(
      'data:image/svg+xml;base64,PHN2Zz4=',
    );
  });

  it('refuses anything that is not SVG', () => {
    expect(qrCodeImageSrc('javascript:alert(1)')).toBeNull();
    expect(qrCodeImageSrc('data:text/html,<script>alert(1)</script>')).toBeNull();
    expect(qrCodeImageSrc('<img src=x onerror=alert(1)>')).toBeNull();
  });
});

describe('groupSecret', () => {
  it('groups by four', () => {
    expect(groupSecret('JBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP');
    expect(groupSecret('ABCDE')).toBe('ABCD E');
  });
});
