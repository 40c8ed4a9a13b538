import { cleanup, screen } from '@testing-library/react';
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
});
