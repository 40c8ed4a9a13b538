import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { ContactScreen } from './contact-screen.tsx';

afterEach(cleanup);

function rateLimited() {
  return Object.assign(new Error('Too many attempts. Try again in 10 minutes.'), {
    status: 429,
    body: {
      error: {
        code: 'RATE_LIMITED',
        message: 'Too many attempts. Try again in 10 minutes.',
        requestId: 'r1',
      },
    },
  });
}

function setup(callEndpoint: CallEndpoint, initialSubject?: string) {
  const user = userEvent.setup({ delay: null });
  render(<ContactScreen callEndpoint={callEndpoint} initialSubject={initialSubject} />);
  const field = (name: string) => screen.getByRole('textbox', { name });
  return { user, field };
}

async function fillValid(
  user: ReturnType<typeof userEvent.setup>,
  field: (n: string) => HTMLElement,
) {
  await user.type(field('Your name'), 'Ada Lovelace');
  await user.type(field('Email'), 'ada@example.com');
  await user.type(field('Subject'), 'Portal');
  await user.type(field('Message'), 'Can clients download files?');
}

describe('ContactScreen', () => {
  it('shows the schema’s errors, sends nothing and focuses the first bad field', async () => {
    const callEndpoint = vi.fn() as unknown as CallEndpoint;
    const { user, field } = setup(callEndpoint);
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Email is required')).toBeTruthy();
    expect(field('Your name').getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(field('Your name')));
    expect(callEndpoint).not.toHaveBeenCalled();

    // Errors follow the typing once shown.
    await user.type(field('Your name'), 'Ada');
    expect(screen.queryByText('Name is required')).toBeNull();
  });

  it('sends the parsed body once, even on a second submit, then shows the success state', async () => {
    let resolve: (value: { ok: true }) => void = () => undefined;
    const callEndpoint = vi.fn(
      () =>
        new Promise<{ ok: true }>((done) => {
          resolve = done;
        }),
    );
    const { user, field } = setup(callEndpoint, 'Billing question');
    expect((field('Subject') as HTMLInputElement).value).toBe('Billing question');
    await user.clear(field('Subject'));
    await fillValid(user, field);
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    await user.keyboard('{Enter}');
    expect(screen.getAllByText(/Sending your message/).length).toBeGreaterThan(0);
    expect(callEndpoint).toHaveBeenCalledTimes(1);
    expect(callEndpoint.mock.calls[0]).toEqual([
      expect.objectContaining({ operation: 'submit-contact' }),
      {
        query: {},
        body: {
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          subject: 'Portal',
          message: 'Can clients download files?',
        },
      },
    ]);
    resolve({ ok: true });
    expect(await screen.findByRole('heading', { name: 'Message sent' })).toBeTruthy();
    expect(screen.getByText(/ada@example.com/)).toBeTruthy();
  });

  it('shows the server’s 429 message and keeps what was typed', async () => {
    const callEndpoint = vi.fn(() => Promise.reject(rateLimited()));
    const { user, field } = setup(callEndpoint);
    await fillValid(user, field);
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Too many attempts. Try again in 10 minutes.',
    );
    expect((field('Message') as HTMLTextAreaElement).value).toBe('Can clients download files?');
  });

  it('puts server-side field errors next to their fields', async () => {
    const callEndpoint = vi.fn(() =>
      Promise.reject(
        Object.assign(new Error('bad'), {
          status: 400,
          body: {
            error: {
              code: 'VALIDATION_FAILED',
              message: 'bad',
              details: [{ path: 'body.email', message: 'This address cannot receive mail' }],
              requestId: 'r1',
            },
          },
        }),
      ),
    );
    const { user, field } = setup(callEndpoint);
    await fillValid(user, field);
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('This address cannot receive mail')).toBeTruthy();
    expect(field('Email').getAttribute('aria-invalid')).toBe('true');
  });
});
