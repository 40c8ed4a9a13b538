import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appRouteIdsToPreload, scheduleRoutePreload } from './preload-app-routes.ts';

describe('scheduleRoutePreload', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('loads the dashboard, projects and project workspace chunks after 2 s', async () => {
    const loadRouteChunk = vi.fn((_id: string) => Promise.resolve());
    const onLoaded = vi.fn();
    scheduleRoutePreload(loadRouteChunk, { onLoaded });

    vi.advanceTimersByTime(1999);
    expect(loadRouteChunk).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(1);
    expect(loadRouteChunk.mock.calls.map(([id]) => id)).toEqual([
      '/_app/dashboard',
      '/_app/projects/',
      '/_app/projects/$projectId/$clientId',
    ]);
    expect(onLoaded).toHaveBeenCalledTimes(1);
  });

  it('loads nothing when the page is left before 2 s', () => {
    const loadRouteChunk = vi.fn(() => Promise.resolve());
    const cancel = scheduleRoutePreload(loadRouteChunk);
    vi.advanceTimersByTime(1500);
    cancel();
    vi.advanceTimersByTime(5000);
    expect(loadRouteChunk).not.toHaveBeenCalled();
  });

  it('swallows a failed chunk: it is only an optimisation', async () => {
    const onLoaded = vi.fn();
    scheduleRoutePreload(() => Promise.reject(new Error('offline')), { onLoaded });
    await vi.advanceTimersByTimeAsync(2000);
    expect(onLoaded).not.toHaveBeenCalled();
  });

  it('names three routes', () => {
    expect(appRouteIdsToPreload).toHaveLength(3);
  });
});
