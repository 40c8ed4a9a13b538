import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { WorkspaceSubscription } from '#contract/endpoints/subscription.ts';
import type { WorkspaceRole } from '#contract/entities/workspace.ts';
import { saveSubscription } from '../billing/workspace-plan.ts';
import { LOGO_OFFLINE_TEXT, WorkspaceLogoSettings } from './workspace-logo-settings.tsx';

const WORKSPACE = '0192f3a0-0000-7000-8000-00000000000a';

/** A 1x1 PNG. */
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PNG_URL = `data:image/png;base64,${PNG_BASE64}`;

const pngFile = (name = 'logo.png') =>
  new File([Uint8Array.from(atob(PNG_BASE64), (c) => c.charCodeAt(0))], name, {
    type: 'image/png',
  });

afterEach(() => {
  cleanup();
  localStorage.clear();
  Object.defineProperty(navigator, 'onLine', { value: true, configurable: true });
});

async function expectNoAxeViolations() {
  const results = await axe.run(
    { include: [document.body], exclude: ['[data-live-announcer]'] },
    {
      runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
      rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
    },
  );
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
}

function fakeServer(state: { logoUrl: string | null; refuse?: string }) {
  return vi.fn((endpoint: { operation: string }, input: { query: any; body?: any }) => {
    switch (endpoint.operation) {
      case 'get-workspace-settings':
        return Promise.resolve({
          workspace: { id: input.query.workspaceId, logoUrl: state.logoUrl },
        });
      case 'update-workspace-settings':
        if (state.refuse) {
          return Promise.reject(
            Object.assign(new Error('Invalid'), {
              status: 400,
              body: {
                error: {
                  code: 'VALIDATION_FAILED',
                  message: `Invalid body.logoUrl: ${state.refuse}`,
                  details: [{ path: 'body.logoUrl', message: state.refuse }],
                  requestId: 'r1',
                },
              },
            }),
          );
        }
        state.logoUrl = input.body.logoUrl;
        return Promise.resolve({
          workspace: { id: input.query.workspaceId, logoUrl: state.logoUrl },
        });
      default:
        return Promise.reject(new Error(`unexpected ${endpoint.operation}`));
    }
  });
}

function renderLogo(
  state: { logoUrl: string | null; refuse?: string },
  role: WorkspaceRole = 'owner',
) {
  const server = fakeServer(state);
  render(
    <WorkspaceLogoSettings
      callEndpoint={server as unknown as CallEndpoint}
      workspaceId={WORKSPACE}
      role={role}
    />,
  );
  return server;
}

const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;
const updates = (server: ReturnType<typeof fakeServer>) =>
  server.mock.calls.filter(([endpoint]) => endpoint.operation === 'update-workspace-settings');

