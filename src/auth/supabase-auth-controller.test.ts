import { describe, expect, it, vi } from 'vitest';
import type { AuthClient } from './auth-client.ts';
import { createAuthLog } from './auth-log.ts';
import type { SessionUser } from './auth-session.ts';
import { createFakeAuthEvents, fakeJwt, fakeSession, verifiedTotp } from './auth-test-fakes.ts';
import {
  createSupabaseAuthController,
  type SupabaseAuthControllerOptions,
} from './supabase-auth-controller.ts';

/** A controller over a fake client; deferred tasks run only when the test says so. */
function setup(
  options: Pick<SupabaseAuthControllerOptions, 'recoveryLanding' | 'signOutSteps'> = {},
) {
  const events = createFakeAuthEvents();
  const signOut = vi.fn(() => Promise.resolve({ error: null }));
  const client = {
    onAuthStateChange: (callback: Parameters<typeof events.onAuthStateChange>[0]) =>
      events.onAuthStateChange(callback),
    signOut,
  } as unknown as Pick<AuthClient, 'onAuthStateChange' | 'signOut'>;
  const deferred: (() => void)[] = [];
  const controller = createSupabaseAuthController({
    client,
    log: createAuthLog({ silent: true }),
    defer: (task) => {
      deferred.push(task);
      return () => deferred.splice(deferred.indexOf(task), 1);
    },
    ...options,
  });
  const listener = vi.fn();
  controller.subscribe(listener);
  const runDeferred = () => {
    for (const task of deferred.splice(0)) task();
  };
  return { controller, events, signOut, listener, runDeferred };
}

