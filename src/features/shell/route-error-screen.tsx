import { TriangleAlert } from 'lucide-react';
import { Button } from '../../ui/button.tsx';
import { LinkButton } from '../../ui/link-button.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';

export interface RouteErrorScreenProps {
  onRetry: () => void;
}

/**
 * Shown when a page fails to load or render, typically a code chunk that could not be fetched.
 * The error itself is not shown: it means nothing to the user.
 */
export function RouteErrorScreen({ onRetry }: RouteErrorScreenProps) {
  usePageTitle('Something went wrong');
  return (
    <div
      role="alert"
      className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center"
    >
      <span className="grid size-16 place-items-center rounded-2xl bg-brand-soft text-danger">
        <TriangleAlert aria-hidden="true" size={32} />
      </span>
      <h1 className="mt-6 text-3xl font-bold tracking-tight text-fg">Something went wrong</h1>
      <p className="mt-4 text-lg text-fg-muted">
        This page could not be shown. Check your connection and try again.
      </p>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        <Button size="large" onPress={onRetry}>
          Try again
        </Button>
        <LinkButton href="/" variant="secondary" size="large">
          Go to the home page
        </LinkButton>
      </div>
    </div>
  );
}
