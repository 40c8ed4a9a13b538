import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ForgotPasswordScreen } from './forgot-password-screen.tsx';
import { createFakeClient, createFakeServices, renderScreen } from './screen-test-utils.tsx';

afterEach(cleanup);

describe('ForgotPasswordScreen', () => {
  it('mails a link to /reset-password and says so without revealing accounts', async () => {
    const client = createFakeClient();
    renderScreen(<ForgotPasswordScreen initialEmail="ada@example.com" />, {
      services: createFakeServices(client),
    });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(client.resetPasswordForEmail).toHaveBeenCalledWith('ada@example.com', {
      redirectTo: 'https://satchel.test/reset-password',
    });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Check your email');
    expect(screen.getByText(/If/).textContent).toContain('has a Satchel account');
    expect(screen.getByRole('button', { name: /Send it again in \d+ s/ })).toBeTruthy();
  });

  it('checks the address first', async () => {
    const client = createFakeClient();
    renderScreen(<ForgotPasswordScreen />, { services: createFakeServices(client) });
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByText('Enter a valid email address')).toBeTruthy();
    expect(client.resetPasswordForEmail).not.toHaveBeenCalled();
  });

  it('with a captcha configured, asks for the human check and sends its single-use token', async () => {
    const client = createFakeClient();
    const rendered: { sitekey: string; callback: (token: string) => void }[] = [];
    const removed: string[] = [];
    // The edge: hCaptcha's script cannot load here; a fake widget API stands in for it.
    const loadCaptcha = () =>
      Promise.resolve({
        render: (_: HTMLElement, options: { sitekey: string; callback: (t: string) => void }) => {
          rendered.push(options);
          return `widget-${rendered.length}`;
        },
        reset: () => undefined,
        remove: (id?: string) => void removed.push(id ?? ''),
      });
    renderScreen(
      <ForgotPasswordScreen initialEmail="ada@example.com" loadCaptcha={loadCaptcha} />,
      {
        services: { ...createFakeServices(client), captchaSiteKey: 'site-key-1' },
      },
    );
    const user = userEvent.setup();
    await screen.findByRole('group', { name: 'Human check' });
    await waitFor(() => expect(rendered).toHaveLength(1));
    expect(rendered[0]?.sitekey).toBe('site-key-1');

    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByText('Complete the human check first.')).toBeTruthy();
    expect(client.resetPasswordForEmail).not.toHaveBeenCalled();

    act(() => rendered[0]?.callback('token-abc'));
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(client.resetPasswordForEmail).toHaveBeenCalledWith('ada@example.com', {
      redirectTo: 'https://satchel.test/reset-password',
      captchaToken: 'token-abc',
    });
    // Used once: the widget is replaced by a fresh one for any next attempt.
    await waitFor(() => expect(removed).toContain('widget-1'));
  });

  it('says so when the human check cannot load, and retries', async () => {
    let calls = 0;
    const loadCaptcha = () => {
      calls += 1;
      return Promise.reject(new Error('offline'));
    };
    renderScreen(<ForgotPasswordScreen loadCaptcha={loadCaptcha} />, {
      services: { ...createFakeServices(createFakeClient()), captchaSiteKey: 'k' },
    });
    expect((await screen.findByRole('alert')).textContent).toContain('could not load');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls).toBe(2));
  });
});
