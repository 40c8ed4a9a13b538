/** The client portal's pages (its gate and a project's page): they start without sign-in. */
export function isClientPortalPath(pathname: string): boolean {
  return pathname === '/client-access' || pathname.startsWith('/client/');
}
