import { describe, expect, it } from 'vitest';
import { isClientPortalPage, isClientPortalPath } from './client-portal-path.ts';

describe('isClientPortalPath', () => {
  it('is the gate and project pages, not the demo, shared links or the app', () => {
    expect(isClientPortalPath('/client-access')).toBe(true);
    expect(isClientPortalPath('/client/c1/project/p1')).toBe(true);
    for (const path of ['/client-portal-demo', '/clients', '/shared/abc', '/dashboard', '/']) {
      expect(isClientPortalPath(path), path).toBe(false);
    }
  });
});

describe('isClientPortalPage', () => {
  it('is the gate and a project page, which start the portal alone', () => {
    for (const path of ['/client-access', '/client/c1/project/p1', '/client/c1/project/p1/']) {
      expect(isClientPortalPage(path), path).toBe(true);
    }
  });

  it('is no other path under /client/ (the app says not found), nor the portal manifest', () => {
    for (const path of [
      '/client/c1',
      '/client/c1/project',
      '/client/c1/project/p1/manifest.webmanifest',
      '/client/c1/projects/p1',
      '/client-access/more',
      '/client-portal-demo',
      '/clients',
    ]) {
      expect(isClientPortalPage(path), path).toBe(false);
    }
  });
});
