import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  authError,
  createFakeClient,
  createFakeServices,
  renderScreen,
} from './screen-test-utils.tsx';
import { SignupScreen } from './signup-screen.tsx';

vi.mock('./use-preload-app-routes.ts', () => ({ usePreloadAppRoutes: () => undefined }));

afterEach(cleanup);

const rule = (name: RegExp) => screen.getByText(name).closest('li')?.dataset['state'];

async function fill(user: ReturnType<typeof userEvent.setup>, password: string) {
  await user.type(screen.getByRole('textbox', { name: 'First name' }), 'Ada');
  await user.type(screen.getByRole('textbox', { name: 'Last name' }), 'Lovelace');
  await user.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@example.com');
  await user.type(screen.getByLabelText('Password', { selector: 'input' }), password);
}

describe('SignupScreen', () => {
  it('ticks the length rule as the password is typed', async () => {
    renderScreen(<SignupScreen onSignedUp={vi.fn()} />, {
      services: createFakeServices(createFakeClient()),
    });
    const user = userEvent.setup();
    const password = screen.getByLabelText('Password', { selector: 'input' });
    await user.type(password, 'short');
    expect(rule(/At least 8 characters/)).toBe('unmet');
    await user.type(password, 'er-one');
    expect(rule(/At least 8 characters/)).toBe('met');
    expect(rule(/Not a commonly used password/)).toBe('pending');
    // The rules describe the field for screen readers.
    const describedBy = password.getAttribute('aria-describedby') ?? '';
    expect(describedBy).not.toBe('');
  });

  it('requires names and a long enough password', async () => {
    const client = createFakeClient();
    renderScreen(<SignupScreen onSignedUp={vi.fn()} />, { services: createFakeServices(client) });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByText('Enter your first name')).toBeTruthy();
    expect(screen.getByText('Enter your last name')).toBeTruthy();
    expect(screen.getByText('Use at least 8 characters')).toBeTruthy();
    expect(client.signUp).not.toHaveBeenCalled();
  });

  it('signs up with the names in the metadata and goes to check the inbox', async () => {
    const client = createFakeClient();
    const onSignedUp = vi.fn();
    renderScreen(<SignupScreen returnTo="/clients" onSignedUp={onSignedUp} />, {
      services: createFakeServices(client),
    });
    const user = userEvent.setup();
    await fill(user, 'amber-otter-lantern');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(onSignedUp).toHaveBeenCalledWith('ada@example.com'));
    expect(client.signUp).toHaveBeenCalledWith({
      email: 'ada@example.com',
      password: 'amber-otter-lantern',
      options: {
        emailRedirectTo: 'https://satchel.test/auth/confirm-registration?returnTo=%2Fclients',
        data: { first_name: 'Ada', last_name: 'Lovelace', display_name: 'Ada Lovelace' },
      },
    });
  });

  it('marks a common password refused by the server', async () => {
    const client = createFakeClient();
    client.signUp.mockResolvedValueOnce({
      data: { user: null, session: null },
      error: Object.assign(authError('weak_password', 422), {
        name: 'AuthWeakPasswordError',
        reasons: ['pwned'],
      }),
    } as never);
    const onSignedUp = vi.fn();
    renderScreen(<SignupScreen onSignedUp={onSignedUp} />, {
      services: createFakeServices(client),
    });
    const user = userEvent.setup();
    await fill(user, 'password123');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(
      await screen.findByText('Choose a stronger password: this password is too common.'),
    ).toBeTruthy();
    expect(rule(/Not a commonly used password/)).toBe('failed');
    expect(onSignedUp).not.toHaveBeenCalled();
  });

  it('points to sign-in when the account exists', async () => {
    const client = createFakeClient();
    client.signUp.mockResolvedValueOnce({
      data: { user: null, session: null },
      error: authError('user_already_exists', 422),
    } as never);
    renderScreen(<SignupScreen onSignedUp={vi.fn()} />, { services: createFakeServices(client) });
    const user = userEvent.setup();
    await fill(user, 'amber-otter-lantern');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'An account with this email already exists.',
    );
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toBeTruthy();
  });
});
