import { describe, expect, it } from 'vitest';
import { portalCookie, portalCookieToken } from './portal-sessions.ts';

const token = 'A'.repeat(43);

describe('portalCookie', () => {
  it('is httpOnly, SameSite=Strict, scoped to the portal calls, for 12 hours', () => {
    expect(portalCookie(token, false)).toBe(
      `satchel_portal=${token}; Path=/api/client-portal; HttpOnly; SameSite=Strict; Max-Age=43200`,
    );
  });

  it('is Secure when the app is served over https', () => {
    expect(portalCookie(token, true).split('; ')).toContain('Secure');
  });

  it('clears itself with Max-Age=0', () => {
    expect(portalCookie(null, true)).toMatch(/^satchel_portal=; .*Max-Age=0; Secure$/);
  });
});

describe('portalCookieToken', () => {
  it('finds the portal cookie among others', () => {
    expect(portalCookieToken(`a=1; satchel_portal=${token}; b=2`)).toBe(token);
  });

  it('is null without one, or with an empty one', () => {
    expect(portalCookieToken(undefined)).toBeNull();
    expect(portalCookieToken('satchel_portalx=1; a=2')).toBeNull();
    expect(portalCookieToken('satchel_portal=')).toBeNull();
  });
});
