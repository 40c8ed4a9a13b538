import { describe, expect, it } from 'vitest';
import { isClientPortalPath } from './client-portal-path.ts';

describe('isClientPortalPath', () => {
  it('is the gate and project pages, not the demo, shared links or the app', () => {
    expect(isClientPortalPath('/client-access')).toBe(true);
    expect(isClientPortalPath('/client/c1/project/p1')).toBe(true);
    for (const path of ['/client-portal-demo', '/clients', '/shared/abc', '/dashboard', '/']) {
      expect(isClientPortalPath(path), path).toBe(false);
    }
  });
});
