import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { getUserProfile, updateUserProfile } from '#contract/endpoints/user.ts';
import {
  createFakeClient,
  createFakeServices,
  renderScreen,
  signedIn,
} from '../auth/screen-test-utils.tsx';
import { ProfileSettings } from './profile-settings.tsx';

afterEach(cleanup);

const user = signedIn.status === 'authenticated' ? signedIn.user : null;
const profile = {
  id: user!.id,
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  profilePictureUrl: null,
};

describe('ProfileSettings', () => {
  it('loads the profile, checks the picture URL and saves the names', async () => {
    const callEndpoint = vi.fn((endpoint: { operation: string }, input: { body?: object }) =>
      Promise.resolve(
        endpoint.operation === 'get-user-profile'
          ? { user: profile }
          : { user: { ...profile, ...input.body } },
      ),
    );
    const client = createFakeClient();
    const { toaster } = renderScreen(
      <ProfileSettings user={user!} callEndpoint={callEndpoint as unknown as CallEndpoint} />,
      { auth: signedIn, services: createFakeServices(client) },
    );
    const first = await screen.findByRole('textbox', { name: 'First name' });
    expect(callEndpoint).toHaveBeenCalledWith(getUserProfile, { query: { id: user!.id } });
    expect((first as HTMLInputElement).value).toBe('Ada');

    const u = userEvent.setup();
    await u.type(screen.getByRole('textbox', { name: 'Picture URL' }), 'javascript:alert(1)');
    await u.click(screen.getByRole('button', { name: 'Save profile' }));
    const picture = screen.getByRole('textbox', { name: 'Picture URL' });
    expect(picture.getAttribute('aria-invalid')).toBe('true');
    expect(callEndpoint).toHaveBeenCalledTimes(1);

    await u.clear(picture);
    await u.clear(first);
    await u.type(first, 'Augusta Ada');
    await u.click(screen.getByRole('button', { name: 'Save profile' }));
    await waitFor(() =>
      expect(callEndpoint).toHaveBeenCalledWith(updateUserProfile, {
        query: { id: user!.id },
        body: { firstName: 'Augusta Ada', lastName: 'Lovelace', profilePictureUrl: null },
      }),
    );
    await waitFor(() => expect(toaster.getCurrent()?.message).toBe('Profile saved'));
    expect(client.updateUser).toHaveBeenCalledWith({
      data: {
        display_name: 'Augusta Ada Lovelace',
        first_name: 'Augusta Ada',
        last_name: 'Lovelace',
      },
    });
  });

  it('refuses a blank first name in place, focused, and sends nothing', async () => {
    const callEndpoint = vi.fn(() => Promise.resolve({ user: profile }));
    renderScreen(<ProfileSettings user={user!} callEndpoint={callEndpoint} />, {
      auth: signedIn,
      services: createFakeServices(createFakeClient()),
    });
    const first = await screen.findByRole('textbox', { name: 'First name' });
    const u = userEvent.setup();
    await u.clear(first);
    await u.type(first, '   ');
    await u.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('Enter your first name')).toBeTruthy();
    expect(first.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(first));
    expect(callEndpoint).toHaveBeenCalledTimes(1); // the load only
  });

  it('offers to finish registration when there is no profile yet', async () => {
    const callEndpoint = vi.fn(() =>
      Promise.reject(Object.assign(new Error('No'), { status: 404 })),
    );
    renderScreen(<ProfileSettings user={user!} callEndpoint={callEndpoint} />, {
      auth: signedIn,
      services: createFakeServices(createFakeClient()),
    });
    const link = await screen.findByRole('link', { name: 'Finish setting up' });
    expect(link.getAttribute('href')).toBe('/auth/confirm-registration?returnTo=%2Fsettings');
  });
});
