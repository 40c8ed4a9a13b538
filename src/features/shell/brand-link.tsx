import { Link } from '@tanstack/react-router';
import { Logo } from '../../ui/logo.tsx';

export interface BrandLinkProps {
  to?: '/' | '/dashboard';
}

/** Logo plus word mark, linking home. */
export function BrandLink({ to = '/' }: BrandLinkProps) {
  return (
    <Link
      to={to}
      className="inline-flex min-h-11 items-center gap-2 rounded-lg text-lg font-bold tracking-tight text-fg"
    >
      <Logo size="small" label={null} />
      <span>Satchel</span>
    </Link>
  );
}
