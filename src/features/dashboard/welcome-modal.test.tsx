import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderScreen, signedIn } from '../auth/screen-test-utils.tsx';
import { WelcomeModal, welcomeDismissedKey } from './welcome-modal.tsx';

beforeEach(() => localStorage.clear());
afterEach(cleanup);

const userId = signedIn.status === 'authenticated' ? signedIn.user.id : '';

describe('WelcomeModal', () => {
  it('greets the user on the first visit and remembers the dismissal per user', async () => {
    renderScreen(<WelcomeModal />, { auth: signedIn });
    expect(screen.getByRole('heading', { name: 'Welcome to Satchel, Ada!' })).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Get started' }));
    expect(screen.queryByRole('heading', { name: /Welcome/ })).toBeNull();
    expect(localStorage.getItem(welcomeDismissedKey(userId))).toBe('1');

    cleanup();
    renderScreen(<WelcomeModal />, { auth: signedIn });
    expect(screen.queryByRole('heading', { name: /Welcome/ })).toBeNull();
  });

  it('still greets another user of the same browser', () => {
    localStorage.setItem(welcomeDismissedKey('someone-else'), '1');
    renderScreen(<WelcomeModal />, { auth: signedIn });
    expect(screen.getByRole('heading', { name: 'Welcome to Satchel, Ada!' })).toBeTruthy();
  });

  it('takes focus to the page heading when closed, not to the body', async () => {
    renderScreen(
      <main>
        <h1>Dashboard</h1>
        <WelcomeModal />
      </main>,
      { auth: signedIn },
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Get started' }));
    const heading = screen.getByRole('heading', { level: 1, name: 'Dashboard' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });
});
