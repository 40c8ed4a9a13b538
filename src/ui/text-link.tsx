import type { Ref } from 'react';
import { Link as AriaLink, type LinkProps as AriaLinkProps } from 'react-aria-components';

export interface TextLinkProps extends Omit<AriaLinkProps, 'className'> {
  href: string;
  className?: string;
  /** For focus to follow an item that became a link. */
  ref?: Ref<HTMLAnchorElement>;
}

/** An inline link in running text; underlined so it does not rely on colour alone. */
export function TextLink({ className = '', ...props }: TextLinkProps) {
  return (
    <AriaLink
      {...props}
      className={`cursor-pointer font-medium text-brand underline underline-offset-4 hover:text-brand-strong ${className}`}
    />
  );
}
