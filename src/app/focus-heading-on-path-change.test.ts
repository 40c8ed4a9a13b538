import { describe, expect, it, vi } from 'vitest';
import { focusHeadingOnPathChange, type NavigationEvents } from './focus-heading-on-path-change.ts';

function fakeRouter() {
  const listeners = new Map<
    string,
    ((event: { pathChanged: boolean; fromLocation?: unknown }) => void)[]
  >();
  const router: NavigationEvents = {
    subscribe(event, listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return () =>
        listeners.set(
          event,
          (listeners.get(event) ?? []).filter((l) => l !== listener),
        );
    },
  };
  const emit = (event: string, payload: { pathChanged: boolean; fromLocation?: unknown }) => {
    for (const listener of listeners.get(event) ?? []) listener(payload);
  };
  return { router, emit };
}

describe('focusHeadingOnPathChange', () => {
  it('focuses the heading after a path change, handing over where focus was left', () => {
    const { router, emit } = fakeRouter();
    const link = document.createElement('a');
    const stop = vi.fn();
    const focus = vi.fn(() => stop);
    focusHeadingOnPathChange(router, focus, () => link);
    emit('onBeforeNavigate', { pathChanged: true, fromLocation: {} });
    emit('onResolved', { pathChanged: true, fromLocation: {} });
    expect(focus).toHaveBeenCalledWith(link);
    // A second navigation stops following the first page's heading.
    emit('onBeforeNavigate', { pathChanged: true, fromLocation: {} });
    emit('onResolved', { pathChanged: true, fromLocation: {} });
    expect(stop).toHaveBeenCalledTimes(1);
    expect(focus).toHaveBeenCalledTimes(2);
  });

  it('leaves focus alone on a search-only change (a tab, a filter) and on the first load', () => {
    const { router, emit } = fakeRouter();
    const focus = vi.fn(() => () => undefined);
    focusHeadingOnPathChange(router, focus, () => null);
    emit('onResolved', { pathChanged: true });
    emit('onBeforeNavigate', { pathChanged: false, fromLocation: {} });
    emit('onResolved', { pathChanged: false, fromLocation: {} });
    expect(focus).not.toHaveBeenCalled();
  });

  it('stops when disposed', () => {
    const { router, emit } = fakeRouter();
    const focus = vi.fn(() => () => undefined);
    focusHeadingOnPathChange(router, focus, () => null)();
    emit('onResolved', { pathChanged: true, fromLocation: {} });
    expect(focus).not.toHaveBeenCalled();
  });
});
