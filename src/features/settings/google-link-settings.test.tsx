import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClient, createFakeServices, renderScreen } from '../auth/screen-test-utils.tsx';
import { GoogleLinkSettings } from './google-link-settings.tsx';

afterEach(cleanup);

const identity = (provider: string, email: string) => ({
  id: `${provider}-sub`,
  identity_id: `${provider}-identity`,
  user_id: 'u1',
  provider,
  identity_data: { email },
});

describe('GoogleLinkSettings', () => {
  it('links Google through a round trip back to settings', async () => {
    const client = createFakeClient();
    client.getUserIdentities.mockResolvedValueOnce({
      data: { identities: [identity('email', 'ada@example.com')] },
      error: null,
    } as never);
    renderScreen(
      <GoogleLinkSettings
        services={createFakeServices(client, { googleEnabled: true })}
        returnPath="/settings?tab=security"
      />,
    );
    await userEvent
      .setup()
      .click(await screen.findByRole('button', { name: 'Link Google account' }));
    expect(client.linkIdentity).toHaveBeenCalledWith({
      provider: 'google',
      options: { redirectTo: 'https://satchel.test/settings?tab=security' },
    });
  });

  it('unlinks after a confirmation', async () => {
    const client = createFakeClient();
    const google = identity('google', 'ada@gmail.example');
    client.getUserIdentities.mockResolvedValue({
      data: { identities: [identity('email', 'ada@example.com'), google] },
      error: null,
    } as never);
    renderScreen(
      <GoogleLinkSettings services={createFakeServices(client)} returnPath="/settings" />,
    );
    expect(await screen.findByText('ada@gmail.example')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Unlink Google' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Unlink Google?' });
    await user.click(within(dialog).getByRole('button', { name: 'Unlink' }));
    expect(client.unlinkIdentity).toHaveBeenCalledWith(google);
  });

  it('will not unlink the only way to sign in', async () => {
    const client = createFakeClient();
    client.getUserIdentities.mockResolvedValueOnce({
      data: { identities: [identity('google', 'ada@gmail.example')] },
      error: null,
    } as never);
    renderScreen(
      <GoogleLinkSettings services={createFakeServices(client)} returnPath="/settings" />,
    );
    const button = await screen.findByRole('button', { name: 'Unlink Google' });
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(screen.getByText(/Google is your only way to sign in/)).toBeTruthy();
  });
});
