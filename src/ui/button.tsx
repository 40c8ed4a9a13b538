import type { Ref } from 'react';
import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'medium' | 'large' | 'icon';

const base =
  'inline-flex items-center justify-center gap-2 rounded-lg font-semibold whitespace-nowrap ' +
  'transition-colors select-none cursor-pointer no-underline ' +
  'data-disabled:cursor-not-allowed data-disabled:opacity-50 disabled:cursor-not-allowed disabled:opacity-50';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-brand text-on-brand hover:bg-brand-strong data-pressed:bg-brand-strong shadow-sm',
  secondary:
    'border border-border-strong bg-surface text-fg hover:bg-surface-muted data-pressed:bg-surface-muted',
  ghost: 'text-fg hover:bg-surface-muted data-pressed:bg-surface-muted',
  // Dark text on the lighter dark-theme red: white on it is only 2.8:1.
  danger: 'bg-danger text-white dark:text-canvas hover:opacity-90 data-pressed:opacity-90',
};

// 44 px minimum height below the `sm` breakpoint: a comfortable touch target on phones.
const sizes: Record<ButtonSize, string> = {
  medium: 'min-h-11 px-4 text-sm sm:min-h-10',
  large: 'min-h-12 px-6 text-base',
  /** Square, for a button whose only content is an icon (give it an aria-label). */
  icon: 'size-11 shrink-0 p-0 sm:size-10',
};

export function buttonClassName(
  variant: ButtonVariant = 'primary',
  size: ButtonSize = 'medium',
  extra = '',
): string {
  return `${base} ${variants[variant]} ${sizes[size]} ${extra}`.trim();
}

export interface ButtonProps extends Omit<AriaButtonProps, 'className'> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
  /** To move focus back to the button (React 19 hands `ref` over as a prop). */
  ref?: Ref<HTMLButtonElement>;
}

export function Button({ variant, size, className, ...props }: ButtonProps) {
  return <AriaButton {...props} className={buttonClassName(variant, size, className)} />;
}
