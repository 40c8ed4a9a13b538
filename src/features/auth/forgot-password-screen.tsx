import { MailCheck } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { useAuthServices } from '../../auth/auth-services.tsx';
import { resetPasswordPath } from '../../auth/auth-guards.ts';
import { describeAuthError } from '../../auth/describe-auth-error.ts';
import { Button } from '../../ui/button.tsx';
import { TextLink } from '../../ui/text-link.tsx';
import { emailOnlySchema } from './auth-schemas.ts';
import { AuthScreen } from './auth-screen.tsx';
import { authUnavailableMessage } from './auth-unavailable.ts';
import { focusFirstInvalid, validateFields } from './field-errors.ts';
import { FormAlert } from './form-alert.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { loadHCaptcha, useCaptchaGate, type LoadCaptcha } from './hcaptcha-field.tsx';
import { SubmitButton } from './submit-button.tsx';
import { useCountdown } from './use-countdown.ts';

export interface ForgotPasswordScreenProps {
  /** Prefilled from /login. */
  initialEmail?: string | undefined;
  /** The captcha script loader (hCaptcha's by default; a fake in tests). */
  loadCaptcha?: LoadCaptcha;
}

const resendSeconds = 60;

/**
 * /forgot-password: asks the auth service to mail a reset link to /reset-password. The answer is
 * the same whether or not the address has an account, so it cannot be used to probe for them.
 */
export function ForgotPasswordScreen({
  initialEmail = '',
  loadCaptcha = loadHCaptcha,
}: ForgotPasswordScreenProps) {
  const services = useAuthServices();
  const captchaSiteKey = services?.captchaSiteKey ?? null;
  const captcha = useCaptchaGate(captchaSiteKey, loadCaptcha);
  const [email, setEmail] = useState(initialEmail);
  const [emailError, setEmailError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [isPending, setPending] = useState(false);
  const cooldown = useCountdown();
  const formRef = useRef<HTMLFormElement>(null);

  const send = async (address: string) => {
    if (!services) {
      setFailure(authUnavailableMessage);
      return;
    }
    setPending(true);
    setFailure(null);
    const { error } = await services.client.resetPasswordForEmail(address, {
      redirectTo: services.redirectUrl(resetPasswordPath),
      ...captcha.tokenOptions(),
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
    setSentTo(address);
    cooldown.start(resendSeconds);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isPending || cooldown.secondsLeft > 0) return;
    const result = validateFields<'email', typeof emailOnlySchema>(emailOnlySchema, { email });
    setEmailError(result.errors.email);
    if (!result.success) {
      focusFirstInvalid(formRef.current);
      return;
    }
    if (!captcha.check()) return;
    await send(result.output.email);
  };

  if (sentTo) {
    return (
      <AuthScreen
        title="Check your email"
        icon={<MailCheck aria-hidden="true" size={24} />}
        lead={
          <>
            If <strong className="font-semibold wrap-anywhere text-fg">{sentTo}</strong> has a
            Satchel account, a link to choose a new password is on its way. Open it in this browser.
          </>
        }
        footer={<TextLink href="/login">Back to sign in</TextLink>}
      >
        <div className="flex flex-col gap-4">
          {failure ? <FormAlert>{failure}</FormAlert> : null}
          <Button
            variant="secondary"
            size="large"
            className="w-full"
            isPending={isPending}
            isDisabled={cooldown.secondsLeft > 0}
            // With a captcha, a new link needs a new check: back to the form, email kept.
            onPress={() => (captchaSiteKey ? setSentTo(null) : void send(sentTo))}
          >
            {cooldown.secondsLeft > 0
              ? `Send it again in ${cooldown.secondsLeft} s`
              : 'Send the link again'}
          </Button>
          <Button variant="ghost" onPress={() => setSentTo(null)}>
            Use a different email
          </Button>
        </div>
      </AuthScreen>
    );
  }

  return (
    <AuthScreen
      title="Reset your password"
      lead="Forgot your password? It happens. Enter your email and we will send you a link to choose a new one."
      footer={
        <>
          Remembered it? <TextLink href="/login">Sign in</TextLink>
        </>
      }
    >
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        className="flex flex-col gap-5"
      >
        {failure ? <FormAlert>{failure}</FormAlert> : null}
        <FormTextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          onChange={(value) => {
            setEmail(value);
            if (emailError) setEmailError(undefined);
          }}
          error={emailError}
          isRequired
        />
        {captcha.field}
        <SubmitButton
          isPending={isPending}
          isDisabled={cooldown.secondsLeft > 0}
          pendingLabel="Sending..."
        >
          {cooldown.secondsLeft > 0 ? `Try again in ${cooldown.secondsLeft} s` : 'Send reset link'}
        </SubmitButton>
      </form>
    </AuthScreen>
  );
}
