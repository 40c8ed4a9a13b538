import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { RouteErrorScreen } from '../features/shell/route-error-screen.tsx';
import { routeTree } from '../routeTree.gen.ts';
import type { RouterContext } from '../routes/-router-context.ts';
import { LoadingView } from '../ui/loading-view.tsx';
import { parsePlainSearch, stringifyPlainSearch } from './plain-search.ts';
import { focusHeadingOnPathChange } from './focus-heading-on-path-change.ts';
import { scrollToTopOnPathChange } from './scroll-to-top-on-path-change.ts';

export interface CreateAppRouterOptions {
  /** Browser history by default; tests pass `createMemoryHistory`. */
  history?: RouterHistory;
}

export function createAppRouter(context: RouterContext, options: CreateAppRouterOptions = {}) {
  const router = createRouter({
    routeTree,
    context,
    ...(options.history ? { history: options.history } : {}),
    // Every unknown path shows the root's not-found page, whatever layout it would fall under:
    // an unknown /projects/... path must not hit the signed-in guard first.
    notFoundMode: 'root',
    scrollRestoration: false,
    // Hovering or focusing a link fetches the target's code before the click.
    defaultPreload: 'intent',
    parseSearch: parsePlainSearch,
    stringifySearch: stringifyPlainSearch,
    defaultPendingComponent: () => <LoadingView variant="inline" />,
    defaultErrorComponent: ({ reset }) => <RouteErrorScreen onRetry={reset} />,
  });
  scrollToTopOnPathChange(router);
  focusHeadingOnPathChange(router);
  return router;
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
