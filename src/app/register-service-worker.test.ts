import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createToaster } from '../ui/toaster.ts';
import { registerServiceWorker, type ServiceWorkerHost } from './register-service-worker.ts';

class FakeWorkbox implements ServiceWorkerHost {
  listeners = new Map<string, (() => void)[]>();
  register = vi.fn(() => Promise.resolve(undefined));
  update = vi.fn(() => Promise.resolve(undefined));
  messageSkipWaiting = vi.fn();
  addEventListener(type: 'waiting' | 'controlling', listener: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: 'waiting' | 'controlling') {
    for (const listener of this.listeners.get(type) ?? []) listener();
  }
}

function setup() {
  const workbox = new FakeWorkbox();
  const toaster = createToaster();
  const reload = vi.fn();
  const visibility = new EventTarget() as EventTarget & {
    visibilityState: DocumentVisibilityState;
  };
  visibility.visibilityState = 'visible';
  const stop = registerServiceWorker({
    workbox,
    toaster,
    reload,
    visibility,
    updateIntervalMs: 1000,
  });
  return { workbox, toaster, reload, visibility, stop };
}

describe('registerServiceWorker', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('registers the worker', () => {
    const { workbox, stop } = setup();
    expect(workbox.register).toHaveBeenCalledTimes(1);
    stop();
  });

  it('offers a reload when a new version is waiting, and never reloads by itself', () => {
    const { workbox, toaster, reload, stop } = setup();
    workbox.emit('waiting');
    const toast = toaster.getCurrent();
    expect(toast?.message).toBe('New version available');
    expect(toast?.action?.label).toBe('Reload');
    expect(toast?.durationMs).toBeNull();

    // Another tab took the update: this one keeps its state.
    workbox.emit('controlling');
    expect(reload).not.toHaveBeenCalled();
    expect(workbox.messageSkipWaiting).not.toHaveBeenCalled();
    stop();
  });

  it('on Reload asks the waiting worker to take over, then reloads once it controls the page', () => {
    const { workbox, toaster, reload, stop } = setup();
    workbox.emit('waiting');
    toaster.getCurrent()?.action?.onAction();
    expect(workbox.messageSkipWaiting).toHaveBeenCalledTimes(1);
    expect(reload).not.toHaveBeenCalled();

    workbox.emit('controlling');
    expect(reload).toHaveBeenCalledTimes(1);
    stop();
  });

  it('checks for updates on a timer and when the tab becomes visible', () => {
    const { workbox, visibility, stop } = setup();
    vi.advanceTimersByTime(1000);
    expect(workbox.update).toHaveBeenCalledTimes(1);

    visibility.visibilityState = 'hidden';
    visibility.dispatchEvent(new Event('visibilitychange'));
    expect(workbox.update).toHaveBeenCalledTimes(1);

    visibility.visibilityState = 'visible';
    visibility.dispatchEvent(new Event('visibilitychange'));
    expect(workbox.update).toHaveBeenCalledTimes(2);

    stop();
    vi.advanceTimersByTime(5000);
    visibility.dispatchEvent(new Event('visibilitychange'));
    expect(workbox.update).toHaveBeenCalledTimes(2);
  });
});
