/**
 * Test-only helpers for auth and settings screens: renders a screen with the auth state, the auth
 * services (a fake supabase auth client) and the toast slot it expects.
 */
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import type { AuthClient, AuthServices } from '../../auth/auth-client.ts';
import type { AuthController, AuthState } from '../../auth/auth-controller.ts';
import { createAuthLog } from '../../auth/auth-log.ts';
import { AuthProvider } from '../../auth/auth-provider.tsx';
import { AuthServicesProvider } from '../../auth/auth-services.tsx';
import { ToastProvider } from '../../ui/toast-provider.tsx';
import { createToaster } from '../../ui/toaster.ts';

export const signedOut: AuthState = { status: 'unauthenticated' };
export const signedIn: AuthState = {
  status: 'authenticated',
  user: {
    id: '8d0fd2b3-9ca7-4d9e-a95f-9e13dded323e',
    email: 'ada@example.com',
    displayName: 'Ada Lovelace',
    role: 'admin',
  },
};

/** An auth error shaped like supabase-js's AuthApiError. */
export function authError(code: string, status = 400, message = 'server says no') {
  return Object.assign(new Error(message), { name: 'AuthApiError', code, status });
}

const ok = <T,>(data: T) => Promise.resolve({ data, error: null });

/** A fake supabase auth client: every method resolves successfully unless a test overrides it. */
export function createFakeClient() {
  const mfa = {
    listFactors: vi.fn(() => ok({ all: [], totp: [], phone: [], webauthn: [] })),
    enroll: vi.fn(),
    challenge: vi.fn(() => ok({ id: 'challenge-1', type: 'phone', expires_at: 0 })),
    verify: vi.fn(() => ok({})),
    challengeAndVerify: vi.fn(() => ok({})),
    unenroll: vi.fn(() => ok({ id: 'factor-1' })),
    getAuthenticatorAssuranceLevel: vi.fn(),
  };
  const client = {
    onAuthStateChange: vi.fn(),
    getSession: vi.fn(() => ok({ session: null })),
    getUser: vi.fn(),
    signInWithPassword: vi.fn(() => ok({ user: null, session: null })),
    signInWithOAuth: vi.fn(() => ok({ provider: 'google', url: 'https://accounts.example' })),
    signUp: vi.fn(() => ok({ user: { id: 'u1' }, session: null })),
    signOut: vi.fn(() => Promise.resolve({ error: null })),
    resend: vi.fn(() => ok({ user: null, session: null })),
    resetPasswordForEmail: vi.fn(() => ok({})),
    updateUser: vi.fn(() => ok({ user: {} })),
    getUserIdentities: vi.fn(() => ok({ identities: [] })),
    linkIdentity: vi.fn(() => ok({ provider: 'google', url: 'https://accounts.example' })),
    unlinkIdentity: vi.fn(() => ok({})),
    mfa,
  };
  return client;
}

export type FakeClient = ReturnType<typeof createFakeClient>;

export function createFakeServices(
  client: FakeClient,
  overrides: Partial<AuthServices> = {},
): AuthServices {
  return {
    client: client as unknown as AuthClient,
    googleEnabled: false,
    captchaSiteKey: null,
    retryAfterSeconds: () => null,
    redirectUrl: (pathAndQuery) => `https://satchel.test${pathAndQuery}`,
    ensureRegistered: () => Promise.resolve({ workspace: null }),
    log: createAuthLog({ silent: true }),
    ...overrides,
  };
}

function staticController(state: AuthState): AuthController {
  return {
    getState: () => state,
    subscribe: () => () => undefined,
    signOut: () => Promise.resolve(),
    dispose: () => undefined,
  };
}

export function renderScreen(
  ui: ReactElement,
  options: { auth?: AuthState; services?: AuthServices | null } = {},
) {
  const toaster = createToaster();
  const result = render(
    <AuthServicesProvider services={options.services ?? null}>
      <ToastProvider toaster={toaster}>
        <AuthProvider controller={staticController(options.auth ?? signedOut)}>{ui}</AuthProvider>
      </ToastProvider>
    </AuthServicesProvider>,
  );
  return { ...result, toaster };
}
