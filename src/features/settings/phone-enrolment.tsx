import type { Factor } from '@supabase/supabase-js';
import { useRef, useState, type FormEvent } from 'react';
import type { AuthServices } from '../../auth/auth-client.ts';
import { describeAuthError } from '../../auth/describe-auth-error.ts';
import { Button } from '../../ui/button.tsx';
import { verificationCodeSchema } from '../auth/auth-schemas.ts';
import { focusFirstInvalid, validateFields, type FieldErrors } from '../auth/field-errors.ts';
import { FormAlert } from '../auth/form-alert.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { SubmitButton } from '../auth/submit-button.tsx';
import { useCountdown } from '../auth/use-countdown.ts';
import { phoneFactorSchema } from './factor-schemas.ts';

export interface PhoneEnrolmentProps {
  services: AuthServices;
  factors: Factor[];
  onDone: () => void;
  onCancel: () => void;
}

type Step =
  { step: 'details' } | { step: 'code'; factorId: string; challengeId: string; phone: string };

const resendSeconds = 60;

/** Adding a phone: name and number, a code by text message, then verify it. */
export function PhoneEnrolment({ services, factors, onDone, onCancel }: PhoneEnrolmentProps) {
  const { client } = services;
  const [state, setState] = useState<Step>({ step: 'details' });
  const [values, setValues] = useState({ name: 'Phone', phone: '' });
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<FieldErrors<'name' | 'phone' | 'code'>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [isPending, setPending] = useState(false);
  const resend = useCountdown();
  const formRef = useRef<HTMLFormElement>(null);

  const describe = (error: unknown) => {
    const described = describeAuthError(error, { retryAfterSeconds: services.retryAfterSeconds() });
    if (described.retryAfterSeconds) resend.start(described.retryAfterSeconds);
    return described.message;
  };

  const sendCode = async (factorId: string, phone: string) => {
    const { data, error } = await client.mfa.challenge({ factorId, channel: 'sms' });
    if (error) {
      setFailure(describe(error));
      return;
    }
    setState({ step: 'code', factorId, challengeId: data.id, phone });
    resend.start(resendSeconds);
  };

  const start = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isPending) return;
    const result = validateFields<'name' | 'phone', typeof phoneFactorSchema>(
      phoneFactorSchema,
      values,
    );
    setErrors(result.errors);
    if (!result.success) {
      focusFirstInvalid(formRef.current);
      return;
    }
    setPending(true);
    setFailure(null);
    for (const stale of factors) {
      if (stale.status === 'unverified' && stale.friendly_name === result.output.name) {
        await client.mfa.unenroll({ factorId: stale.id });
      }
    }
    const { data, error } = await client.mfa.enroll({
      factorType: 'phone',
      friendlyName: result.output.name,
      phone: result.output.phone,
    });
    if (error) {
      setPending(false);
      setFailure(describe(error));
      return;
    }
    await sendCode(data.id, result.output.phone);
    setPending(false);
  };

  const verify = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isPending || state.step !== 'code') return;
    const result = validateFields<'code', typeof verificationCodeSchema>(verificationCodeSchema, {
      code,
    });
    setErrors(result.errors);
    if (!result.success) {
      focusFirstInvalid(formRef.current);
      return;
    }
    setPending(true);
    setFailure(null);
    const { error } = await client.mfa.verify({
      factorId: state.factorId,
      challengeId: state.challengeId,
      code: result.output.code,
    });
    setPending(false);
    if (error) {
      setFailure(describe(error));
      setCode('');
      return;
    }
    onDone();
  };

  const cancel = () => {
    if (state.step === 'code') void client.mfa.unenroll({ factorId: state.factorId });
    onCancel();
  };

  if (state.step === 'details') {
    return (
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => void start(event)}
        className="flex flex-col gap-4 rounded-xl border border-border p-4"
        aria-label="Add a phone"
      >
        {failure ? <FormAlert>{failure}</FormAlert> : null}
        <FormTextField
          label="Name"
          name="factor-name"
          value={values.name}
          onChange={(name) => setValues((v) => ({ ...v, name }))}
          error={errors.name}
          autoFocus
        />
        <FormTextField
          label="Mobile number"
          name="phone"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          placeholder="+44 7700 900123"
          value={values.phone}
          onChange={(phone) => setValues((v) => ({ ...v, phone }))}
          error={errors.phone}
          description="With the country code. We text a code to it each time you sign in."
        />
        <div className="flex flex-col gap-3 sm:flex-row">
          <SubmitButton
            isPending={isPending}
            size="medium"
            className="sm:w-auto"
            pendingLabel="Sending..."
          >
            Text me a code
          </SubmitButton>
          <Button variant="ghost" onPress={cancel}>
            Cancel
          </Button>
        </div>
      </form>
    );
  }

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={(event) => void verify(event)}
      className="flex flex-col gap-4 rounded-xl border border-border p-4"
      aria-label="Verify your phone"
    >
      <p className="text-sm text-fg">
        We texted a 6-digit code to <strong className="font-semibold">{state.phone}</strong>.
      </p>
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      <FormTextField
        label="Code"
        name="code"
        value={code}
        onChange={setCode}
        error={errors.code}
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={8}
        className="sm:max-w-xs"
        autoFocus
      />
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        <SubmitButton
          isPending={isPending}
          size="medium"
          className="sm:w-auto"
          pendingLabel="Verifying..."
        >
          Turn on
        </SubmitButton>
        <Button
          variant="secondary"
          isDisabled={resend.secondsLeft > 0 || isPending}
          onPress={() => void sendCode(state.factorId, state.phone)}
        >
          {resend.secondsLeft > 0
            ? `Send a new code in ${resend.secondsLeft} s`
            : 'Send a new code'}
        </Button>
        <Button variant="ghost" onPress={cancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
