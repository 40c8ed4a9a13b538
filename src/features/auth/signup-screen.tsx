import { useRef, useState, type FormEvent } from 'react';
import { useAuthServices } from '../../auth/auth-services.tsx';
import { describeAuthError, type DescribedAuthError } from '../../auth/describe-auth-error.ts';
import { TextLink } from '../../ui/text-link.tsx';
import { confirmRegistrationPath, withQuery } from './auth-paths.ts';
import { signUpSchema } from './auth-schemas.ts';
import { AuthScreen } from './auth-screen.tsx';
import { authUnavailableMessage } from './auth-unavailable.ts';
import { focusFirstInvalid, validateFields, type FieldErrors } from './field-errors.ts';
import { FormAlert } from './form-alert.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { GoogleSignInButton, OrDivider } from './google-sign-in-button.tsx';
import { PasswordField } from './password-field.tsx';
import { PasswordRules } from './password-rules.tsx';
import { useCaptchaGate, type LoadCaptcha } from './hcaptcha-field.tsx';
import { SubmitButton } from './submit-button.tsx';
import { useCountdown } from './use-countdown.ts';
import { usePreloadAppRoutes } from './use-preload-app-routes.ts';

export interface SignupScreenProps {
  returnTo?: string | undefined;
  /** The account exists and a confirmation mail is on its way to `email`. */
  onSignedUp: (email: string) => void;
  /** The captcha script loader (hCaptcha's by default; a fake in tests). */
  loadCaptcha?: LoadCaptcha | undefined;
}

type Field = 'firstName' | 'lastName' | 'email' | 'password';
type Values = Record<Field, string>;

/**
 * /signup: names, email and password (rules ticked as you type). The confirmation link leads to
 * /auth/confirm-registration, which creates the profile and workspace. When the server confirms
 * sign-ups automatically, supabase-js signs the user in at once and the guard moves on.
 */
export function SignupScreen({ returnTo, onSignedUp, loadCaptcha }: SignupScreenProps) {
  usePreloadAppRoutes();
  const services = useAuthServices();
  const captcha = useCaptchaGate(services?.captchaSiteKey ?? null, loadCaptcha);
  const [values, setValues] = useState<Values>({
    firstName: '',
    lastName: '',
    email: '',
    password: '',
  });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<DescribedAuthError | null>(null);
  const [tooCommonPassword, setTooCommonPassword] = useState<string | null>(null);
  const [isPending, setPending] = useState(false);
  const cooldown = useCountdown();
  const formRef = useRef<HTMLFormElement>(null);

  const validate = (next: Values) => validateFields<Field, typeof signUpSchema>(signUpSchema, next);

  const update = (field: Field) => (value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (submitted) {
      const nextErrors = validate(next).errors;
      if (field !== 'password' && errors.password && !nextErrors.password) {
        nextErrors.password = errors.password;
      }
      setErrors(nextErrors);
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isPending || cooldown.secondsLeft > 0) return;
    setSubmitted(true);
    const result = validate(values);
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
    const { firstName, lastName, email, password } = result.output;
    setPending(true);
    setFailure(null);
    const { data, error } = await services.client.signUp({
      email,
      password,
      options: {
        emailRedirectTo: services.redirectUrl(withQuery(confirmRegistrationPath, { returnTo })),
        data: {
          first_name: firstName,
          last_name: lastName,
          display_name: `${firstName} ${lastName}`,
        },
        ...captcha.tokenOptions(),
      },
    });
    captcha.spent();
    if (error) {
      setPending(false);
      const described = describeAuthError(error, {
        retryAfterSeconds: services.retryAfterSeconds(),
      });
      if (described.kind === 'weakPassword') {
        const reasons = described.weakPasswordReasons ?? [];
        if (reasons.includes('pwned') || reasons.includes('common')) setTooCommonPassword(password);
        setErrors({ password: described.message });
        focusFirstInvalid(formRef.current);
        return;
      }
      setFailure(described);
      if (described.retryAfterSeconds) cooldown.start(described.retryAfterSeconds);
      return;
    }
    // With automatic confirmation there is a session already: the guard takes over.
    if (!data.session) onSignedUp(email);
  };

  return (
    <AuthScreen
      title="Create your account"
      lead="Free to start. No card needed."
      footer={
        <>
          Already have an account?{' '}
          <TextLink href={withQuery('/login', { returnTo })}>Sign in</TextLink>
        </>
      }
    >
      {services?.googleEnabled ? (
        <>
          <GoogleSignInButton
            services={services}
            returnPath={withQuery(confirmRegistrationPath, { returnTo })}
            label="Sign up with Google"
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
        aria-label="Sign up with email"
      >
        {failure ? (
          <FormAlert
            action={
              failure.kind === 'accountExists' ? (
                <TextLink href={withQuery('/login', { returnTo })}>Go to sign in</TextLink>
              ) : undefined
            }
          >
            {failure.message}
          </FormAlert>
        ) : null}
        <div className="grid gap-5 sm:grid-cols-2">
          <FormTextField
            label="First name"
            name="firstName"
            autoComplete="given-name"
            value={values.firstName}
            onChange={update('firstName')}
            error={errors.firstName}
            isRequired
          />
          <FormTextField
            label="Last name"
            name="lastName"
            autoComplete="family-name"
            value={values.lastName}
            onChange={update('lastName')}
            error={errors.lastName}
            isRequired
          />
        </div>
        <FormTextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          value={values.email}
          onChange={update('email')}
          error={errors.email}
          isRequired
        />
        <PasswordField
          label="Password"
          name="password"
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
        {captcha.field}
        <SubmitButton
          isPending={isPending}
          isDisabled={cooldown.secondsLeft > 0}
          pendingLabel="Creating your account..."
        >
          {cooldown.secondsLeft > 0 ? `Try again in ${cooldown.secondsLeft} s` : 'Create account'}
        </SubmitButton>
        <p className="text-center text-xs text-fg-muted">
          By creating an account you agree to the{' '}
          <TextLink href="/terms-of-service">terms</TextLink> and the{' '}
          <TextLink href="/privacy-policy">privacy policy</TextLink>.
        </p>
      </form>
    </AuthScreen>
  );
}
