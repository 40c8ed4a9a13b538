import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { SkipLink } from '../../ui/skip-link.tsx';
import { ThemeToggle } from '../../ui/theme-toggle.tsx';
import { BrandLink } from './brand-link.tsx';

export interface AuthLayoutProps {
  children: ReactNode;
}

/** Sign-in, sign-up and password pages: a quiet frame around one centred column. */
export function AuthLayout({ children }: AuthLayoutProps) {
  return (
    <div className="flex min-h-dvh flex-col bg-canvas text-fg">
      <SkipLink targetId="main" />
      <header className="mx-auto flex h-16 w-full max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <BrandLink />
        <ThemeToggle />
      </header>
      <main
        id="main"
        tabIndex={-1}
        className="flex flex-1 justify-center px-4 py-8 outline-none sm:py-16"
      >
        <div className="w-full max-w-md">{children}</div>
      </main>
      <footer className="px-4 py-6 text-center text-sm text-fg-muted">
        <Link
          to="/terms-of-service"
          className="inline-flex min-h-11 items-center px-2 hover:text-fg"
        >
          Terms
        </Link>
        <Link to="/privacy-policy" className="inline-flex min-h-11 items-center px-2 hover:text-fg">
          Privacy
        </Link>
        <Link to="/contact" className="inline-flex min-h-11 items-center px-2 hover:text-fg">
          Help
        </Link>
      </footer>
    </div>
  );
}
