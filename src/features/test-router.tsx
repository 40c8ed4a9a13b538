/**
 * Test-only: a screen under a tiny in-memory router, for the screens that link or navigate.
 * `routes` maps each path the test needs to what it shows there (null for a route that only has
 * to exist, as a link's target); the router starts at `at`. `context` is the router context the
 * app gives its routes (the fake API, where a screen calls the server).
 */
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  type AnyRouter,
} from '@tanstack/react-router';
import type { ReactNode } from 'react';

export function createTestRouter(
  routes: Record<string, (() => ReactNode) | null>,
  at: string,
  context?: Record<string, unknown>,
): AnyRouter {
  const root = createRootRoute({ component: Outlet });
  return createRouter({
    routeTree: root.addChildren(
      Object.entries(routes).map(([path, show]) =>
        createRoute({ getParentRoute: () => root, path, component: show ?? (() => null) }),
      ),
    ),
    history: createMemoryHistory({ initialEntries: [at] }),
    ...(context ? { context } : {}),
  });
}