describe('WorkspaceLogoSettings', () => {
  it('chooses a PNG, previews it, and saves it as a data URL', async () => {
    const user = userEvent.setup();
    const state = { logoUrl: null as string | null };
    const server = renderLogo(state);
    expect(await screen.findByText('No logo yet')).toBeTruthy();
    const choose = screen.getByRole('button', { name: /Choose a logo/ });
    await waitFor(() => expect(choose.hasAttribute('disabled')).toBe(false));
    expect(fileInput().accept).toBe('image/png,image/jpeg');
    await expectNoAxeViolations();

    await user.upload(fileInput(), pngFile());
    const preview = await screen.findByRole('img', {
      name: /Chosen logo, logo.png, not saved yet/,
    });
    expect(preview.getAttribute('src')).toBe(PNG_URL);
    expect(updates(server)).toHaveLength(0);
    await expectNoAxeViolations();

    await user.click(screen.getByRole('button', { name: 'Save logo' }));
    expect(await screen.findByText('Logo saved.')).toBeTruthy();
    expect(updates(server)).toHaveLength(1);
    expect(updates(server)[0]![1]).toEqual({
      query: { workspaceId: WORKSPACE },
      body: { logoUrl: PNG_URL },
    });
    expect(state.logoUrl).toBe(PNG_URL);
    expect(screen.getByRole('img', { name: 'Current logo' }).getAttribute('src')).toBe(PNG_URL);
    expect(screen.queryByRole('button', { name: 'Save logo' })).toBeNull();
    // The Save button is gone: focus is on Choose, not lost to the page.
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('button', { name: /Choose another logo/ }),
      ),
    );
  });

  it('refuses a file over 256 KiB with an inline error, sending nothing', async () => {
    const user = userEvent.setup();
    const server = renderLogo({ logoUrl: null });
    await screen.findByText('No logo yet');
    const big = new File([new Uint8Array(300 * 1024)], 'huge.png', { type: 'image/png' });
    await user.upload(fileInput(), big);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('“huge.png” is 300 KiB: a logo is at most 256 KiB.');
    expect(
      screen.getByRole('button', { name: /Choose a logo/ }).getAttribute('aria-describedby'),
    ).toContain(alert.id);
    expect(document.querySelector('section img')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save logo' })).toBeNull();
    expect(updates(server)).toHaveLength(0);
    await expectNoAxeViolations();
  });

  it('refuses other types, dropped or chosen, and a PNG whose bytes are not a PNG', async () => {
    const user = userEvent.setup({ applyAccept: false });
    renderLogo({ logoUrl: null });
    await screen.findByText('No logo yet');
    const svg = new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'logo.svg', {
      type: 'image/svg+xml',
    });
    fireEvent.drop(document.querySelector('[data-logo-drop]')!, {
      dataTransfer: { types: ['Files'], files: [svg] },
    });
    expect((await screen.findByRole('alert')).textContent).toBe(
      '“logo.svg” is not a PNG or JPEG image. Choose a .png or .jpg file.',
    );
    await user.upload(fileInput(), new File(['hello'], 'fake.png', { type: 'image/png' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        '“fake.png”: The logo’s data is not a PNG image.',
      ),
    );
    expect(document.querySelector('section img')).toBeNull();
  });

  it('takes a dropped PNG like a chosen one', async () => {
    renderLogo({ logoUrl: null });
    await screen.findByText('No logo yet');
    fireEvent.drop(document.querySelector('[data-logo-drop]')!, {
      dataTransfer: { types: ['Files'], files: [pngFile('dropped.png')] },
    });
    expect(
      (await screen.findByRole('img', { name: /Chosen logo, dropped.png/ })).getAttribute('src'),
    ).toBe(PNG_URL);
  });

  it('shows the server’s refusal next to the control', async () => {
    const user = userEvent.setup();
    renderLogo({ logoUrl: null, refuse: 'A logo is at most 256 KiB' });
    await screen.findByText('No logo yet');
    await user.upload(fileInput(), pngFile());
    await user.click(await screen.findByRole('button', { name: 'Save logo' }));
    expect((await screen.findByRole('alert')).textContent).toBe('A logo is at most 256 KiB');
    expect(screen.getByRole('button', { name: 'Save logo' })).toBeTruthy();
  });

  it('removes the logo, keeping focus in the control', async () => {
    const user = userEvent.setup();
    const state = { logoUrl: PNG_URL as string | null };
    const server = renderLogo(state);
    expect((await screen.findByRole('img', { name: 'Current logo' })).getAttribute('src')).toBe(
      PNG_URL,
    );
    await expectNoAxeViolations();
    const remove = screen.getByRole('button', { name: 'Remove logo' });
    await waitFor(() => expect(remove.hasAttribute('disabled')).toBe(false));
    // By keyboard: Tab from Choose to Remove, Enter.
    screen.getByRole('button', { name: /Choose another logo/ }).focus();
    await user.tab();
    expect(document.activeElement).toBe(remove);
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Logo removed.')).toBeTruthy();
    expect(updates(server)[0]![1].body).toEqual({ logoUrl: null });
    expect(state.logoUrl).toBeNull();
    expect(screen.getByText('No logo yet')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remove logo' })).toBeNull();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: /Choose a logo/ })),
    );
    await expectNoAxeViolations();
  });

  it('cancels a chosen file', async () => {
    const user = userEvent.setup();
    const server = renderLogo({ logoUrl: null });
    await screen.findByText('No logo yet');
    await user.upload(fileInput(), pngFile());
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('No logo yet')).toBeTruthy();
    expect(updates(server)).toHaveLength(0);
  });

  it('shows the logo without controls to a member', async () => {
    renderLogo({ logoUrl: PNG_URL }, 'member');
    expect(await screen.findByRole('img', { name: 'Current logo' })).toBeTruthy();
    expect(screen.getByText('Owners and admins change the logo.')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
    expect(fileInput()).toBeNull();
  });

  it('says a plan without portal branding shows Satchel’s in the portal, with a way to upgrade', async () => {
    renderLogo({ logoUrl: PNG_URL });
    await screen.findByRole('img', { name: 'Current logo' });
    expect(screen.getByText(/Your Free plan does not include portal branding/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Upgrade plan' }).getAttribute('href')).toBe(
      '/settings?tab=billing',
    );
    await expectNoAxeViolations();
    // On a plan with the workspace's own branding, nothing to say.
    act(() => saveSubscription({ workspaceId: WORKSPACE, plan: 'pro' } as WorkspaceSubscription));
    expect(screen.queryByText(/does not include portal branding/)).toBeNull();
    expect(screen.queryByRole('link', { name: 'Upgrade plan' })).toBeNull();
  });

  it('says the logo is changed online when offline', async () => {
    Object.defineProperty(navigator, 'onLine', { value: false, configurable: true });
    const server = renderLogo({ logoUrl: null });
    expect(await screen.findByText(LOGO_OFFLINE_TEXT)).toBeTruthy();
    expect(screen.getByRole('button', { name: /Choose a logo/ }).hasAttribute('disabled')).toBe(
      true,
    );
    expect(server).not.toHaveBeenCalled();
  });
});
