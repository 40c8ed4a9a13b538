import { describe, expect, it, vi } from 'vitest';
import { createToaster, defaultToastDurationMs } from './toaster.ts';

describe('createToaster', () => {
  it('shows one toast at a time: a new one replaces the current', () => {
    const toaster = createToaster();
    const first = toaster.show({ message: 'Saved' });
    const second = toaster.show({ message: 'Copied', tone: 'success' });
    expect(second).not.toBe(first);
    expect(toaster.getCurrent()).toMatchObject({ id: second, message: 'Copied', tone: 'success' });
  });

  it('ignores dismissing a toast that was already replaced', () => {
    const toaster = createToaster();
    const first = toaster.show({ message: 'Saved' });
    const second = toaster.show({ message: 'Copied' });
    toaster.dismiss(first);
    expect(toaster.getCurrent()?.id).toBe(second);
    toaster.dismiss();
    expect(toaster.getCurrent()).toBeNull();
  });

  it('hides after 5 s by default, but keeps a toast with an action until dismissed', () => {
    const toaster = createToaster();
    toaster.show({ message: 'Saved' });
    expect(toaster.getCurrent()?.durationMs).toBe(defaultToastDurationMs);
    toaster.show({ message: 'Undo?', action: { label: 'Undo', onAction: () => undefined } });
    expect(toaster.getCurrent()?.durationMs).toBeNull();
    toaster.show({ message: 'Custom', durationMs: 1000 });
    expect(toaster.getCurrent()?.durationMs).toBe(1000);
  });

  it('notifies subscribers until they unsubscribe', () => {
    const toaster = createToaster();
    const listener = vi.fn();
    const unsubscribe = toaster.subscribe(listener);
    toaster.show({ message: 'a' });
    toaster.dismiss();
    unsubscribe();
    toaster.show({ message: 'b' });
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
