import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { PortalAccess } from '#contract/endpoints/client-portal.ts';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  generatePortalPassword,
  lastOpenedWords,
  PortalAccessButton,
  PortalAccessDialog,
  sessionsWords,
} from './portal-access-dialog.tsx';

afterEach(cleanup);

const projectId = crypto.randomUUID();
const clientId = crypto.randomUUID();
const hour = 3_600_000;

function access(overrides: Partial<PortalAccess> = {}): PortalAccess {
  return {
    projectId,
    clientId,
    enabled: false,
    hasPassword: false,
    passwordSetAt: null,
    url: `https://app.example/client/${clientId}/project/${projectId}`,
    lastOpenedAt: null,
    openSessions: 0,
    chatEnabled: false,
    ...overrides,
  };
}

/** A fake API edge: answers each operation from `handlers`, recording the calls. */
function fakeApi(handlers: Record<string, (input: any) => unknown>) {
  const calls: { operation: string; input: any }[] = [];
  const callEndpoint = vi.fn((endpoint: { operation: string }, input: unknown) => {
    calls.push({ operation: endpoint.operation, input });
    const handler = handlers[endpoint.operation];
    // Answered later, as the network would; a handler's throw is a rejection.
    return Promise.resolve().then(() => {
      if (!handler) throw new Error(`unexpected ${endpoint.operation}`);
      return handler(input);
    });
  });
  return { callEndpoint: callEndpoint as unknown as CallEndpoint, calls };
}

/** What the api-client rejects with (read structurally, like the dialog does). */
function apiError(status: number, error: unknown) {
  return Object.assign(new Error('refused'), { status, body: error === null ? null : { error } });
}

function renderDialog(callEndpoint: CallEndpoint, online = true) {
  const onClose = vi.fn();
  render(
    <PortalAccessDialog
      projectId={projectId}
      projectName="Website"
      online={online}
      callEndpoint={callEndpoint}
      onClose={onClose}
    />,
  );
  return onClose;
}

describe('portal access words', () => {
  it('counts sessions and says when the client last came', () => {
    expect(sessionsWords(0)).toBe('0 open sessions');
    expect(sessionsWords(1)).toBe('1 open session');
    expect(lastOpenedWords(null, Date.now())).toBe('Not opened yet');
    const now = Date.now();
    expect(lastOpenedWords(new Date(now - 3 * hour).toISOString(), now)).toMatch(
      /^Last opened by your client 3 hours ago \(.+\)$/,
    );
  });

  it('generates 16 random characters in groups of four, without look-alikes', () => {
    const password = generatePortalPassword();
    expect(password).toMatch(/^[a-zA-Z2-9]{4}(-[a-zA-Z2-9]{4}){3}$/);
    expect(password).not.toMatch(/[01lIoO]/);
    expect(generatePortalPassword()).not.toBe(password);
    // Bytes past the last whole alphabet are skipped, not folded onto the first letters.
    const biased = generatePortalPassword((bytes) => {
      bytes.fill(255);
      for (let index = 0; index < 16; index += 1) bytes[index + 1] = index;
      return bytes;
    });
    expect(biased.replaceAll('-', '')).toBe('abcdefghijkmnpqr');
  });
});

