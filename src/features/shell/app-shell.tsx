import { Link } from '@tanstack/react-router';
import { lazy, Suspense, type ReactNode } from 'react';
import type { AuthUser } from '../../auth/auth-controller.ts';
import { SkipLink } from '../../ui/skip-link.tsx';
import { ThemeToggle } from '../../ui/theme-toggle.tsx';
import { NotificationBell } from '../notifications/notification-bell.tsx';
import { SearchLauncher } from '../search/search-launcher.tsx';
import { AccountMenu } from './account-menu.tsx';
import { appNavItems } from './app-nav-items.ts';
import { BrandLink } from './brand-link.tsx';
import { WorkspaceSwitcher } from './workspace-switcher.tsx';
import { isDemoUser } from '../../demo/demo-mode.ts';

export interface AppShellProps {
  user: AuthUser;
  onSignOut: () => void;
  /** Header slot for the sync state (saved / N waiting / offline / N failed), from the sync work. */
  syncStatus?: ReactNode;
  children: ReactNode;
}

// Loaded in the demo only (and not precached, vite.config.ts): real users never download it.
const DemoBar = lazy(() =>
  import('../../demo/demo-bar.tsx').then(({ DemoBar }) => ({ default: DemoBar })),
);

const sideLinkClass =
  'flex min-h-10 items-center gap-3 rounded-lg px-3 text-sm font-medium text-fg-muted hover:bg-surface-muted hover:text-fg aria-[current=page]:bg-brand-soft aria-[current=page]:text-brand';

const bottomLinkClass =
  'flex min-h-14 flex-1 flex-col items-center justify-center gap-0.5 px-1 text-[11px] font-medium text-fg-muted aria-[current=page]:text-brand';

/**
 * Frame of every signed-in page: a sidebar from the `md` breakpoint (with the colour theme switch
 * at its foot), a bottom bar on phones, and a header with the sync state and the account menu
 * (which also holds the theme, for phones).
 */
export function AppShell({ user, onSignOut, syncStatus, children }: AppShellProps) {
  return (
    <div className="min-h-dvh bg-canvas text-fg md:grid md:grid-cols-[15rem_1fr]">
      <SkipLink targetId="main" />
      <aside className="sticky top-0 hidden h-dvh flex-col border-r border-border bg-surface px-3 md:flex">
        <div className="flex h-16 items-center px-2">
          <BrandLink to="/dashboard" />
        </div>
        <nav aria-label="App" className="mt-4 flex flex-col gap-1">
          {appNavItems.map(({ to, label, Icon }) => (
            <Link key={to} to={to} className={sideLinkClass}>
              <Icon aria-hidden="true" size={18} />
              {label}
            </Link>
          ))}
        </nav>
        <div className="mt-auto flex items-center justify-between gap-2 border-t border-border px-2 py-4">
          <span className="text-sm text-fg-muted">Theme</span>
          <ThemeToggle />
        </div>
      </aside>
      <div className="flex min-w-0 flex-col pb-[calc(3.5rem+env(safe-area-inset-bottom))] md:pb-0">
        {/* The demo's bar sticks with the header: Reset and Create your account stay at hand. */}
        <div className="sticky top-0 z-30">
          {isDemoUser(user) ? (
            <Suspense fallback={null}>
              <DemoBar />
            </Suspense>
          ) : null}
          <header className="flex h-16 items-center gap-3 border-b border-border bg-canvas/90 px-4 backdrop-blur sm:px-6">
            <div className="md:hidden">
              <BrandLink to="/dashboard" compact />
            </div>
            <div className="flex min-w-0">
              <WorkspaceSwitcher />
            </div>
            <div className="ml-auto flex shrink-0 items-center gap-3">
              <SearchLauncher />
              {syncStatus}
              <NotificationBell />
              <AccountMenu user={user} onSignOut={onSignOut} />
            </div>
          </header>
        </div>
        <main
          id="main"
          tabIndex={-1}
          className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 outline-none sm:px-6 sm:py-8"
        >
          {children}
        </main>
      </div>
      <nav
        aria-label="App"
        className="fixed inset-x-0 bottom-0 z-30 flex border-t border-border bg-surface pb-[env(safe-area-inset-bottom)] md:hidden"
      >
        {appNavItems
          .filter((item) => !('bottomBar' in item) || item.bottomBar)
          .map(({ to, shortLabel, Icon }) => (
            <Link key={to} to={to} className={bottomLinkClass}>
              <Icon aria-hidden="true" size={20} />
              {shortLabel}
            </Link>
          ))}
      </nav>
    </div>
  );
}
