import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClientAccessScreen } from './client-access-screen.tsx';
import { readPortalSession } from './portal-session.ts';
import { apiError, fakePortalApi, memoryStorage } from './portal-test-api.ts';

afterEach(cleanup);

const projectId = '0192f3a0-0000-7000-8000-0000000000aa';
const clientId = '0192f3a0-0000-7000-8000-0000000000bb';
const home = `/client/${clientId}/project/${projectId}`;

function renderGate(
  answers: Parameters<typeof fakePortalApi>[0],
  props: { redirect?: string; projectId?: string } = {},
) {
  const api = fakePortalApi(answers);
  const navigate = vi.fn();
  const storage = memoryStorage();
  render(
    <ClientAccessScreen
      projectId={props.projectId ?? projectId}
      clientId={clientId}
      redirect={props.redirect}
      callEndpoint={api.callEndpoint}
      navigate={navigate}
      now={() => 1_000}
      storage={storage}
    />,
  );
  return { ...api, navigate, storage };
}

describe('ClientAccessScreen', () => {
  it('a correct password stores the session and goes back to the portal page', async () => {
    const user = userEvent.setup();
    const gate = renderGate(
      { authenticate: [() => ({ authenticated: true })] },
      { redirect: home },
    );
    const heading = screen.getByRole('heading', { level: 1, name: 'Client access' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    await user.type(screen.getByLabelText('Password'), 'blue lagoon 42');
    await user.click(screen.getByRole('button', { name: 'Open my project' }));
    await waitFor(() => expect(gate.navigate).toHaveBeenCalledWith(home));
    expect(gate.calls[0]).toEqual({
      operation: 'authenticate',
      input: { query: {}, body: { projectId, password: 'blue lagoon 42' } },
    });
    expect(readPortalSession(gate.storage)).toEqual({ projectId, clientId, lastActivity: 1_000 });
  });

  it('never redirects anywhere but this project’s portal page', async () => {
    const user = userEvent.setup();
    const gate = renderGate(
      { authenticate: [() => ({ authenticated: true })] },
      { redirect: 'https://evil.example/phish' },
    );
    await user.type(screen.getByLabelText('Password'), 'pw');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(gate.navigate).toHaveBeenCalledWith(home));
  });

  it('a 401 says "Invalid password" on the field, and stores nothing', async () => {
    const user = userEvent.setup();
    const gate = renderGate({
      authenticate: [() => Promise.reject(apiError(401, 'Invalid password.'))],
    });
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Open my project' }));
    const field = screen.getByLabelText('Password');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('Invalid password')).toBeTruthy();
    expect(gate.navigate).not.toHaveBeenCalled();
    expect(readPortalSession(gate.storage)).toBeNull();
  });

  it('anything else is "Authentication failed", with why when it is known', async () => {
    const user = userEvent.setup();
    renderGate({
      authenticate: [
        () => Promise.reject(apiError(429, 'Too many attempts. Try again in 15 minutes.')),
        () => Promise.reject(apiError(0, 'Failed to fetch')),
        () => Promise.reject(apiError(500, 'boom')),
      ],
    });
    await user.type(screen.getByLabelText('Password'), 'pw');
    const submit = screen.getByRole('button', { name: 'Open my project' });
    await user.click(submit);
    let alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Authentication failed');
    expect(alert.textContent).toContain('Too many attempts');
    await user.click(submit);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('offline'));
    await user.click(submit);
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain('try again in a moment'),
    );
    alert = screen.getByRole('alert');
    expect(alert.textContent).not.toContain('boom');
  });

  it('asks for a password before sending anything', async () => {
    const user = userEvent.setup();
    const gate = renderGate({});
    await user.click(screen.getByRole('button', { name: 'Open my project' }));
    expect(screen.getByText('Enter the password you were given')).toBeTruthy();
    expect(gate.calls).toEqual([]);
    // Focus is in the field that needs it, not on the button.
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-invalid')).toBe('true'));
  });

  it('an incomplete link says so and shows no form', () => {
    renderGate({}, { projectId: 'not-an-id' });
    expect(screen.getByText(/This portal link is incomplete/)).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
  });
});
