import { useRouter, type AnyRoute } from '@tanstack/react-router';
import { useEffect } from 'react';
import { scheduleRoutePreload } from './preload-app-routes.ts';

/**
 * Preloads the signed-in screens' code while the visitor is on /login or /signup, so the first
 * page after signing in opens at once. When done, <html data-routes-preloaded> is set: end-to-end
 * tests and curious developers can see that it happened.
 */
export function usePreloadAppRoutes(): void {
  const router = useRouter();
  useEffect(() => {
    // A screen needs its layouts' code too (the signed-in shell), not only its own chunk.
    const loadWithLayouts = (route: AnyRoute) => {
      const chunks: Promise<unknown>[] = [];
      let current: AnyRoute | undefined = route;
      while (current) {
        chunks.push(router.loadRouteChunk(current) ?? Promise.resolve());
        current = current.parentRoute as AnyRoute | undefined;
      }
      return Promise.all(chunks);
    };
    return scheduleRoutePreload((id) => loadWithLayouts(router.routesById[id]), {
      onLoaded: () => {
        document.documentElement.dataset['routesPreloaded'] = 'true';
      },
    });
  }, [router]);
}
