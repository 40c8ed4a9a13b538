// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { liveStart } from './mount-portal.tsx';

const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
};

const store = () => ({ '/api/client-portal?endpoint=x': Promise.resolve(new Response('{}')) });

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('liveStart', () => {
  it('starts at once after a copy from the device, or none', async () => {
    expect(await settled(liveStart('checking', undefined))).toBe(true);
    expect(await settled(liveStart('offline', undefined))).toBe(true);
    expect(await settled(liveStart(null, undefined))).toBe(true);
  });

  it("waits for the client's first engagement after a copy of this load's answers, keeping fresh answers", async () => {
    const prefetched = store();
    const started = liveStart('fresh', prefetched);
    expect(await settled(started)).toBe(false);
    window.dispatchEvent(new Event('pointerdown'));
    expect(await settled(started)).toBe(true);
    expect(Object.keys(prefetched)).toHaveLength(1);
  });

  it('drops answers that grew old before the engagement', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2026-11-28T10:00:00Z'));
    const prefetched = store();
    const started = liveStart('fresh', prefetched);
    vi.setSystemTime(Date.parse('2026-11-28T10:00:31Z'));
    window.dispatchEvent(new KeyboardEvent('keydown'));
    await started;
    expect(Object.keys(prefetched)).toHaveLength(0);
  });

  it('starts when a tab opened in the background is shown', async () => {
    let state: DocumentVisibilityState = 'hidden';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => state);
    const started = liveStart('fresh', undefined);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(await settled(started)).toBe(false);
    state = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    expect(await settled(started)).toBe(true);
  });
});
