import { Outlet, useRouter } from '@tanstack/react-router';
import { RouterProvider as AriaRouterProvider } from 'react-aria-components';

/**
 * Root of every page. It lets react-aria links (LinkButton, TextLink in `ui/`) navigate through
 * the router instead of reloading the document.
 */
export function RootLayout() {
  const router = useRouter();
  return (
    <AriaRouterProvider navigate={(href) => router.navigate({ href })} useHref={(href) => href}>
      <Outlet />
    </AriaRouterProvider>
  );
}
