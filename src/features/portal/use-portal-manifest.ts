/**
 * While a portal page is open, the document's manifest is that project's portal manifest
 * (server/portal/portal-manifest.ts): "Add to Home Screen" installs the client's project, not the
 * members' app. The app's manifest comes back when the page goes.
 */
import { useEffect } from 'react';
import { portalManifestPath } from '#contract/endpoints/client-portal.ts';

export function usePortalManifest(clientId: string, projectId: string): void {
  useEffect(() => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
    if (!link) return;
    const appManifest = link.getAttribute('href');
    link.setAttribute('href', portalManifestPath(clientId, projectId));
    return () => {
      if (appManifest === null) link.removeAttribute('href');
      else link.setAttribute('href', appManifest);
    };
  }, [clientId, projectId]);
}