describe('PortalAccessDialog', () => {
  it('loads and shows the state, the link and the password form; focus starts on the heading', async () => {
    const { callEndpoint, calls } = fakeApi({
      'get-portal-access': () => ({
        portal: access({
          enabled: true,
          hasPassword: true,
          passwordSetAt: new Date(Date.now() - 48 * hour).toISOString(),
          lastOpenedAt: new Date(Date.now() - 2 * hour).toISOString(),
          openSessions: 2,
        }),
      }),
    });
    renderDialog(callEndpoint);
    expect(screen.getByText(/Loading the portal/)).toBeTruthy();
    const toggle = await screen.findByRole('switch', { name: 'Portal on' });
    expect(toggle).toHaveProperty('checked', true);
    expect(calls).toEqual([
      { operation: 'get-portal-access', input: { query: { id: projectId } } },
    ]);
    const status = screen.getByRole('region', { name: 'Portal status' });
    expect(within(status).getByText('On')).toBeTruthy();
    expect(within(status).getByText(/^Last opened by your client 2 hours ago/)).toBeTruthy();
    expect(within(status).getByText('2 open sessions')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Portal link' })).toHaveProperty(
      'value',
      access().url,
    );
    expect(screen.getByRole('link', { name: /Open link/ }).getAttribute('href')).toBe(access().url);
    expect(screen.getByRole('heading', { name: 'Change password' })).toBeTruthy();
    expect(
      screen.getByText(
        /Your client will need the new password\. Saving it ends the 2 open sessions/,
      ),
    ).toBeTruthy();
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('heading', { name: 'Client portal of “Website”' }),
      ),
    );
  });

  it('turning on without a password asks for one on the field, then sets it and turns on', async () => {
    const user = userEvent.setup();
    const { callEndpoint, calls } = fakeApi({
      'get-portal-access': () => ({ portal: access() }),
      'update-portal-access': ({ body }: { body: { enabled: boolean; password: string } }) => ({
        portal: access({
          enabled: body.enabled,
          hasPassword: true,
          passwordSetAt: new Date().toISOString(),
        }),
      }),
    });
    renderDialog(callEndpoint);
    expect(await screen.findByText('Not opened yet')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Set password' })).toBeTruthy();

    await user.click(screen.getByRole('switch', { name: 'Portal on' }));
    const field = screen.getByLabelText('Password');
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Set a password to turn the portal on.')).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'Portal on' })).toHaveProperty('checked', false);
    expect(calls.map((call) => call.operation)).toEqual(['get-portal-access']);

    await user.type(field, 'river-stone-42');
    await user.click(screen.getByRole('button', { name: 'Set password and turn on' }));
    expect(await screen.findByRole('heading', { name: 'Change password' })).toBeTruthy();
    expect(calls.at(-1)).toEqual({
      operation: 'update-portal-access',
      input: { query: { id: projectId }, body: { enabled: true, password: 'river-stone-42' } },
    });
    expect(screen.getByRole('switch', { name: 'Portal on' })).toHaveProperty('checked', true);
    expect(screen.getByLabelText('New password')).toHaveProperty('value', '');
    expect(screen.getByRole('status').textContent).toBe('Password set and the portal is on.');
  });

  it('generates a password it shows, and changing it keeps the portal’s on/off state', async () => {
    const user = userEvent.setup();
    const { callEndpoint, calls } = fakeApi({
      'get-portal-access': () => ({ portal: access({ hasPassword: true, openSessions: 1 }) }),
      'update-portal-access': () => ({ portal: access({ hasPassword: true }) }),
    });
    renderDialog(callEndpoint);
    const field = await screen.findByLabelText('New password');
    expect(field.getAttribute('type')).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    const generated = (field as HTMLInputElement).value;
    expect(generated).toMatch(/^[a-zA-Z2-9]{4}(-[a-zA-Z2-9]{4}){3}$/);
    expect(field.getAttribute('type')).toBe('text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(field.getAttribute('type')).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(field.getAttribute('type')).toBe('text');

    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(screen.getByLabelText('New password')).toHaveProperty('value', ''));
    expect(calls.at(-1)?.input).toEqual({
      query: { id: projectId },
      body: { enabled: false, password: generated },
    });
    expect(screen.getByRole('status').textContent).toMatch(/^Password changed\./);
  });

  it('turns the portal off only after saying the open sessions end', async () => {
    const user = userEvent.setup();
    const { callEndpoint, calls } = fakeApi({
      'get-portal-access': () => ({
        portal: access({ enabled: true, hasPassword: true, openSessions: 3 }),
      }),
      'update-portal-access': () => ({ portal: access({ hasPassword: true }) }),
    });
    renderDialog(callEndpoint);
    await user.click(await screen.findByRole('switch', { name: 'Portal on' }));
    expect(
      screen.getByText(
        'Turn the portal off? Your client can no longer open it, and the 3 open sessions end now.',
      ),
    ).toBeTruthy();
    expect(calls).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Portal on' })).toHaveProperty('checked', false),
    );
    expect(calls.at(-1)?.input).toEqual({ query: { id: projectId }, body: { enabled: false } });
    expect(screen.queryByRole('button', { name: 'Turn off' })).toBeNull();
  });

  it('copies the link and says so', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { callEndpoint } = fakeApi({
      'get-portal-access': () => ({ portal: access({ enabled: true, hasPassword: true }) }),
    });
    renderDialog(callEndpoint);
    await user.click(await screen.findByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(access().url);
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Link copied.');
  });

  it('checks the length before sending, and shows the server’s 400 detail on the field', async () => {
    const user = userEvent.setup();
    const { callEndpoint, calls } = fakeApi({
      'get-portal-access': () => ({ portal: access() }),
      'update-portal-access': () => {
        throw apiError(400, {
          code: 'VALIDATION_FAILED',
          message: 'Invalid request',
          requestId: 'r',
          details: [{ path: 'body.password', message: 'The password must be text' }],
        });
      },
    });
    renderDialog(callEndpoint);
    const field = await screen.findByLabelText('Password');
    await user.type(field, 'short');
    await user.click(screen.getByRole('button', { name: 'Set password and turn on' }));
    expect(screen.getByText('A portal password is at least 8 characters')).toBeTruthy();
    expect(calls).toHaveLength(1);

    await user.type(field, '-but-long-now');
    await user.click(screen.getByRole('button', { name: 'Set password and turn on' }));
    expect(await screen.findByText('The password must be text')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe(
      'Some fields need another look; see the messages next to them.',
    );
    expect(field).toHaveProperty('value', 'short-but-long-now');
  });

  it('when the request cannot reach the server, says nothing was sent', async () => {
    const user = userEvent.setup();
    const { callEndpoint } = fakeApi({
      'get-portal-access': () => ({ portal: access({ hasPassword: true }) }),
      'update-portal-access': () => {
        throw apiError(0, null);
      },
    });
    renderDialog(callEndpoint);
    await user.click(await screen.findByRole('switch', { name: 'Portal on' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^The server could not be reached, so nothing was sent/,
    );
    expect(screen.getByRole('switch', { name: 'Portal on' })).toHaveProperty('checked', false);
  });

  it('offline, says portal settings need a connection and asks nothing', () => {
    const { callEndpoint, calls } = fakeApi({});
    renderDialog(callEndpoint, false);
    expect(
      screen.getByText(/You’re offline\. The client portal’s settings live on the server/),
    ).toBeTruthy();
    expect(screen.queryByRole('switch')).toBeNull();
    expect(calls).toEqual([]);
  });

  it('shows a refused load with Try again', async () => {
    const user = userEvent.setup();
    let fail = true;
    const { callEndpoint } = fakeApi({
      'get-portal-access': () => {
        if (fail) {
          fail = false;
          throw apiError(404, { code: 'NOT_FOUND', message: 'No such project.', requestId: 'r' });
        }
        return { portal: access() };
      },
    });
    renderDialog(callEndpoint);
    expect((await screen.findByRole('alert')).textContent).toContain('No such project.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('switch', { name: 'Portal on' })).toBeTruthy();
  });
});

describe('PortalAccessButton', () => {
  it('opens the dialog from the keyboard and gives focus back to the button on close', async () => {
    const user = userEvent.setup();
    const { callEndpoint } = fakeApi({ 'get-portal-access': () => ({ portal: access() }) });
    render(<PortalAccessButton projectId={projectId} callEndpoint={callEndpoint} />);
    const trigger = screen.getByRole('button', { name: 'Client portal…' });
    await user.tab();
    expect(document.activeElement).toBe(trigger);
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Client portal' });
    await within(dialog).findByRole('switch', { name: 'Portal on' });
    await waitFor(() =>
      expect(document.activeElement).toBe(within(dialog).getByRole('heading', { level: 2 })),
    );
    await user.tab();
    expect(document.activeElement).toBe(within(dialog).getByRole('switch', { name: 'Portal on' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(trigger));
  });

  it('turns the client’s chat on and off, keeping the portal as it is', async () => {
    const { callEndpoint, calls } = fakeApi({
      'get-portal-access': () => ({ portal: access({ enabled: true, hasPassword: true }) }),
      'update-portal-access': ({ body }) => ({
        portal: access({ enabled: body.enabled, hasPassword: true, chatEnabled: body.chatEnabled }),
      }),
    });
    renderDialog(callEndpoint);
    const chat = await screen.findByRole('switch', { name: 'Chat with your client' });
    expect(chat).toHaveProperty('checked', false);
    expect(screen.getByText('Off: the project’s chat stays between members.')).toBeTruthy();
    await userEvent.setup().click(chat);
    await waitFor(() => expect(chat).toHaveProperty('checked', true));
    expect(calls.at(-1)).toEqual({
      operation: 'update-portal-access',
      input: { query: { id: projectId }, body: { enabled: true, chatEnabled: true } },
    });
    expect(screen.getByText(/Your client reads this project’s chat in the portal/)).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'Portal on' })).toHaveProperty('checked', true);
  });
});
