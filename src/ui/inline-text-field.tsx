/**
 * A text field that saves itself: on leaving the field or pressing Enter (single line), only if
 * the text changed. Escape puts the stored value back. The error beside it is the save's, about
 * the text that was refused: once the field holds the stored value again (typed back, or Escape)
 * it is shown no more, though no save happens to clear it.
 */
import { FieldError, Input, Label, Text, TextArea, TextField } from 'react-aria-components';
import { inputClassName, labelClassName } from './form-text-field.tsx';
import { useDraft } from './use-draft.ts';

export interface InlineTextFieldProps {
  label: string;
  name: string;
  value: string;
  /** Resolves once saved (or refused: the caller shows the error). */
  onSave: (text: string) => Promise<void> | void;
  error?: string | undefined;
  type?: 'text' | 'date' | 'email' | 'tel' | 'url';
  /** A hint under the field (the expected format). */
  description?: string;
  multiline?: boolean;
  inputMode?: 'decimal' | 'text';
  maxLength?: number;
  placeholder?: string;
  /** Transform while typing (upper-case a currency code). */
  normalize?: (text: string) => string;
  className?: string;
  inputClassName?: string;
}

export function InlineTextField({
  label,
  name,
  value,
  onSave,
  error,
  type = 'text',
  description,
  multiline = false,
  inputMode,
  maxLength,
  placeholder,
  normalize = (text) => text,
  className = '',
  inputClassName: extraInputClass = '',
}: InlineTextFieldProps) {
  const [draft, setDraft, reset] = useDraft(value);
  const shownError = draft === value ? undefined : error;
  const commit = () => {
    if (draft !== value) void onSave(draft);
  };
  const common = {
    ...(placeholder === undefined ? {} : { placeholder }),
    onBlur: commit,
  };
  return (
    <TextField
      name={name}
      type={type}
      value={draft}
      onChange={(text) => setDraft(normalize(text))}
      isInvalid={shownError !== undefined}
      validationBehavior="aria"
      {...(inputMode === undefined ? {} : { inputMode })}
      {...(maxLength === undefined ? {} : { maxLength })}
      onKeyDown={(event) => {
        // react-aria stops key events here unless told otherwise: an Escape that undoes typing
        // goes no further; any other key reaches the page as usual.
        if (event.key === 'Escape' && draft !== value) {
          reset();
          return;
        }
        if (event.key === 'Enter' && !multiline) commit();
        event.continuePropagation();
      }}
      className={`flex flex-col gap-1.5 ${className}`}
    >
      <Label className={labelClassName}>{label}</Label>
      {multiline ? (
        <TextArea {...common} rows={4} className={`${inputClassName} py-2 ${extraInputClass}`} />
      ) : (
        <Input {...common} className={`${inputClassName} ${extraInputClass}`} />
      )}
      {description ? (
        <Text slot="description" className="text-sm text-fg-muted">
          {description}
        </Text>
      ) : null}
      <FieldError className="text-sm font-medium text-danger">{shownError}</FieldError>
    </TextField>
  );
}
