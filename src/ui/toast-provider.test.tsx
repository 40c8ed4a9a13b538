import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from './toast-provider.tsx';
import { createToaster } from './toaster.ts';

afterEach(cleanup);

describe('ToastProvider', () => {
  it('keeps a polite live region mounted and shows at most one toast', () => {
    const toaster = createToaster();
    render(
      <ToastProvider toaster={toaster}>
        <p>page</p>
      </ToastProvider>,
    );
    const status = screen.getByRole('status');
    expect(status.getAttribute('aria-live')).toBe('polite');
    expect(status.textContent).toBe('');

    act(() => {
      toaster.show({ message: 'First' });
      toaster.show({ message: 'Second' });
    });
    expect(status.textContent).toContain('Second');
    expect(status.textContent).not.toContain('First');
  });

  it('runs the action and closes the toast', () => {
    const toaster = createToaster();
    const onAction = vi.fn();
    render(<ToastProvider toaster={toaster}>{null}</ToastProvider>);
    act(() => {
      toaster.show({ message: 'New version available', action: { label: 'Reload', onAction } });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(onAction).toHaveBeenCalledTimes(1);
    expect(toaster.getCurrent()).toBeNull();
  });

  it('hides a plain toast after its duration', () => {
    vi.useFakeTimers();
    try {
      const toaster = createToaster();
      render(<ToastProvider toaster={toaster}>{null}</ToastProvider>);
      act(() => {
        toaster.show({ message: 'Saved', durationMs: 1000 });
      });
      expect(screen.getByText('Saved')).toBeTruthy();
      act(() => {
        vi.advanceTimersByTime(1000);
      });
      expect(screen.queryByText('Saved')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('can be dismissed with its close button', () => {
    const toaster = createToaster();
    render(<ToastProvider toaster={toaster}>{null}</ToastProvider>);
    act(() => {
      toaster.show({ message: 'Saved' });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(screen.queryByText('Saved')).toBeNull();
  });
});
