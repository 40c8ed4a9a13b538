/**
 * Fakes shared by the auth unit tests: sessions with a real-looking JWT and a supabase auth client
 * whose state-change callback the test drives. Test-only: imported from *.test.ts(x) files.
 */
import type { AuthChangeEvent, Factor, Session, User } from '@supabase/supabase-js';

function base64Url(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fakeJwt(claims: Record<string, unknown>): string {
  return `${base64Url({ alg: 'ES256', kid: 'k1', typ: 'JWT' })}.${base64Url(claims)}.c2lnbmF0dXJl`;
}

export interface FakeSessionOptions {
  id?: string;
  email?: string;
  aal?: 'aal1' | 'aal2';
  factors?: Factor[];
  userMetadata?: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
  token?: string;
}

export function fakeUser(options: FakeSessionOptions = {}): User {
  return {
    id: options.id ?? '8d0fd2b3-9ca7-4d9e-a95f-9e13dded323e',
    aud: 'authenticated',
    role: 'authenticated',
    email: options.email ?? 'ada@example.com',
    app_metadata: options.appMetadata ?? { provider: 'email', providers: ['email'] },
    user_metadata: options.userMetadata ?? { display_name: 'Ada Lovelace' },
    created_at: '2026-01-01T00:00:00Z',
    ...(options.factors ? { factors: options.factors } : {}),
  };
}

export function fakeSession(options: FakeSessionOptions = {}): Session {
  const user = fakeUser(options);
  return {
    access_token:
      options.token ?? fakeJwt({ sub: user.id, aal: options.aal ?? 'aal1', role: 'authenticated' }),
    refresh_token: 'refresh-token-1',
    token_type: 'bearer',
    expires_in: 3600,
    expires_at: Math.round(Date.now() / 1000) + 3600,
    user,
  };
}

export const verifiedTotp: Factor = {
  id: 'f1d9c0de-0000-4000-8000-000000000001',
  friendly_name: 'Authenticator app',
  factor_type: 'totp',
  status: 'verified',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

type Callback = (event: AuthChangeEvent, session: Session | null) => void | Promise<void>;

/** The auth-state half of a supabase auth client: the test emits events by hand. */
export function createFakeAuthEvents() {
  const callbacks = new Set<Callback>();
  return {
    onAuthStateChange(callback: Callback) {
      callbacks.add(callback);
      return {
        data: {
          subscription: {
            id: 'sub-1',
            callback,
            unsubscribe: () => callbacks.delete(callback),
          },
        },
      };
    },
    emit(event: AuthChangeEvent, session: Session | null) {
      for (const callback of callbacks) void callback(event, session);
    },
    get subscriberCount() {
      return callbacks.size;
    },
  };
}
