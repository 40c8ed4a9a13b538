import type { ReactNode, Ref } from 'react';
import {
  FieldError,
  Input,
  Label,
  Text,
  TextField,
  type TextFieldProps,
} from 'react-aria-components';

export const inputClassName =
  'min-h-11 w-full min-w-0 rounded-lg border border-border-strong bg-surface px-3 text-base text-fg ' +
  'shadow-xs outline-none transition-colors placeholder:text-fg-muted/70 ' +
  'data-focused:border-ring data-focused:ring-2 data-focused:ring-ring/30 ' +
  'data-invalid:border-danger data-invalid:data-focused:ring-danger/30 ' +
  'data-disabled:cursor-not-allowed data-disabled:opacity-60';

export const labelClassName = 'text-sm font-medium text-fg';

export interface FormTextFieldProps extends Omit<
  TextFieldProps,
  'className' | 'children' | 'isInvalid' | 'validationBehavior'
> {
  label: string;
  /** Shown under the field and linked with aria-describedby. */
  description?: ReactNode;
  /** Shown under the field; the input becomes aria-invalid and points to it. */
  error?: string | undefined;
  placeholder?: string;
  inputRef?: Ref<HTMLInputElement>;
  className?: string;
  /** Content after the input on the same row (a show/hide button). */
  trailing?: ReactNode;
}

/**
 * A labelled text input with its hint and error. react-aria wires the label, aria-invalid and
 * aria-describedby (hint and error); validation is ours (the contract's valibot schemas), so the
 * browser's own bubbles stay off.
 */
export function FormTextField({
  label,
  description,
  error,
  placeholder,
  inputRef,
  className = '',
  trailing,
  ...props
}: FormTextFieldProps) {
  const input = (
    <Input
      ref={inputRef}
      {...(placeholder === undefined ? {} : { placeholder })}
      className={inputClassName}
    />
  );
  return (
    <TextField
      {...props}
      isInvalid={error !== undefined}
      validationBehavior="aria"
      className={`flex flex-col gap-1.5 ${className}`}
    >
      <Label className={labelClassName}>{label}</Label>
      {trailing ? (
        <div className="flex items-stretch gap-2">
          {input}
          {trailing}
        </div>
      ) : (
        input
      )}
      {description ? (
        <Text slot="description" elementType="div" className="text-sm text-fg-muted">
          {description}
        </Text>
      ) : null}
      <FieldError className="text-sm font-medium text-danger">{error}</FieldError>
    </TextField>
  );
}
