import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeClient, createFakeServices, renderScreen } from './screen-test-utils.tsx';
import { VerifyEmailScreen } from './verify-email-screen.tsx';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: false }));
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('VerifyEmailScreen', () => {
  it('waits 60 s before the first resend, then sends and waits again', async () => {
    const client = createFakeClient();
    renderScreen(<VerifyEmailScreen email="ada@example.com" returnTo="/clients" />, {
      services: createFakeServices(client),
    });
    expect(screen.getByText('ada@example.com')).toBeTruthy();
    const waiting = screen.getByRole('button', { name: 'Resend in 60 s' });
    expect(waiting.hasAttribute('disabled')).toBe(true);

    await act(() => vi.advanceTimersByTimeAsync(59_000));
    expect(screen.getByRole('button', { name: 'Resend in 1 s' })).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    const resend = screen.getByRole('button', { name: 'Resend the email' });
    expect(resend.hasAttribute('disabled')).toBe(false);

    fireEvent.click(resend);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(client.resend).toHaveBeenCalledWith({
      type: 'signup',
      email: 'ada@example.com',
      options: {
        emailRedirectTo: 'https://satchel.test/auth/confirm-registration?returnTo=%2Fclients',
      },
    });
    expect(
      screen.getByText('We sent a new link to ada@example.com. Check your spam folder too.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Resend in 60 s' })).toBeTruthy();
  });

  it('asks for the address when the link did not carry it', () => {
    renderScreen(<VerifyEmailScreen />, { services: createFakeServices(createFakeClient()) });
    expect(screen.getByRole('textbox', { name: 'Email' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Resend the email' })).toBeTruthy();
  });
});
