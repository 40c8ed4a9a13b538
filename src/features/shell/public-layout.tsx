import { Link, useRouterState } from '@tanstack/react-router';
import { Menu, X } from 'lucide-react';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Button } from '../../ui/button.tsx';
import { LinkButton } from '../../ui/link-button.tsx';
import { SkipLink } from '../../ui/skip-link.tsx';
import { ThemeToggle } from '../../ui/theme-toggle.tsx';
import { BrandLink } from './brand-link.tsx';

const mainNav = [
  { to: '/features', label: 'Features' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/faq', label: 'FAQ' },
  { to: '/contact', label: 'Contact' },
] as const;

const footerNav = [
  { to: '/terms-of-service', label: 'Terms' },
  { to: '/privacy-policy', label: 'Privacy' },
  { to: '/feedback', label: 'Feedback' },
  { to: '/contact', label: 'Contact' },
  { to: '/demo', label: 'Demo' },
] as const;

const navLinkClass =
  'inline-flex min-h-11 items-center rounded-lg px-3 sm:px-2 md:px-3 text-sm font-medium text-fg-muted hover:bg-surface-muted hover:text-fg aria-[current=page]:text-fg aria-[current=page]:underline aria-[current=page]:decoration-brand aria-[current=page]:decoration-2 aria-[current=page]:underline-offset-8 sm:min-h-10';

export interface PublicLayoutProps {
  children: ReactNode;
}

/** Marketing pages: header with navigation and sign-in, footer with the legal links. */
export function PublicLayout({ children }: PublicLayoutProps) {
  return (
    <div className="flex min-h-dvh flex-col bg-canvas text-fg">
      <SkipLink targetId="main" />
      <PublicHeader />
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        {children}
      </main>
      <PublicFooter />
    </div>
  );
}

function PublicHeader() {
  const menuId = useId();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  // The menu remembers the page it was opened on, so following one of its links closes it.
  const [openedOn, setOpenedOn] = useState<string | null>(null);
  const isMenuOpen = openedOn === pathname;
  const setMenuOpen = (open: boolean) => setOpenedOn(open ? pathname : null);

  useEffect(() => {
    if (!isMenuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpenedOn(null);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [isMenuOpen]);

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-canvas/90 backdrop-blur supports-[backdrop-filter]:bg-canvas/75">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4 md:gap-4 md:px-6">
        <BrandLink />
        <nav aria-label="Main" className="hidden flex-1 items-center gap-0.5 sm:flex md:gap-1">
          {mainNav.map((item) => (
            <Link key={item.to} to={item.to} className={navLinkClass}>
              {item.label}
            </Link>
          ))}
        </nav>
        <div className="ml-auto hidden items-center gap-2 sm:flex">
          <div className="hidden lg:block">
            <ThemeToggle />
          </div>
          <LinkButton href="/login" variant="ghost">
            Sign in
          </LinkButton>
          <LinkButton href="/signup">Get started</LinkButton>
        </div>
        <Button
          variant="ghost"
          size="icon"
          className="ml-auto sm:hidden"
          aria-label={isMenuOpen ? 'Close menu' : 'Open menu'}
          aria-expanded={isMenuOpen}
          aria-controls={menuId}
          onPress={() => setMenuOpen(!isMenuOpen)}
        >
          {isMenuOpen ? <X aria-hidden="true" size={22} /> : <Menu aria-hidden="true" size={22} />}
        </Button>
      </div>
      <div
        id={menuId}
        hidden={!isMenuOpen}
        className="border-t border-border bg-canvas px-4 pt-2 pb-4 sm:hidden"
      >
        <nav aria-label="Main" className="flex flex-col">
          {mainNav.map((item) => (
            <Link key={item.to} to={item.to} className={`${navLinkClass} text-base`}>
              {item.label}
            </Link>
          ))}
        </nav>
        <div className="mt-3 grid grid-cols-2 gap-2">
          <LinkButton href="/login" variant="secondary">
            Sign in
          </LinkButton>
          <LinkButton href="/signup">Get started</LinkButton>
        </div>
        <div className="mt-4 flex items-center justify-between">
          <span className="text-sm text-fg-muted">Theme</span>
          <ThemeToggle />
        </div>
      </div>
    </header>
  );
}

function PublicFooter() {
  return (
    <footer className="border-t border-border bg-surface-muted/60">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 md:px-6 lg:flex-row lg:items-center lg:justify-between">
        <div className="flex items-center justify-between gap-4">
          <p className="text-sm text-fg-muted">
            © {new Date().getFullYear()} Satchel. Your work, even offline.
          </p>
          {/* Phones have the toggle in the menu and wide screens in the header. */}
          <div className="hidden sm:block lg:hidden">
            <ThemeToggle />
          </div>
        </div>
        <nav aria-label="Footer">
          <ul className="-mx-3 flex flex-wrap gap-x-1 gap-y-1">
            {footerNav.map((item) => (
              <li key={item.label}>
                <Link to={item.to} className={navLinkClass}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </footer>
  );
}
