import type { Factor } from '@supabase/supabase-js';
import { Copy } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import type { AuthServices } from '../../auth/auth-client.ts';
import { describeAuthError } from '../../auth/describe-auth-error.ts';
import { Button } from '../../ui/button.tsx';
import { verificationCodeSchema } from '../auth/auth-schemas.ts';
import { focusFirstInvalid, validateFields } from '../auth/field-errors.ts';
import { FormAlert } from '../auth/form-alert.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { SubmitButton } from '../auth/submit-button.tsx';
import { factorNameSchema } from './factor-schemas.ts';
import { groupSecret, qrCodeImageSrc } from './qr-code-src.ts';

export interface TotpEnrolmentProps {
  services: AuthServices;
  /** All factors, to clear an abandoned unverified one with the same name first. */
  factors: Factor[];
  onDone: () => void;
  onCancel: () => void;
}

type Step =
  { step: 'name' } | { step: 'scan'; factorId: string; qrSrc: string | null; secret: string };

/**
 * Adding an authenticator app: name it, scan the QR code (or type the secret), then prove it
 * works with a first code. Until that code is verified the factor stays `unverified` and does
 * not protect the account; cancelling removes it.
 */
export function TotpEnrolment({ services, factors, onDone, onCancel }: TotpEnrolmentProps) {
  const { client } = services;
  const [state, setState] = useState<Step>({ step: 'name' });
  const [name, setName] = useState('Authenticator app');
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [isPending, setPending] = useState(false);
  const [copied, setCopied] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const describe = (error: unknown) =>
    describeAuthError(error, { retryAfterSeconds: services.retryAfterSeconds() }).message;

  const start = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isPending) return;
    const result = validateFields<'name', typeof factorNameSchema>(factorNameSchema, { name });
    setFieldError(result.errors.name);
    if (!result.success) {
      focusFirstInvalid(formRef.current);
      return;
    }
    setPending(true);
    setFailure(null);
    // A set-up abandoned earlier leaves an unverified factor that would clash with this name.
    for (const stale of factors) {
      if (stale.status === 'unverified' && stale.friendly_name === result.output.name) {
        await client.mfa.unenroll({ factorId: stale.id });
      }
    }
    const { data, error } = await client.mfa.enroll({
      factorType: 'totp',
      friendlyName: result.output.name,
    });
    setPending(false);
    if (error) {
      setFailure(describe(error));
      return;
    }
    setState({
      step: 'scan',
      factorId: data.id,
      qrSrc: qrCodeImageSrc(data.totp.qr_code),
      secret: data.totp.secret,
    });
  };

  const verify = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isPending || state.step !== 'scan') return;
    const result = validateFields<'code', typeof verificationCodeSchema>(verificationCodeSchema, {
      code,
    });
    setFieldError(result.errors.code);
    if (!result.success) {
      focusFirstInvalid(formRef.current);
      return;
    }
    setPending(true);
    setFailure(null);
    const { error } = await client.mfa.challengeAndVerify({
      factorId: state.factorId,
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
    if (state.step === 'scan') {
      // Best effort: an unverified factor left behind is harmless and cleared on the next try.
      void client.mfa.unenroll({ factorId: state.factorId });
    }
    onCancel();
  };

  const copySecret = async (secret: string) => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };

  if (state.step === 'name') {
    return (
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => void start(event)}
        className="flex flex-col gap-4 rounded-xl border border-border p-4"
        aria-label="Add an authenticator app"
      >
        {failure ? <FormAlert>{failure}</FormAlert> : null}
        <FormTextField
          label="Name"
          name="factor-name"
          value={name}
          onChange={setName}
          error={fieldError}
          description="To tell your methods apart, for example the app's name."
          autoFocus
        />
        <div className="flex flex-col gap-3 sm:flex-row">
          <SubmitButton
            isPending={isPending}
            size="medium"
            className="sm:w-auto"
            pendingLabel="Preparing..."
          >
            Continue
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
      className="flex flex-col gap-5 rounded-xl border border-border p-4"
      aria-label="Verify your authenticator app"
    >
      <ol className="flex list-decimal flex-col gap-2 pl-5 text-sm text-fg">
        <li>Open your authenticator app and add an account.</li>
        <li>Scan this QR code, or type the key below.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        {state.qrSrc ? (
          <img
            src={state.qrSrc}
            alt="QR code to add Satchel to your authenticator app"
            width={176}
            height={176}
            className="size-44 shrink-0 rounded-lg border border-border bg-white p-2"
          />
        ) : null}
        <div className="flex w-full min-w-0 flex-col gap-2">
          <span className="text-sm font-medium text-fg" id="totp-secret-label">
            Setup key
          </span>
          <code
            aria-labelledby="totp-secret-label"
            className="rounded-lg bg-surface-muted px-3 py-2 font-mono text-sm wrap-anywhere text-fg"
          >
            {groupSecret(state.secret)}
          </code>
          <Button
            variant="secondary"
            className="self-start"
            onPress={() => void copySecret(state.secret)}
          >
            <Copy aria-hidden="true" size={16} />
            {copied ? 'Copied' : 'Copy key'}
          </Button>
        </div>
      </div>
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      <FormTextField
        label="Code from the app"
        name="code"
        value={code}
        onChange={setCode}
        error={fieldError}
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={8}
        className="sm:max-w-xs"
      />
      <div className="flex flex-col gap-3 sm:flex-row">
        <SubmitButton
          isPending={isPending}
          size="medium"
          className="sm:w-auto"
          pendingLabel="Verifying..."
        >
          Turn on
        </SubmitButton>
        <Button variant="ghost" onPress={cancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
