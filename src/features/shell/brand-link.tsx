import { Link } from '@tanstack/react-router';
import { Logo } from '../../ui/logo.tsx';

export interface BrandLinkProps {
  to?: '/' | '/dashboard';
  /** Below 400 px the word mark is for screen readers only (the app header's phone width). */
  compact?: boolean;
}

/** Logo plus word mark, linking home. */
export function BrandLink({ to = '/', compact = false }: BrandLinkProps) {
  return (
    <Link
      to={to}
      className="inline-flex min-h-11 items-center gap-2 rounded-lg text-lg font-bold tracking-tight text-fg"
    >
      <Logo size="small" label={null} />
      <span className={compact ? 'max-[399px]:sr-only' : undefined}>Satchel</span>
    </Link>
  );
}
