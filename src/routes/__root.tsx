import { createRootRouteWithContext } from '@tanstack/react-router';
import { NotFoundScreen } from '../features/shell/not-found-screen.tsx';
import { RootLayout } from '../features/shell/root-layout.tsx';
import type { RouterContext } from './-router-context.ts';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  // The router runs with notFoundMode 'root', so every unknown path lands here.
  notFoundComponent: NotFoundScreen,
});