describe('createSupabaseAuthController', () => {
  it('is loading until the initial session is known', () => {
    const { controller, events, runDeferred } = setup();
    expect(controller.getState()).toEqual({ status: 'loading' });
    events.emit('INITIAL_SESSION', null);
    expect(controller.getState()).toEqual({ status: 'loading' });
    runDeferred();
    expect(controller.getState()).toEqual({ status: 'unauthenticated' });
  });

  it('turns a restored session into the session user of spec 3', () => {
    const { controller, events, runDeferred, listener } = setup();
    const session = fakeSession();
    events.emit('INITIAL_SESSION', session);
    runDeferred();
    expect(controller.getState()).toEqual({
      status: 'authenticated',
      user: {
        id: session.user.id,
        email: 'ada@example.com',
        displayName: 'Ada Lovelace',
        role: 'admin',
        accessToken: session.access_token,
      },
    });
    expect(controller.getSession()).toBe(session);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('reads the role from app metadata first, then user metadata', () => {
    const { controller, events } = setup();
    events.emit(
      'SIGNED_IN',
      fakeSession({
        appMetadata: { provider: 'email', role: 'member' },
        userMetadata: { role: 'owner' },
      }),
    );
    const state = controller.getState();
    expect(state.status === 'authenticated' && state.user.role).toBe('member');
    events.emit('USER_UPDATED', fakeSession({ userMetadata: { role: 'owner' } }));
    const next = controller.getState();
    expect(next.status === 'authenticated' && next.user.role).toBe('owner');
  });

  it('refuses a session without refresh token or expiry (spec 5)', () => {
    const { controller, events } = setup();
    events.emit('SIGNED_IN', { ...fakeSession(), refresh_token: '' });
    expect(controller.getState()).toEqual({ status: 'unauthenticated' });
    events.emit('SIGNED_IN', { ...fakeSession(), expires_at: 0 });
    expect(controller.getState()).toEqual({ status: 'unauthenticated' });
    expect(controller.getSession()).toBeNull();
  });

  it('follows sign-in and sign-out, and keeps the state object while nothing changes', () => {
    const { controller, events, listener } = setup();
    const session = fakeSession();
    events.emit('SIGNED_IN', session);
    const signedIn = controller.getState();
    expect(signedIn.status).toBe('authenticated');
    // A focus-triggered SIGNED_IN with the same session changes nothing.
    events.emit('SIGNED_IN', session);
    expect(controller.getState()).toBe(signedIn);
    events.emit('SIGNED_OUT', null);
    expect(controller.getState()).toEqual({ status: 'unauthenticated' });
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('takes the new access token on TOKEN_REFRESHED', () => {
    const { controller, events } = setup();
    events.emit('SIGNED_IN', fakeSession({ token: fakeJwt({ aal: 'aal1', n: 1 }) }));
    const refreshed = fakeSession({ token: fakeJwt({ aal: 'aal1', n: 2 }) });
    events.emit('TOKEN_REFRESHED', refreshed);
    const state = controller.getState();
    expect(state.status === 'authenticated' && (state.user as SessionUser).accessToken).toBe(
      refreshed.access_token,
    );
  });

  it('updates the display name on USER_UPDATED', () => {
    const { controller, events } = setup();
    events.emit('SIGNED_IN', fakeSession());
    events.emit('USER_UPDATED', fakeSession({ userMetadata: { display_name: 'Ada King' } }));
    const state = controller.getState();
    expect(state.status === 'authenticated' && state.user.displayName).toBe('Ada King');
  });

  it('holds an aal1 session of an account with a verified factor until MFA is verified', () => {
    const { controller, events } = setup();
    events.emit('SIGNED_IN', fakeSession({ aal: 'aal1', factors: [verifiedTotp] }));
    expect(controller.getState()).toEqual({ status: 'unauthenticated', pendingMfa: true });
    expect(controller.getSession()).not.toBeNull();
    events.emit('MFA_CHALLENGE_VERIFIED', fakeSession({ aal: 'aal2', factors: [verifiedTotp] }));
    expect(controller.getState().status).toBe('authenticated');
  });

  it('ignores unverified factors', () => {
    const { controller, events } = setup();
    events.emit(
      'SIGNED_IN',
      fakeSession({ aal: 'aal1', factors: [{ ...verifiedTotp, status: 'unverified' }] }),
    );
    expect(controller.getState().status).toBe('authenticated');
  });

  it('marks a PASSWORD_RECOVERY session until the user is updated', () => {
    const { controller, events } = setup();
    events.emit('PASSWORD_RECOVERY', fakeSession());
    expect(controller.getState()).toMatchObject({
      status: 'authenticated',
      passwordRecovery: true,
    });
    // Tab focus re-announces the same user: still recovering.
    events.emit('SIGNED_IN', fakeSession());
    expect(controller.getState()).toMatchObject({ passwordRecovery: true });
    events.emit('USER_UPDATED', fakeSession());
    expect(controller.getState()).not.toHaveProperty('passwordRecovery');
  });

  it('lets PASSWORD_RECOVERY that follows INITIAL_SESSION win (supabase-js order)', () => {
    const { controller, events, runDeferred, listener } = setup();
    const session = fakeSession();
    events.emit('INITIAL_SESSION', session);
    events.emit('PASSWORD_RECOVERY', session);
    runDeferred();
    expect(controller.getState()).toMatchObject({
      status: 'authenticated',
      passwordRecovery: true,
    });
    // Never published a plain sign-in in between.
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('treats the first session of a reset-link landing as a recovery', () => {
    const { controller, events, runDeferred } = setup({ recoveryLanding: true });
    events.emit('INITIAL_SESSION', fakeSession());
    runDeferred();
    expect(controller.getState()).toMatchObject({ passwordRecovery: true });
  });

  it('keeps the recovery through the second-factor step', () => {
    const { controller, events } = setup();
    events.emit('PASSWORD_RECOVERY', fakeSession({ aal: 'aal1', factors: [verifiedTotp] }));
    expect(controller.getState()).toEqual({ status: 'unauthenticated', pendingMfa: true });
    events.emit('MFA_CHALLENGE_VERIFIED', fakeSession({ aal: 'aal2', factors: [verifiedTotp] }));
    expect(controller.getState()).toMatchObject({
      status: 'authenticated',
      passwordRecovery: true,
    });
  });

  it('signs out this device only and is signed out even when the server call fails', async () => {
    const { controller, events, signOut } = setup();
    events.emit('SIGNED_IN', fakeSession());
    signOut.mockResolvedValueOnce({ error: new Error('offline') } as never);
    await controller.signOut();
    expect(signOut).toHaveBeenCalledWith({ scope: 'local' });
    expect(controller.getState()).toEqual({ status: 'unauthenticated' });
  });

  it('with its steps, forgets the stored session (held through supabase-js sign-out), then tells the server a task later', async () => {
    const order: string[] = [];
    const { controller, events, signOut, listener, runDeferred } = setup({
      signOutSteps: {
        forgetStoredSession: () => {
          order.push('forget');
          return () => order.push('release');
        },
        endOnServer: (token) => {
          order.push(`server ${token}`);
          return Promise.resolve();
        },
      },
    });
    const session = fakeSession();
    events.emit('SIGNED_IN', session);
    signOut.mockImplementationOnce(() => {
      order.push('supabase-js');
      return Promise.resolve({ error: null });
    });
    listener.mockImplementation(() => order.push(`state ${controller.getState().status}`));
    const done = controller.signOut();
    await vi.waitFor(() => expect(order).toContain('state unauthenticated'));
    // The server is told only once the app has left the signed-in screens (a later task).
    expect(order).toEqual(['forget', 'supabase-js', 'release', 'state unauthenticated']);
    runDeferred();
    await done;
    expect(order).toEqual([
      'forget',
      'supabase-js',
      'release',
      'state unauthenticated',
      `server ${session.access_token}`,
    ]);
  });

  it('signs out here even when the stored session cannot be removed', async () => {
    const endOnServer = vi.fn(() => Promise.resolve());
    const { controller, events, runDeferred } = setup({
      signOutSteps: {
        forgetStoredSession: () => {
          throw new Error('SecurityError');
        },
        endOnServer,
      },
    });
    events.emit('SIGNED_IN', fakeSession());
    const done = controller.signOut();
    await vi.waitFor(() => expect(controller.getState()).toEqual({ status: 'unauthenticated' }));
    runDeferred();
    await done;
    expect(endOnServer).toHaveBeenCalledTimes(1);
  });

  it('survives a malformed token', () => {
    const { controller, events } = setup();
    events.emit('SIGNED_IN', fakeSession({ token: 'not-a-jwt' }));
    expect(controller.getState().status).toBe('authenticated');
  });

  it('unsubscribes and cancels pending work on dispose', () => {
    const { controller, events, runDeferred, listener } = setup();
    events.emit('INITIAL_SESSION', fakeSession());
    controller.dispose();
    runDeferred();
    expect(events.subscriberCount).toBe(0);
    expect(listener).not.toHaveBeenCalled();
  });
});
