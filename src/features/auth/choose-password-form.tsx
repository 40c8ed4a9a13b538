import { useRef, useState, type FormEvent } from 'react';
import type { AuthServices } from '../../auth/auth-client.ts';
import { describeAuthError } from '../../auth/describe-auth-error.ts';
import { chooseNewPasswordSchema } from './auth-schemas.ts';
import { focusFirstInvalid, validateFields, type FieldErrors } from './field-errors.ts';
import { FormAlert } from './form-alert.tsx';
import { PasswordField } from './password-field.tsx';
import { PasswordRules } from './password-rules.tsx';
import { SubmitButton } from './submit-button.tsx';

export interface ChoosePasswordFormProps {
  services: AuthServices;
  submitLabel: string;
  /** The password was changed (supabase-js has fired USER_UPDATED). */
  onChanged: () => void;
}

type Field = 'password' | 'confirm';

/** New password twice, rules shown as you type; `updateUser({ password })` on submit. */
export function ChoosePasswordForm({ services, submitLabel, onChanged }: ChoosePasswordFormProps) {
  const [values, setValues] = useState({ password: '', confirm: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [tooCommonPassword, setTooCommonPassword] = useState<string | null>(null);
  const [isPending, setPending] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const validate = (next: typeof values) =>
    validateFields<Field, typeof chooseNewPasswordSchema>(chooseNewPasswordSchema, next);

  const update = (field: Field) => (value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (submitted) setErrors(validate(next).errors);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isPending) return;
    setSubmitted(true);
    const result = validate(values);
    setErrors(result.errors);
    if (!result.success) {
      focusFirstInvalid(formRef.current);
      return;
    }
    setPending(true);
    setFailure(null);
    const { error } = await services.client.updateUser({ password: result.output.password });
    setPending(false);
    if (error) {
      const described = describeAuthError(error, {
        retryAfterSeconds: services.retryAfterSeconds(),
      });
      if (described.kind === 'weakPassword') {
        const reasons = described.weakPasswordReasons ?? [];
        if (reasons.includes('pwned') || reasons.includes('common')) {
          setTooCommonPassword(result.output.password);
        }
        setErrors({ password: described.message });
        focusFirstInvalid(formRef.current);
        return;
      }
      setFailure(described.message);
      return;
    }
    setValues({ password: '', confirm: '' });
    setSubmitted(false);
    onChanged();
  };

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      className="flex flex-col gap-5"
    >
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      <PasswordField
        label="New password"
        name="new-password"
        autoComplete="new-password"
        value={values.password}
        onChange={update('password')}
        error={errors.password}
        description={
          <PasswordRules
            password={values.password}
            isTooCommon={tooCommonPassword !== null && tooCommonPassword === values.password}
          />
        }
        isRequired
      />
      <PasswordField
        label="Repeat the new password"
        name="confirm-password"
        autoComplete="new-password"
        value={values.confirm}
        onChange={update('confirm')}
        error={errors.confirm}
        isRequired
      />
      <SubmitButton isPending={isPending} pendingLabel="Saving...">
        {submitLabel}
      </SubmitButton>
    </form>
  );
}
