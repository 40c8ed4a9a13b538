import { MailCheck } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { useAuthServices } from '../../auth/auth-services.tsx';
import { describeAuthError } from '../../auth/describe-auth-error.ts';
import { Button } from '../../ui/button.tsx';
import { TextLink } from '../../ui/text-link.tsx';
import { confirmRegistrationPath, withQuery } from './auth-paths.ts';
import { emailOnlySchema } from './auth-schemas.ts';
import { AuthScreen } from './auth-screen.tsx';
import { authUnavailableMessage } from './auth-unavailable.ts';
import { focusFirstInvalid, validateFields } from './field-errors.ts';
import { FormAlert } from './form-alert.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { useCaptchaGate, type LoadCaptcha } from './hcaptcha-field.tsx';
import { SubmitButton } from './submit-button.tsx';
import { useCountdown } from './use-countdown.ts';

export interface VerifyEmailScreenProps {
  /** The address the confirmation was sent to (from /signup). */
  email?: string | undefined;
  returnTo?: string | undefined;
  /** The captcha script loader (hCaptcha's by default; a fake in tests). */
  loadCaptcha?: LoadCaptcha | undefined;
}

/** A confirmation mail may be sent again after this many seconds. */
export const resendCooldownSeconds = 60;

/**
 * /verify-email: "check your inbox" after sign-up, with a resend button that waits 60 s between
 * mails (the first one was just sent). Without an address in the URL it asks for one.
 */
export function VerifyEmailScreen({ email, returnTo, loadCaptcha }: VerifyEmailScreenProps) {
  const services = useAuthServices();
  const captcha = useCaptchaGate(services?.captchaSiteKey ?? null, loadCaptcha);
  const [address, setAddress] = useState(email ?? '');
  const [addressError, setAddressError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [isPending, setPending] = useState(false);
  const cooldown = useCountdown(email ? resendCooldownSeconds : 0);
  const formRef = useRef<HTMLFormElement>(null);

  const resend = async (to: string) => {
    if (isPending || cooldown.secondsLeft > 0) return;
    if (!services) {
      setFailure(authUnavailableMessage);
      return;
    }
    if (!captcha.check()) return;
    setPending(true);
    setFailure(null);
    setNotice(null);
    const { error } = await services.client.resend({
      type: 'signup',
      email: to,
      options: {
        emailRedirectTo: services.redirectUrl(withQuery(confirmRegistrationPath, { returnTo })),
        ...captcha.tokenOptions(),
      },
    });
    setPending(false);
    captcha.spent();
    if (error) {
      const described = describeAuthError(error, {
        retryAfterSeconds: services.retryAfterSeconds(),
      });
      setFailure(described.message);
      if (described.retryAfterSeconds) cooldown.start(described.retryAfterSeconds);
      return;
    }
    setNotice(`We sent a new link to ${to}. Check your spam folder too.`);
    cooldown.start(resendCooldownSeconds);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateFields<'email', typeof emailOnlySchema>(emailOnlySchema, {
      email: address,
    });
    setAddressError(result.errors.email);
    if (!result.success) {
      focusFirstInvalid(formRef.current);
      return;
    }
    await resend(result.output.email);
  };

  const waitLabel = `Resend in ${cooldown.secondsLeft} s`;

  return (
    <AuthScreen
      title="Check your email"
      icon={<MailCheck aria-hidden="true" size={24} />}
      lead={
        email ? (
          <>
            We sent a confirmation link to{' '}
            <strong className="font-semibold wrap-anywhere text-fg">{email}</strong>. Open it to
            finish creating your account.
          </>
        ) : (
          'Open the confirmation link we emailed you to finish creating your account.'
        )
      }
      footer={
        <>
          Already confirmed? <TextLink href={withQuery('/login', { returnTo })}>Sign in</TextLink>
        </>
      }
    >
      <div className="flex flex-col gap-4">
        {failure ? <FormAlert>{failure}</FormAlert> : null}
        {notice ? <FormAlert tone="success">{notice}</FormAlert> : null}
        {email ? (
          <>
            {captcha.field}
            <Button
              variant="secondary"
              size="large"
              className="w-full"
              isPending={isPending}
              isDisabled={cooldown.secondsLeft > 0}
              onPress={() => void resend(email)}
            >
              {cooldown.secondsLeft > 0 ? waitLabel : 'Resend the email'}
            </Button>
            <p className="text-sm text-fg-muted">
              Wrong address?{' '}
              <TextLink href={withQuery('/signup', { returnTo })}>Sign up again</TextLink>
            </p>
          </>
        ) : (
          <form
            ref={formRef}
            noValidate
            onSubmit={(event) => void onSubmit(event)}
            className="flex flex-col gap-5"
          >
            <FormTextField
              label="Email"
              name="email"
              type="email"
              autoComplete="email"
              inputMode="email"
              value={address}
              onChange={(value) => {
                setAddress(value);
                if (addressError) setAddressError(undefined);
              }}
              error={addressError}
              description="Didn't get it? We can send the link again."
            />
            {captcha.field}
            <SubmitButton
              variant="secondary"
              isPending={isPending}
              isDisabled={cooldown.secondsLeft > 0}
              pendingLabel="Sending..."
            >
              {cooldown.secondsLeft > 0 ? waitLabel : 'Resend the email'}
            </SubmitButton>
          </form>
        )}
      </div>
    </AuthScreen>
  );
}
