export interface ResolvedNavigationSource {
  subscribe(event: 'onResolved', listener: (event: { pathChanged: boolean }) => void): () => void;
}

/**
 * Spec 1: the page scrolls to the top on every path change. The router also resets scroll on
 * navigation by default; this makes the rule explicit and independent of that default (scroll
 * restoration stays off). Search-only changes (filters, tabs) are left alone here.
 */
export function scrollToTopOnPathChange(
  router: ResolvedNavigationSource,
  scrollTo: (x: number, y: number) => void = (x, y) => window.scrollTo(x, y),
): () => void {
  return router.subscribe('onResolved', (event) => {
    if (event.pathChanged) scrollTo(0, 0);
  });
}
