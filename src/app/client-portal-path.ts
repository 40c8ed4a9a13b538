/** The client portal's pages (its gate and a project's page): they start without sign-in. */
export function isClientPortalPath(pathname: string): boolean {
  return pathname === '/client-access' || pathname.startsWith('/client/');
}

/**
 * The portal's two pages, the password gate and a project's page, which start the portal's own
 * entry (src/app/mount-portal.tsx) instead of the app. Other paths under /client/ are
 * no page of the portal (the app's not-found page says so).
 */
export function isClientPortalPage(pathname: string): boolean {
  return /^\/client-access\/?$|^\/client\/[^/]+\/project\/[^/]+\/?$/i.test(pathname);
}
