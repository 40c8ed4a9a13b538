import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { usePortalManifest } from './use-portal-manifest.ts';

function Page({ clientId, projectId }: { clientId: string; projectId: string }) {
  usePortalManifest(clientId, projectId);
  return null;
}

afterEach(() => {
  cleanup();
  document.head.innerHTML = '';
});

describe('usePortalManifest', () => {
  it("points the manifest at the project's portal while the page is open, then back", () => {
    document.head.innerHTML = '<link rel="manifest" href="/manifest.webmanifest">';
    const link = document.querySelector('link[rel="manifest"]')!;
    const view = render(<Page clientId="c1" projectId="p1" />);
    expect(link.getAttribute('href')).toBe('/client/c1/project/p1/manifest.webmanifest');
    view.rerender(<Page clientId="c1" projectId="p2" />);
    expect(link.getAttribute('href')).toBe('/client/c1/project/p2/manifest.webmanifest');
    view.unmount();
    expect(link.getAttribute('href')).toBe('/manifest.webmanifest');
  });
});
