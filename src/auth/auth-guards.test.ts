import { describe, expect, it } from 'vitest';
import type { AuthState } from './auth-controller.ts';
import { guestOnlyRedirect, signedInRedirect } from './auth-guards.ts';

const loading: AuthState = { status: 'loading' };
const signedOut: AuthState = { status: 'unauthenticated' };
const signedIn: AuthState = {
  status: 'authenticated',
  user: { id: 'u1', email: 'ada@example.com', displayName: 'Ada', role: 'admin' },
};

describe('guestOnlyRedirect', () => {
  it('lets a signed-out visitor stay', () => {
    expect(guestOnlyRedirect(signedOut, { returnTo: '/projects' })).toBeNull();
  });

  it('does not decide while auth is loading', () => {
    expect(guestOnlyRedirect(loading, {})).toBeNull();
  });

  it('sends a signed-in user to /dashboard by default', () => {
    expect(guestOnlyRedirect(signedIn, {})).toBe('/dashboard');
    expect(guestOnlyRedirect(signedIn, { returnTo: undefined })).toBe('/dashboard');
  });

  it('sends a signed-in user to a same-origin returnTo', () => {
    expect(guestOnlyRedirect(signedIn, { returnTo: '/projects?tab=mine' })).toBe(
      '/projects?tab=mine',
    );
  });

  it.each(['//evil.com', '/\\evil.com', 'https://evil.com', 'javascript:alert(1)'])(
    'ignores the open redirect %s',
    (returnTo) => {
      expect(guestOnlyRedirect(signedIn, { returnTo })).toBe('/dashboard');
    },
  );
});

describe('guestOnlyRedirect during a password recovery', () => {
  const recovering: AuthState = {
    status: 'authenticated',
    user: { id: 'u1', email: 'ada@example.com', displayName: 'Ada', role: 'admin' },
    passwordRecovery: true,
  };

  it('lets the recovering user stay on /reset-password', () => {
    expect(guestOnlyRedirect(recovering, {}, '/reset-password')).toBeNull();
  });

  it('still sends them on from the other guest pages', () => {
    expect(guestOnlyRedirect(recovering, {}, '/login')).toBe('/dashboard');
  });

  it('does not open /reset-password to a user who is simply signed in', () => {
    expect(guestOnlyRedirect(signedIn, {}, '/reset-password')).toBe('/dashboard');
  });

  it('keeps a visitor who owes the second factor on guest pages', () => {
    expect(
      guestOnlyRedirect({ status: 'unauthenticated', pendingMfa: true }, {}, '/login'),
    ).toBeNull();
  });
});

describe('signedInRedirect', () => {
  const location = { pathname: '/projects/p1/c1', searchStr: '?tab=files' };

  it('lets a signed-in user stay', () => {
    expect(signedInRedirect(signedIn, location)).toBeNull();
  });

  it('does not decide while auth is loading', () => {
    expect(signedInRedirect(loading, location)).toBeNull();
  });

  it('sends a signed-out visitor to /login with the path and query as returnTo', () => {
    expect(signedInRedirect(signedOut, location)).toEqual({
      to: '/login',
      search: { returnTo: '/projects/p1/c1?tab=files' },
    });
  });

  it('sends a visitor who still owes the second factor to /login', () => {
    expect(signedInRedirect({ status: 'unauthenticated', pendingMfa: true }, location)).toEqual({
      to: '/login',
      search: { returnTo: '/projects/p1/c1?tab=files' },
    });
  });

  it('works without a query', () => {
    expect(signedInRedirect(signedOut, { pathname: '/dashboard', searchStr: '' })).toEqual({
      to: '/login',
      search: { returnTo: '/dashboard' },
    });
  });
});
