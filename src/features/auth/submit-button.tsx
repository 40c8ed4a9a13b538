import type { ReactNode } from 'react';
import { Button, type ButtonProps } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';

export interface SubmitButtonProps extends Omit<ButtonProps, 'type' | 'children'> {
  isPending: boolean;
  children: ReactNode;
  /** Replaces the label while pending ("Signing in..."). */
  pendingLabel?: string;
}

/**
 * The form's submit button. While the request runs it shows a spinner and ignores presses (the
 * form's handler checks the same flag, since Enter in a field submits without the button).
 */
export function SubmitButton({
  isPending,
  children,
  pendingLabel,
  size = 'large',
  className = 'w-full',
  ...props
}: SubmitButtonProps) {
  return (
    <Button {...props} type="submit" size={size} className={className} isPending={isPending}>
      {isPending ? (
        <>
          <Spinner size="small" className="text-current" />
          {pendingLabel ?? children}
        </>
      ) : (
        children
      )}
    </Button>
  );
}
