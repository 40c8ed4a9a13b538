import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmRegistrationScreen } from './confirm-registration-screen.tsx';
import {
  createFakeClient,
  createFakeServices,
  renderScreen,
  signedIn,
} from './screen-test-utils.tsx';

afterEach(cleanup);

describe('ConfirmRegistrationScreen', () => {
  it('registers, then goes to the safe returnTo', async () => {
    const ensureRegistered = vi.fn(() => Promise.resolve({ workspace: null }));
    const onDone = vi.fn();
    renderScreen(<ConfirmRegistrationScreen returnTo="/clients?tab=new" onDone={onDone} />, {
      auth: signedIn,
      services: createFakeServices(createFakeClient(), { ensureRegistered }),
    });
    expect(screen.getByText('Setting up your profile and workspace...')).toBeTruthy();
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('/clients?tab=new'));
  });

  it('goes to /dashboard by default and for an off-site returnTo', async () => {
    const onDone = vi.fn();
    renderScreen(<ConfirmRegistrationScreen returnTo="//evil.example" onDone={onDone} />, {
      auth: signedIn,
      services: createFakeServices(createFakeClient()),
    });
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('/dashboard'));
  });

  it('shows a failure with a retry and stays', async () => {
    const ensureRegistered = vi
      .fn()
      .mockRejectedValueOnce(Object.assign(new Error('Something went wrong!'), { status: 500 }))
      .mockResolvedValueOnce({ workspace: null });
    const onDone = vi.fn();
    renderScreen(<ConfirmRegistrationScreen onDone={onDone} />, {
      auth: signedIn,
      services: createFakeServices(createFakeClient(), { ensureRegistered }),
    });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'We could not finish setting up your account. Something went wrong!',
    );
    expect(onDone).not.toHaveBeenCalled();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('/dashboard'));
  });
});
