/**
 * Build-time entry of the prerender step (scripts/prerender-site.mjs): renders one public page with
 * the real app, exactly as a browser would on first load for a signed-out visitor (no stored
 * theme), inside the jsdom document the step provides. Bundled for Node with the browser code
 * paths, so the markup is the client's own.
 */
import { createMemoryHistory } from '@tanstack/react-router';
import { createRoot } from 'react-dom/client';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { AuthController, AuthState } from '../auth/auth-controller.ts';
import { sitePages } from '../features/marketing/site-pages.ts';
import { createThemeController } from '../ui/theme.ts';
import { createToaster } from '../ui/toaster.ts';
import { App } from './app.tsx';
import { createAppRouter } from './create-app-router.tsx';

export {
  composeNotFoundPage,
  composePrerenderedPage,
  NOT_FOUND_FILE,
  NOT_FOUND_RENDER_PATH,
  prerenderedFile,
  robotsTxt,
  sitemapXml,
} from '../features/marketing/page-head.ts';
export { sitePages };

const signedOut: AuthState = { status: 'unauthenticated' };
const signedOutController: AuthController = {
  getState: () => signedOut,
  subscribe: () => () => undefined,
  signOut: () => Promise.resolve(),
  dispose: () => undefined,
};

const noApi: CallEndpoint = () =>
  Promise.reject(new Error('The prerender step does not call the API.'));

function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Every path the app routes (`/clients/$id`, `/projects/$projectId/activity`, ...), from the
 * router's own tree, without layouts: the server answers any other page path with 404.
 */
export function appRoutePaths(): string[] {
  const router = createAppRouter({ auth: signedOut, api: { callEndpoint: noApi } });
  return Object.keys(router.routesByPath).sort();
}

export interface RenderedPage {
  /** The innerHTML of the app's container once the page has rendered. */
  markup: string;
  /** document.title as the page set it. */
  title: string;
}

/** Renders `path` and resolves once its main heading is on the page and effects have run. */
export async function renderPage(path: string, timeoutMs = 10_000): Promise<RenderedPage> {
  const container = document.createElement('div');
  document.body.append(container);
  const history = createMemoryHistory({ initialEntries: [path] });
  const router = createAppRouter({ auth: signedOut, api: { callEndpoint: noApi } }, { history });
  await router.load();
  const root = createRoot(container);
  root.render(
    <App
      router={router}
      authController={signedOutController}
      themeController={createThemeController({
        document,
        storage: undefined,
        matchMedia: undefined,
      })}
      toaster={createToaster()}
    />,
  );
  const started = Date.now();
  while (!container.querySelector('main h1')) {
    if (Date.now() - started > timeoutMs) {
      root.unmount();
      container.remove();
      throw new Error(`Prerender of ${path}: no <h1> in <main> after ${timeoutMs} ms`);
    }
    await nextTask();
  }
  // Layout effects (disclosure panels) and effects (the title) of the final render.
  for (let i = 0; i < 5; i += 1) await nextTask();
  const rendered = { markup: container.innerHTML, title: document.title };
  root.unmount();
  container.remove();
  return rendered;
}
