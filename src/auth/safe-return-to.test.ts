import { describe, expect, it } from 'vitest';
import { defaultReturnTo, safeReturnTo } from './safe-return-to.ts';

describe('safeReturnTo', () => {
  it.each([
    '/dashboard',
    '/projects',
    '/projects/0190f3a4-1b2c-7d8e-9f00-112233445566/0190f3a4-1b2c-7d8e-9f00-aabbccddeeff',
    '/projects?status=active&sort=due',
    '/clients/42#notes',
    '/settings?tab=billing%20and%20plans',
    '/search?q=a%2Fb',
  ])('keeps the same-origin path %s', (path) => {
    expect(safeReturnTo(path)).toBe(path);
  });

  it.each([
    ['protocol-relative URL', '//evil.com'],
    ['protocol-relative URL with a path', '//evil.com/dashboard'],
    ['three slashes', '///evil.com'],
    ['slash then backslash', '/\\evil.com'],
    ['backslash then slash', '\\/evil.com'],
    ['two backslashes', '\\\\evil.com'],
    ['backslash later in the path', '/ok\\..\\\\evil.com'],
    ['absolute https URL', 'https://evil.com'],
    ['absolute URL in upper case', 'HTTPS://evil.com/dashboard'],
    ['javascript: URL', 'javascript:alert(1)'],
    ['javascript: URL with spaces and case', ' JavaScript:alert(1)'],
    ['data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['encoded protocol-relative URL', '%2F%2Fevil.com'],
    ['path with encoded slashes that decode to //', '/%2F%2Fevil.com'],
    ['path with encoded slash after the first', '/%2Fevil.com'],
    ['path with encoded backslash', '/%5Cevil.com'],
    ['double-encoded slashes', '/%252F%252Fevil.com'],
    ['tab inside the leading slashes', '/\t/evil.com'],
    ['newline inside the leading slashes', '/\n/evil.com'],
    ['carriage return', '/\r/evil.com'],
    ['encoded tab', '/%09/evil.com'],
    ['encoded newline', '/%0A/evil.com'],
    ['encoded CRLF', '/%0D%0A//evil.com'],
    ['NUL byte', '/dashboard\u0000'],
    ['DEL character', '/dash\u007fboard'],
    ['relative path', 'dashboard'],
    ['host only', 'evil.com'],
    ['leading space', ' /dashboard'],
    ['empty string', ''],
    ['malformed percent-encoding', '/dashboard%'],
    ['overly long value', `/${'a'.repeat(3000)}`],
  ])('refuses a %s', (_name, value) => {
    expect(safeReturnTo(value)).toBe(defaultReturnTo);
  });

  it.each([undefined, null, 42, ['/projects'], { href: '/projects' }])(
    'refuses a non-string value %j',
    (value) => {
      expect(safeReturnTo(value)).toBe('/dashboard');
    },
  );
});
