import { describe, expect, it, vi } from 'vitest';
import { createSignedOutAuthController } from './signed-out-auth-controller.ts';

describe('createSignedOutAuthController', () => {
  it('starts loading, then resolves to unauthenticated and tells subscribers', async () => {
    const controller = createSignedOutAuthController();
    const listener = vi.fn();
    controller.subscribe(listener);
    expect(controller.getState()).toEqual({ status: 'loading' });

    await vi.waitFor(() => expect(controller.getState()).toEqual({ status: 'unauthenticated' }));
    expect(listener).toHaveBeenCalledTimes(1);
    controller.dispose();
  });

  it('returns the same state object until it changes', () => {
    const controller = createSignedOutAuthController();
    expect(controller.getState()).toBe(controller.getState());
    controller.dispose();
  });
});
