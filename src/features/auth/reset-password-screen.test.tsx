import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ResetPasswordScreen } from './reset-password-screen.tsx';
import {
  createFakeClient,
  createFakeServices,
  renderScreen,
  signedIn,
  signedOut,
} from './screen-test-utils.tsx';

afterEach(cleanup);

const recovering = { ...signedIn, passwordRecovery: true } as const;

describe('ResetPasswordScreen', () => {
  it('lets a recovering user choose a new password', async () => {
    const client = createFakeClient();
    const { toaster } = renderScreen(<ResetPasswordScreen />, {
      auth: recovering,
      services: createFakeServices(client),
    });
    expect(screen.getByText('ada@example.com')).toBeTruthy();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New password', { selector: 'input' }), 'violet-harbour');
    await user.type(
      screen.getByLabelText('Repeat the new password', { selector: 'input' }),
      'violet-harbor',
    );
    await user.click(screen.getByRole('button', { name: 'Save the new password' }));
    expect(screen.getByText('The passwords do not match')).toBeTruthy();
    expect(client.updateUser).not.toHaveBeenCalled();

    await user.type(
      screen.getByLabelText('Repeat the new password', { selector: 'input' }),
      '{Backspace}ur',
    );
    await user.click(screen.getByRole('button', { name: 'Save the new password' }));
    expect(client.updateUser).toHaveBeenCalledWith({ password: 'violet-harbour' });
    await waitFor(() =>
      expect(toaster.getCurrent()?.message).toBe('Your password is changed. Welcome back!'),
    );
  });

  it('explains the page to a visitor without a reset link', () => {
    renderScreen(<ResetPasswordScreen />, {
      auth: signedOut,
      services: createFakeServices(createFakeClient()),
    });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Choose a new password');
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe(
      '/forgot-password',
    );
  });

  it('asks for the second factor first when the account has one', async () => {
    renderScreen(<ResetPasswordScreen />, {
      auth: { status: 'unauthenticated', pendingMfa: true },
      services: createFakeServices(createFakeClient()),
    });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe("Verify it's you");
  });
});
