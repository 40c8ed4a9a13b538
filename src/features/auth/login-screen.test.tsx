import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { verifiedTotp } from '../../auth/auth-test-fakes.ts';
import { LoginScreen } from './login-screen.tsx';
import {
  authError,
  createFakeClient,
  createFakeServices,
  renderScreen,
} from './screen-test-utils.tsx';

vi.mock('./use-preload-app-routes.ts', () => ({ usePreloadAppRoutes: () => undefined }));

afterEach(cleanup);

async function fillAndSubmit(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(screen.getByRole('textbox', { name: 'Email' }), email);
  await user.type(screen.getByLabelText('Password', { selector: 'input' }), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

describe('LoginScreen', () => {
  it('shows field errors next to the fields and signs in with nothing', async () => {
    const client = createFakeClient();
    renderScreen(<LoginScreen />, { services: createFakeServices(client) });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in' }));

    const email = screen.getByRole('textbox', { name: 'Email' });
    expect(email.getAttribute('aria-invalid')).toBe('true');
    const describedBy = email.getAttribute('aria-describedby') ?? '';
    expect(describedBy.split(' ').map((id) => document.getElementById(id)?.textContent)).toContain(
      'Email is required',
    );
    expect(screen.getByText('Enter your password')).toBeTruthy();
    expect(client.signInWithPassword).not.toHaveBeenCalled();
  });

  it('says "Wrong email or password" and clears the password', async () => {
    const client = createFakeClient();
    client.signInWithPassword.mockResolvedValueOnce({
      data: { user: null, session: null },
      error: authError('invalid_credentials'),
    } as never);
    renderScreen(<LoginScreen />, { services: createFakeServices(client) });
    await fillAndSubmit('ada@example.com', 'nope-nope');

    expect((await screen.findByRole('alert')).textContent).toBe('Wrong email or password');
    expect(client.signInWithPassword).toHaveBeenCalledWith({
      email: 'ada@example.com',
      password: 'nope-nope',
      options: {},
    });
    expect(screen.getByLabelText<HTMLInputElement>('Password', { selector: 'input' }).value).toBe(
      '',
    );
  });

  it('ignores a second submit while the first is running', async () => {
    const client = createFakeClient();
    let finish: (value: unknown) => void = () => undefined;
    client.signInWithPassword.mockReturnValueOnce(
      new Promise((resolve) => (finish = resolve)) as never,
    );
    renderScreen(<LoginScreen />, { services: createFakeServices(client) });
    const user = await fillAndSubmit('ada@example.com', 'secret-secret');
    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('button', { name: /Signing in/ }));
    expect(client.signInWithPassword).toHaveBeenCalledTimes(1);
    finish({ data: { user: null, session: null }, error: null });
  });

  it('offers to resend the confirmation when the email is not confirmed', async () => {
    const client = createFakeClient();
    client.signInWithPassword.mockResolvedValueOnce({
      data: { user: null, session: null },
      error: authError('email_not_confirmed'),
    } as never);
    const onConfirmationResent = vi.fn();
    renderScreen(<LoginScreen onConfirmationResent={onConfirmationResent} />, {
      services: createFakeServices(client),
    });
    const user = await fillAndSubmit('ada@example.com', 'secret-secret');
    expect((await screen.findByRole('alert')).textContent).toContain('Confirm your email first');
    await user.click(screen.getByRole('button', { name: 'Resend the confirmation email' }));
    await waitFor(() => expect(onConfirmationResent).toHaveBeenCalledWith('ada@example.com'));
    expect(client.resend).toHaveBeenCalledWith({
      type: 'signup',
      email: 'ada@example.com',
      options: { emailRedirectTo: 'https://satchel.test/auth/confirm-registration' },
    });
  });

  it('says how long to wait after too many attempts and holds the button', async () => {
    const client = createFakeClient();
    client.signInWithPassword.mockResolvedValueOnce({
      data: { user: null, session: null },
      error: authError('over_request_rate_limit', 429),
    } as never);
    renderScreen(<LoginScreen />, {
      services: createFakeServices(client, { retryAfterSeconds: () => 40 }),
    });
    await fillAndSubmit('ada@example.com', 'secret-secret');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many attempts, try again in 40 s',
    );
    const button = screen.getByRole('button', { name: 'Try again in 40 s' });
    expect(button.hasAttribute('disabled')).toBe(true);
  });

  it('sends Google sign-ins through the registration page with returnTo', async () => {
    const client = createFakeClient();
    renderScreen(<LoginScreen returnTo="/projects?tab=mine" />, {
      services: createFakeServices(client, { googleEnabled: true }),
    });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Continue with Google' }));
    expect(client.signInWithOAuth).toHaveBeenCalledWith({
      provider: 'google',
      options: {
        redirectTo:
          'https://satchel.test/auth/confirm-registration?returnTo=%2Fprojects%3Ftab%3Dmine',
      },
    });
  });

  it('hides Google when the server does not offer it', () => {
    renderScreen(<LoginScreen />, { services: createFakeServices(createFakeClient()) });
    expect(screen.queryByRole('button', { name: 'Continue with Google' })).toBeNull();
  });

  it('says sign-in is unavailable when the server has no accounts service', async () => {
    renderScreen(<LoginScreen />, { services: null });
    await fillAndSubmit('ada@example.com', 'secret-secret');
    expect((await screen.findByRole('alert')).textContent).toMatch(/Sign-in isn't available/);
  });

  it('asks for the second factor when the session is still aal1', async () => {
    const client = createFakeClient();
    client.mfa.listFactors.mockResolvedValueOnce({
      data: { all: [verifiedTotp], totp: [verifiedTotp], phone: [], webauthn: [] },
      error: null,
    } as never);
    renderScreen(<LoginScreen />, {
      auth: { status: 'unauthenticated', pendingMfa: true },
      services: createFakeServices(client),
    });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(
      'Two-step verification',
    );
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'Verification code' }), '123 456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(client.mfa.challengeAndVerify).toHaveBeenCalledWith({
      factorId: verifiedTotp.id,
      code: '123456',
    });
  });

  it('shows a wrong second-factor code', async () => {
    const client = createFakeClient();
    client.mfa.listFactors.mockResolvedValueOnce({
      data: { all: [verifiedTotp], totp: [verifiedTotp], phone: [], webauthn: [] },
      error: null,
    } as never);
    client.mfa.challengeAndVerify.mockResolvedValueOnce({
      data: null,
      error: authError('mfa_verification_failed', 422),
    } as never);
    renderScreen(<LoginScreen />, {
      auth: { status: 'unauthenticated', pendingMfa: true },
      services: createFakeServices(client),
    });
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'Verification code' }), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'That code is not right. Check it and try again.',
    );
  });

  it('with a captcha configured, signs in only with a solved check and sends its token', async () => {
    const client = createFakeClient();
    const solve: ((token: string) => void)[] = [];
    const loadCaptcha = () =>
      Promise.resolve({
        render: (_: HTMLElement, options: { callback: (token: string) => void }) => {
          solve.push(options.callback);
          return `w${solve.length}`;
        },
        reset: () => undefined,
        remove: () => undefined,
      });
    renderScreen(<LoginScreen loadCaptcha={loadCaptcha} />, {
      services: createFakeServices(client, { captchaSiteKey: 'site' }),
    });
    await waitFor(() => expect(solve).toHaveLength(1));
    await fillAndSubmit('ada@example.com', 'amber-otter-lantern-42');
    expect(await screen.findByText('Complete the human check first.')).toBeTruthy();
    expect(client.signInWithPassword).not.toHaveBeenCalled();

    act(() => solve[0]?.('human-1'));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in' }));
    expect(client.signInWithPassword).toHaveBeenCalledWith({
      email: 'ada@example.com',
      password: 'amber-otter-lantern-42',
      options: { captchaToken: 'human-1' },
    });
  });
});
