/** Spec 2 and 9: 2 s after /login or /signup opens, fetch the code of the first signed-in screens. */
export const appRoutePreloadDelayMs = 2_000;

/** Route ids (see src/routeTree.gen.ts) of the dashboard, projects and project workspace. */
export const appRouteIdsToPreload = [
  '/_app/dashboard',
  '/_app/projects/',
  '/_app/projects/$projectId/$clientId',
] as const;
export type PreloadedRouteId = (typeof appRouteIdsToPreload)[number];

/**
 * After `delayMs`, loads each route's code chunk (not its data, and without running its guard:
 * the visitor is signed out). Returns a cancel function for when the page is left earlier.
 * `onLoaded` runs once every chunk has arrived; a failed chunk is only a missed optimisation.
 */
export function scheduleRoutePreload(
  loadRouteChunk: (routeId: PreloadedRouteId) => Promise<unknown>,
  options: { delayMs?: number; onLoaded?: () => void } = {},
): () => void {
  const timer = setTimeout(() => {
    Promise.all(appRouteIdsToPreload.map((id) => loadRouteChunk(id))).then(
      () => options.onLoaded?.(),
      () => undefined,
    );
  }, options.delayMs ?? appRoutePreloadDelayMs);
  return () => clearTimeout(timer);
}
