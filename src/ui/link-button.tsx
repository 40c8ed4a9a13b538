import { Link as AriaLink, type LinkProps as AriaLinkProps } from 'react-aria-components';
import { buttonClassName, type ButtonSize, type ButtonVariant } from './button.tsx';

export interface LinkButtonProps extends Omit<AriaLinkProps, 'className'> {
  href: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
}

/**
 * A link that looks like a button. It navigates through react-aria's RouterProvider, which the
 * app connects to the router, so `ui/` stays free of router imports.
 */
export function LinkButton({ variant, size, className, ...props }: LinkButtonProps) {
  return <AriaLink {...props} className={buttonClassName(variant, size, className)} />;
}
