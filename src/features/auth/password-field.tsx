import { Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { Button as AriaButton } from 'react-aria-components';
import { FormTextField, type FormTextFieldProps } from '../../ui/form-text-field.tsx';

export type PasswordFieldProps = Omit<FormTextFieldProps, 'type' | 'trailing'>;

/** A password input with a show/hide toggle (people mistype on phones). */
export function PasswordField(props: PasswordFieldProps) {
  const [isVisible, setVisible] = useState(false);
  return (
    <FormTextField
      {...props}
      type={isVisible ? 'text' : 'password'}
      trailing={
        <AriaButton
          aria-label={isVisible ? 'Hide password' : 'Show password'}
          aria-pressed={isVisible}
          onPress={() => setVisible((visible) => !visible)}
          className="grid size-11 shrink-0 cursor-pointer place-items-center rounded-lg border border-border-strong bg-surface text-fg-muted hover:bg-surface-muted hover:text-fg"
        >
          {isVisible ? (
            <EyeOff aria-hidden="true" size={18} />
          ) : (
            <Eye aria-hidden="true" size={18} />
          )}
        </AriaButton>
      }
    />
  );
}
