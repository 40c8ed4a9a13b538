import { Compass } from 'lucide-react';
import { LinkButton } from '../../ui/link-button.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { PublicLayout } from './public-layout.tsx';

/** Any path the app does not know. */
export function NotFoundScreen() {
  usePageTitle('Page not found');
  return (
    <PublicLayout>
      <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center sm:py-28">
        <span className="grid size-16 place-items-center rounded-2xl bg-brand-soft text-brand">
          <Compass aria-hidden="true" size={32} />
        </span>
        <p className="mt-6 text-sm font-semibold tracking-wide text-brand uppercase">Error 404</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-fg sm:text-4xl">
          Page not found
        </h1>
        <p className="mt-4 text-lg text-fg-muted">
          We could not find the page you asked for. It may have moved, or the link may be mistyped.
        </p>
        <div className="mt-8 flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
          <LinkButton href="/" size="large">
            Go to the home page
          </LinkButton>
          <LinkButton href="/dashboard" variant="secondary" size="large">
            Open your dashboard
          </LinkButton>
        </div>
      </div>
    </PublicLayout>
  );
}
