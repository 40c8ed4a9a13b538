import { useRef, useState, type FormEvent } from 'react';
import { useAuth } from '../../auth/auth-provider.tsx';
import { useAuthServices } from '../../auth/auth-services.tsx';
import { describeAuthError, type DescribedAuthError } from '../../auth/describe-auth-error.ts';
import { Button } from '../../ui/button.tsx';
import { TextLink } from '../../ui/text-link.tsx';
import { signInSchema } from './auth-schemas.ts';
import { AuthScreen } from './auth-screen.tsx';
import { authUnavailableMessage } from './auth-unavailable.ts';
import { confirmRegistrationPath, withQuery } from './auth-paths.ts';
import { focusFirstInvalid, validateFields, type FieldErrors } from './field-errors.ts';
import { FormAlert } from './form-alert.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { GoogleSignInButton, OrDivider } from './google-sign-in-button.tsx';
import { MfaChallenge } from './mfa-challenge.tsx';
import { PasswordField } from './password-field.tsx';
import { useCaptchaGate, type LoadCaptcha } from './hcaptcha-field.tsx';
import { SubmitButton } from './submit-button.tsx';
import { useCountdown } from './use-countdown.ts';
import { usePreloadAppRoutes } from './use-preload-app-routes.ts';

export interface LoginScreenProps {
  /** Where to go once signed in (already in the URL; kept for links and Google). */
  returnTo?: string | undefined;
  /** A new confirmation mail was sent to `email`: show the "check your inbox" page. */
  onConfirmationResent?: ((email: string) => void) | undefined;
  /** The captcha script loader (hCaptcha's by default; a fake in tests). */
  loadCaptcha?: LoadCaptcha | undefined;
}

type Field = 'email' | 'password';

/**
 * /login: email and password, Google when the server offers it, and the second-factor step for
 * accounts that have one. A successful sign-in changes the auth state; the guest guard then takes
 * the user to `returnTo` (or /dashboard), so this screen never navigates by itself.
 */
export function LoginScreen({ returnTo, onConfirmationResent, loadCaptcha }: LoginScreenProps) {
  usePreloadAppRoutes();
  const auth = useAuth();
  const services = useAuthServices();
  if (services && auth.status === 'unauthenticated' && auth.pendingMfa) {
    return <MfaChallenge services={services} />;
  }
  return (
    <PasswordSignIn
      returnTo={returnTo}
      onConfirmationResent={onConfirmationResent}
      loadCaptcha={loadCaptcha}
    />
  );
}

function PasswordSignIn({ returnTo, onConfirmationResent, loadCaptcha }: LoginScreenProps) {
  const services = useAuthServices();
  const captcha = useCaptchaGate(services?.captchaSiteKey ?? null, loadCaptcha);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<DescribedAuthError | null>(null);
  const [isPending, setPending] = useState(false);
  const [isResending, setResending] = useState(false);
  const cooldown = useCountdown();
  const formRef = useRef<HTMLFormElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const validate = (values: { email: string; password: string }) =>
    validateFields<Field, typeof signInSchema>(signInSchema, values);

  // After the first submit, errors follow the typing so a fixed field clears at once.
  const update = (field: Field, value: string) => {
    const next = { email, password, [field]: value };
    if (field === 'email') setEmail(value);
    else setPassword(value);
    if (submitted) setErrors(validate(next).errors);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isPending || cooldown.secondsLeft > 0) return;
    setSubmitted(true);
    const result = validate({ email, password });
    setErrors(result.errors);
    if (!result.success) {
      focusFirstInvalid(formRef.current);
      return;
    }
    if (!services) {
      setFailure({ kind: 'other', message: authUnavailableMessage });
      return;
    }
    if (!captcha.check()) return;
    setPending(true);
    setFailure(null);
    const { error } = await services.client.signInWithPassword({
      ...result.output,
      options: captcha.tokenOptions(),
    });
    captcha.spent();
    if (error) {
      const described = describeAuthError(error, {
        retryAfterSeconds: services.retryAfterSeconds(),
      });
      setFailure(described);
      if (described.retryAfterSeconds) cooldown.start(described.retryAfterSeconds);
      setPending(false);
      if (described.kind === 'wrongCredentials') {
        // Most often the password was mistyped: clear it and put the cursor there.
        setPassword('');
        requestAnimationFrame(() => passwordRef.current?.focus());
      }
    }
    // Signed in: stay pending until the guard moves on (or the code step replaces this form).
  };

  const resendConfirmation = async () => {
    if (!services || isResending || !captcha.check()) return;
    setResending(true);
    const address = email.trim();
    const { error } = await services.client.resend({
      type: 'signup',
      email: address,
      options: {
        emailRedirectTo: services.redirectUrl(confirmRegistrationPath),
        ...captcha.tokenOptions(),
      },
    });
    setResending(false);
    captcha.spent();
    if (error) {
      setFailure(describeAuthError(error, { retryAfterSeconds: services.retryAfterSeconds() }));
      return;
    }
    onConfirmationResent?.(address);
  };

  const withReturn = (path: string) => withQuery(path, { returnTo });
  const googleReturn = withQuery(confirmRegistrationPath, { returnTo });

  return (
    <AuthScreen
      title="Sign in"
      lead="Welcome back to your workspace."
      footer={
        <>
          New to Satchel? <TextLink href={withReturn('/signup')}>Create an account</TextLink>
        </>
      }
    >
      {services?.googleEnabled ? (
        <>
          <GoogleSignInButton
            services={services}
            returnPath={googleReturn}
            onError={(message) => setFailure({ kind: 'other', message })}
          />
          <OrDivider />
        </>
      ) : null}
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        className="flex flex-col gap-5"
        aria-label="Sign in with email"
      >
        {failure ? (
          <FormAlert
            action={
              failure.kind === 'emailNotConfirmed' ? (
                <Button
                  variant="secondary"
                  isPending={isResending}
                  onPress={() => void resendConfirmation()}
                >
                  Resend the confirmation email
                </Button>
              ) : undefined
            }
          >
            {failure.message}
          </FormAlert>
        ) : null}
        <FormTextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          onChange={(value) => update('email', value)}
          error={errors.email}
          isRequired
        />
        <div className="flex flex-col gap-2">
          <PasswordField
            label="Password"
            name="password"
            autoComplete="current-password"
            inputRef={passwordRef}
            value={password}
            onChange={(value) => update('password', value)}
            error={errors.password}
            isRequired
          />
          <TextLink
            href={withQuery('/forgot-password', { email: email.trim() || undefined })}
            className="self-start text-sm"
          >
            Forgot your password?
          </TextLink>
        </div>
        {captcha.field}
        <SubmitButton
          isPending={isPending}
          isDisabled={cooldown.secondsLeft > 0}
          pendingLabel="Signing in..."
        >
          {cooldown.secondsLeft > 0 ? `Try again in ${cooldown.secondsLeft} s` : 'Sign in'}
        </SubmitButton>
      </form>
    </AuthScreen>
  );
}
