/** A labelled multi-line field with its hint and error (FormTextField's multi-line sibling). */
import type { ReactNode, Ref } from 'react';
import { FieldError, Label, Text, TextArea, TextField } from 'react-aria-components';
import { inputClassName, labelClassName } from './form-text-field.tsx';

export interface FormTextAreaProps {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  description?: ReactNode;
  rows?: number;
  isRequired?: boolean;
  isDisabled?: boolean;
  inputRef?: Ref<HTMLTextAreaElement>;
}

export function FormTextArea({
  label,
  name,
  value,
  onChange,
  error,
  description,
  rows = 3,
  isRequired = false,
  isDisabled = false,
  inputRef,
}: FormTextAreaProps) {
  return (
    <TextField
      value={value}
      onChange={onChange}
      isInvalid={error !== undefined}
      isRequired={isRequired}
      isDisabled={isDisabled}
      validationBehavior="aria"
      className="flex flex-col gap-1.5"
    >
      <Label className={labelClassName}>{label}</Label>
      <TextArea
        ref={inputRef}
        name={name}
        rows={rows}
        className={`${inputClassName} resize-y py-2`}
      />
      {description ? (
        <Text slot="description" elementType="div" className="text-sm text-fg-muted">
          {description}
        </Text>
      ) : null}
      <FieldError className="text-sm font-medium text-danger">{error}</FieldError>
    </TextField>
  );
}
