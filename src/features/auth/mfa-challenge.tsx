import type { Factor } from '@supabase/supabase-js';
import { KeyRound, MessageSquareText, ShieldCheck } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import type { AuthServices } from '../../auth/auth-client.ts';
import { describeAuthError } from '../../auth/describe-auth-error.ts';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { verificationCodeSchema } from './auth-schemas.ts';
import { AuthScreen } from './auth-screen.tsx';
import { focusFirstInvalid, validateFields } from './field-errors.ts';
import { FormAlert } from './form-alert.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { SubmitButton } from './submit-button.tsx';
import { useCountdown } from './use-countdown.ts';

export interface MfaChallengeProps {
  services: AuthServices;
  /** The h1; /reset-password uses its own wording. */
  title?: string;
}

type Loaded =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; totp: Factor[]; phone: Factor[] };

const smsResendSeconds = 60;

/**
 * The second step of signing in for an account with a verified factor: a code from the
 * authenticator app, or one sent by text message. Once verified, supabase-js fires
 * MFA_CHALLENGE_VERIFIED with an `aal2` session and the page moves on by itself.
 */
export function MfaChallenge({ services, title = 'Two-step verification' }: MfaChallengeProps) {
  const { client } = services;
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [method, setMethod] = useState<'totp' | 'phone'>('totp');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [isPending, setPending] = useState(false);
  const [challengeId, setChallengeId] = useState<string | null>(null);
  const [isSending, setSending] = useState(false);
  const resend = useCountdown();
  const formRef = useRef<HTMLFormElement>(null);

  const load = useCallback(async () => {
    setLoaded({ status: 'loading' });
    const { data, error } = await client.mfa.listFactors();
    if (error) {
      setLoaded({ status: 'failed', message: describeAuthError(error).message });
      return;
    }
    setLoaded({ status: 'ready', totp: data.totp, phone: data.phone });
    setMethod(data.totp.length > 0 ? 'totp' : 'phone');
  }, [client]);

  useEffect(() => {
    void load();
  }, [load]);

  const factor =
    loaded.status === 'ready' ? (method === 'totp' ? loaded.totp[0] : loaded.phone[0]) : undefined;

  const sendSms = async () => {
    if (!factor || isSending) return;
    setSending(true);
    setFormError(null);
    const { data, error } = await client.mfa.challenge({ factorId: factor.id, channel: 'sms' });
    setSending(false);
    if (error) {
      const described = describeAuthError(error, {
        retryAfterSeconds: services.retryAfterSeconds(),
      });
      setFormError(described.message);
      if (described.retryAfterSeconds) resend.start(described.retryAfterSeconds);
      return;
    }
    setChallengeId(data.id);
    resend.start(smsResendSeconds);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isPending || !factor) return;
    const result = validateFields<'code', typeof verificationCodeSchema>(verificationCodeSchema, {
      code,
    });
    setCodeError(result.errors.code);
    if (!result.success) {
      focusFirstInvalid(formRef.current);
      return;
    }
    setPending(true);
    setFormError(null);
    const { error } =
      method === 'totp'
        ? await client.mfa.challengeAndVerify({ factorId: factor.id, code: result.output.code })
        : challengeId
          ? await client.mfa.verify({
              factorId: factor.id,
              challengeId,
              code: result.output.code,
            })
          : { error: { code: 'mfa_challenge_expired' } };
    if (error) {
      setPending(false);
      setFormError(
        describeAuthError(error, { retryAfterSeconds: services.retryAfterSeconds() }).message,
      );
      setCode('');
      focusFirstInvalid(formRef.current);
    }
    // Verified: the auth state turns `authenticated` and the guard takes the user on.
  };

  const switchTo = (next: 'totp' | 'phone') => {
    setMethod(next);
    setCode('');
    setCodeError(undefined);
    setFormError(null);
  };

  const useOtherAccount = () => {
    void client.signOut({ scope: 'local' });
  };

  if (loaded.status !== 'ready') {
    return (
      <AuthScreen title={title} icon={<ShieldCheck aria-hidden="true" size={24} />}>
        {loaded.status === 'loading' ? (
          <div className="flex items-center gap-2 text-fg-muted" role="status">
            <Spinner size="small" /> Loading your verification methods...
          </div>
        ) : (
          <FormAlert
            action={
              <Button variant="secondary" onPress={() => void load()}>
                Try again
              </Button>
            }
          >
            {loaded.message}
          </FormAlert>
        )}
      </AuthScreen>
    );
  }

  const hasBoth = loaded.totp.length > 0 && loaded.phone.length > 0;
  const needsSms = method === 'phone' && challengeId === null;

  return (
    <AuthScreen
      title={title}
      icon={<ShieldCheck aria-hidden="true" size={24} />}
      lead={
        method === 'totp'
          ? 'Enter the 6-digit code from your authenticator app.'
          : needsSms
            ? 'We will text a 6-digit code to your phone.'
            : 'Enter the 6-digit code we texted to your phone.'
      }
      footer={
        <Button variant="ghost" onPress={useOtherAccount}>
          Sign in with a different account
        </Button>
      }
    >
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        className="flex flex-col gap-5"
      >
        {formError ? <FormAlert>{formError}</FormAlert> : null}
        {needsSms ? (
          <Button
            size="large"
            className="w-full"
            isPending={isSending}
            onPress={() => void sendSms()}
          >
            {isSending ? <Spinner size="small" className="text-current" /> : null}
            Text me a code
          </Button>
        ) : (
          <>
            <FormTextField
              label="Verification code"
              name="code"
              value={code}
              onChange={setCode}
              error={codeError}
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={8}
              autoFocus
              isRequired
            />
            <SubmitButton isPending={isPending} pendingLabel="Verifying...">
              Verify
            </SubmitButton>
            {method === 'phone' ? (
              <Button
                variant="ghost"
                isDisabled={resend.secondsLeft > 0}
                isPending={isSending}
                onPress={() => void sendSms()}
              >
                {resend.secondsLeft > 0
                  ? `Send a new code in ${resend.secondsLeft} s`
                  : 'Send a new code'}
              </Button>
            ) : null}
          </>
        )}
        {hasBoth ? (
          <Button variant="ghost" onPress={() => switchTo(method === 'totp' ? 'phone' : 'totp')}>
            {method === 'totp' ? (
              <>
                <MessageSquareText aria-hidden="true" size={16} /> Use a text message instead
              </>
            ) : (
              <>
                <KeyRound aria-hidden="true" size={16} /> Use your authenticator app instead
              </>
            )}
          </Button>
        ) : null}
      </form>
    </AuthScreen>
  );
}
