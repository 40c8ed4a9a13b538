import type { ReactNode } from 'react';
import { Logo } from '../../ui/logo.tsx';
import { SkipLink } from '../../ui/skip-link.tsx';
import { ThemeToggle } from '../../ui/theme-toggle.tsx';

export interface PortalLayoutProps {
  children: ReactNode;
  /** What the header calls the place: the client portal, or a shared file. */
  label?: string;
}

/**
 * The client portal: the visitor is a client without an account, so there is no app navigation,
 * only the project they were invited to.
 */
export function PortalLayout({ children, label = 'Client portal' }: PortalLayoutProps) {
  return (
    <div className="flex min-h-dvh flex-col bg-canvas text-fg">
      <SkipLink targetId="main" />
      <header className="border-b border-border bg-surface">
        <div className="mx-auto flex h-16 max-w-5xl items-center justify-between gap-4 px-4 sm:px-6">
          <span className="inline-flex items-center gap-2 text-base font-semibold">
            <Logo size="small" label={null} />
            <span>{label}</span>
          </span>
          <ThemeToggle />
        </div>
      </header>
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-5xl flex-1 px-4 py-8 outline-none sm:px-6 sm:py-12"
      >
        {children}
      </main>
      <footer className="px-4 py-6 text-center text-sm text-fg-muted">
        Shared with you through Satchel.
      </footer>
    </div>
  );
}
