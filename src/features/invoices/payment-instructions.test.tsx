import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { expectAccessible } from '../projects/project-screen-test-utils.tsx';
import { PaymentInstructions } from './payment-instructions.tsx';

afterEach(cleanup);

function api(initial: string | null, refuse?: { status: number; message: string }) {
  const saved: unknown[] = [];
  const callEndpoint = ((endpoint: { operation: string }, input: { body?: unknown }) => {
    if (endpoint.operation === 'get-workspace-settings') {
      return Promise.resolve({
        workspace: { settings: initial === null ? {} : { paymentInstructions: initial } },
      });
    }
    if (refuse) {
      return Promise.reject(
        Object.assign(new Error(refuse.message), {
          status: refuse.status,
          body: { error: { code: 'FORBIDDEN', message: refuse.message } },
        }),
      );
    }
    saved.push(input.body);
    return Promise.resolve({ workspace: {} });
  }) as unknown as CallEndpoint;
  return { callEndpoint, saved };
}

describe('payment instructions', () => {
  it('adds instructions to the workspace settings', async () => {
    const user = userEvent.setup();
    const { callEndpoint, saved } = api(null);
    render(<PaymentInstructions callEndpoint={callEndpoint} workspaceId="w1" online />);
    expect(await screen.findByText(/None yet/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add instructions' }));
    await user.type(
      screen.getByRole('textbox', { name: 'Payment instructions' }),
      'IBAN DE00 1234',
    );
    await expectAccessible();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(saved).toEqual([{ settings: { paymentInstructions: 'IBAN DE00 1234' } }]),
    );
    expect(screen.getByText('IBAN DE00 1234')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit' })).toBeTruthy();
  });

  it('says why it cannot be changed: offline, or not an owner or admin', async () => {
    const user = userEvent.setup();
    const offline = render(
      <PaymentInstructions callEndpoint={api('x').callEndpoint} workspaceId="w1" online={false} />,
    );
    expect(screen.getByText('Payment instructions are read and changed online.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add instructions' }).hasAttribute('disabled')).toBe(
      true,
    );
    offline.unmount();
    const refused = api('Cash only', {
      status: 403,
      message: 'Only a workspace owner or admin can do this.',
    });
    render(<PaymentInstructions callEndpoint={refused.callEndpoint} workspaceId="w1" online />);
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/owner or admin/)).toBeTruthy();
    expect(refused.saved).toEqual([]);
  });
});
