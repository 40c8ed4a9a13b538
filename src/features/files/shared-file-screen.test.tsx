import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { SharedFile } from '#contract/endpoints/file-share-link.ts';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SharedFileScreen } from './shared-file-screen.tsx';

afterEach(cleanup);

const TOKEN = 'k'.repeat(43);

const sharedFile = (overrides: Partial<SharedFile> = {}): SharedFile => ({
  fileName: 'final-logo.zip',
  size: 2_500_000,
  type: 'application/zip',
  expiresAt: '2026-12-01T12:00:00.000Z',
  passwordRequired: false,
  downloadsLeft: 3,
  sharedBy: 'Studio Ada',
  ...overrides,
});

const apiError = (status: number, message: string) =>
  Object.assign(new Error(message), {
    status,
    body: { error: { code: 'X', message, requestId: 'r' } },
  });

function fakeApi(answers: Record<string, ((input: any) => unknown)[]>) {
  const calls: { operation: string; input: any }[] = [];
  const callEndpoint = vi.fn((endpoint: { operation: string }, input: unknown) => {
    calls.push({ operation: endpoint.operation, input });
    const next = answers[endpoint.operation]?.shift();
    return Promise.resolve().then(() => {
      if (!next) throw new Error(`unexpected ${endpoint.operation}`);
      return next(input);
    });
  });
  return { callEndpoint: callEndpoint as unknown as CallEndpoint, calls };
}

describe('SharedFileScreen', () => {
  it('shows the file and downloads it through a fresh signed link, counting down what is left', async () => {
    const user = userEvent.setup();
    const startDownload = vi.fn();
    const { callEndpoint, calls } = fakeApi({
      'get-shared-file': [() => sharedFile()],
      'open-shared-file': [
        () => ({ url: 'https://x/files/d/b?sig=1', expiresAt: '', fileName: 'final-logo.zip' }),
      ],
    });
    render(
      <SharedFileScreen token={TOKEN} callEndpoint={callEndpoint} startDownload={startDownload} />,
    );
    const heading = await screen.findByRole('heading', { level: 1, name: 'final-logo.zip' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByText('Studio Ada shared a file with you')).toBeTruthy();
    expect(screen.getByText(/3 downloads left/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(startDownload).toHaveBeenCalledWith('https://x/files/d/b?sig=1'));
    expect(calls.at(-1)).toEqual({
      operation: 'open-shared-file',
      input: { query: {}, body: { token: TOKEN } },
    });
    expect(screen.getByText(/2 downloads left/)).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('has started');
  });

  it('asks for the password, and a wrong one stays beside the field', async () => {
    const user = userEvent.setup();
    const startDownload = vi.fn();
    const { callEndpoint, calls } = fakeApi({
      'get-shared-file': [() => sharedFile({ passwordRequired: true, downloadsLeft: null })],
      'open-shared-file': [
        () => {
          throw apiError(401, 'Wrong password for this link.');
        },
        () => ({ url: 'https://x/d', expiresAt: '', fileName: 'final-logo.zip' }),
      ],
    });
    render(
      <SharedFileScreen token={TOKEN} callEndpoint={callEndpoint} startDownload={startDownload} />,
    );
    await screen.findByRole('heading', { level: 1, name: 'final-logo.zip' });
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(screen.getByText('Enter the password you were given with the link')).toBeTruthy();
    expect(calls.map((call) => call.operation)).toEqual(['get-shared-file']);

    await user.type(screen.getByLabelText('Password'), 'red whale');
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(await screen.findByText('Wrong password for this link.')).toBeTruthy();
    expect(startDownload).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'blue whale');
    await user.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(startDownload).toHaveBeenCalledWith('https://x/d'));
    expect(calls.at(-1)?.input.body).toEqual({ token: TOKEN, password: 'blue whale' });
  });

  it('a link that no longer works says why, in the server’s words', async () => {
    const { callEndpoint } = fakeApi({
      'get-shared-file': [
        () => {
          throw apiError(403, 'This link was turned off by the person who shared it.');
        },
      ],
    });
    render(<SharedFileScreen token={TOKEN} callEndpoint={callEndpoint} />);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This link doesn’t work' }),
    ).toBeTruthy();
    expect(screen.getByText('This link was turned off by the person who shared it.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download' })).toBeNull();
  });

  it('offline, says so and tries again when asked', async () => {
    const user = userEvent.setup();
    const { callEndpoint } = fakeApi({
      'get-shared-file': [
        () => {
          throw apiError(0, 'offline');
        },
        () => sharedFile(),
      ],
    });
    render(<SharedFileScreen token={TOKEN} callEndpoint={callEndpoint} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'You’re offline' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'final-logo.zip' })).toBeTruthy();
  });
});
