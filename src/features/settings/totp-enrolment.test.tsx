import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createFakeClient,
  createFakeServices,
  renderScreen,
  signedIn,
} from '../auth/screen-test-utils.tsx';
import { TotpEnrolment } from './totp-enrolment.tsx';

afterEach(cleanup);

const svg = '<svg xmlns="http://www.w3.org/2000/svg"><path fill="#000" d="M0 0h1v1H0z"/></svg>';

describe('TotpEnrolment', () => {
  it('enrols, shows the QR code as an image and the key, then verifies a code', async () => {
    const client = createFakeClient();
    client.mfa.enroll.mockResolvedValueOnce({
      data: {
        id: 'factor-1',
        type: 'totp',
        friendly_name: 'Phone app',
        totp: {
          qr_code: `data:image/svg+xml;utf-8,${svg}`,
          secret: 'JBSWY3DPEHPK3PXP',
          uri: 'otpauth://totp/Satchel:ada@example.com?secret=JBSWY3DPEHPK3PXP',
        },
      },
      error: null,
    });
    const stale = {
      id: 'stale-1',
      friendly_name: 'Phone app',
      factor_type: 'totp',
      status: 'unverified',
      created_at: '',
      updated_at: '',
    } as const;
    const onDone = vi.fn();
    renderScreen(
      <TotpEnrolment
        services={createFakeServices(client)}
        factors={[stale]}
        onDone={onDone}
        onCancel={vi.fn()}
      />,
      { auth: signedIn },
    );
    const user = userEvent.setup();
    const name = screen.getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'Phone app');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(client.mfa.unenroll).toHaveBeenCalledWith({ factorId: 'stale-1' });
    expect(client.mfa.enroll).toHaveBeenCalledWith({
      factorType: 'totp',
      friendlyName: 'Phone app',
    });
    const qr = await screen.findByRole('img', { name: /QR code/ });
    expect(qr.getAttribute('src')).toBe(
      `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`,
    );
    // The SVG never becomes markup of the page.
    expect(document.querySelector('path[fill="#000"]')).toBeNull();
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP')).toBeTruthy();

    await user.type(screen.getByRole('textbox', { name: 'Code from the app' }), '123456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(client.mfa.challengeAndVerify).toHaveBeenCalledWith({
      factorId: 'factor-1',
      code: '123456',
    });
    await waitFor(() => expect(onDone).toHaveBeenCalled());
  });

  it('needs a name', async () => {
    const client = createFakeClient();
    renderScreen(
      <TotpEnrolment
        services={createFakeServices(client)}
        factors={[]}
        onDone={vi.fn()}
        onCancel={vi.fn()}
      />,
    );
    const user = userEvent.setup();
    await user.clear(screen.getByRole('textbox', { name: 'Name' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('Give this method a name')).toBeTruthy();
    expect(client.mfa.enroll).not.toHaveBeenCalled();
  });
});
