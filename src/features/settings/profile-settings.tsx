import { UserRound } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { getUserProfile, updateUserProfile } from '#contract/endpoints/user.ts';
import { updateUserProfileInputSchema, type UserProfile } from '#contract/entities/user-profile.ts';
import type { AuthUser } from '../../auth/auth-controller.ts';
import { useAuthServices } from '../../auth/auth-services.tsx';
import { Button } from '../../ui/button.tsx';
import { LinkButton } from '../../ui/link-button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { useToast } from '../../ui/use-toast.ts';
import { focusFirstInvalid, validateFields, type FieldErrors } from '../auth/field-errors.ts';
import { FormAlert } from '../auth/form-alert.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { SubmitButton } from '../auth/submit-button.tsx';
import { apiErrorMessage } from './api-error-message.ts';
import { ProfileAvatar } from './profile-avatar.tsx';
import { SettingsSection } from './settings-section.tsx';

export interface ProfileSettingsProps {
  user: AuthUser;
  callEndpoint: CallEndpoint;
}

type Field = 'firstName' | 'lastName' | 'profilePictureUrl';
type Values = Record<Field, string>;

type Loaded =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'missing' }
  | { status: 'ready'; profile: UserProfile };

const toValues = (profile: UserProfile): Values => ({
  firstName: profile.firstName,
  lastName: profile.lastName,
  profilePictureUrl: profile.profilePictureUrl ?? '',
});

/** The form's values as the contract's update body (an empty picture URL clears the picture). */
const toPatch = (values: Values) => ({
  firstName: values.firstName,
  lastName: values.lastName,
  profilePictureUrl: values.profilePictureUrl.trim() === '' ? null : values.profilePictureUrl,
});

/** Settings > Profile: names and picture (get-user-profile, update-user-profile). */
export function ProfileSettings({ user, callEndpoint }: ProfileSettingsProps) {
  const services = useAuthServices();
  const toast = useToast();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [values, setValues] = useState<Values>({
    firstName: '',
    lastName: '',
    profilePictureUrl: '',
  });
  const [errors, setErrors] = useState<FieldErrors<Field | 'form'>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [isPending, setPending] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const load = useCallback(async () => {
    setLoaded({ status: 'loading' });
    try {
      const { user: profile } = await callEndpoint(getUserProfile, { query: { id: user.id } });
      setLoaded({ status: 'ready', profile });
      setValues(toValues(profile));
    } catch (error) {
      const status = (error as { status?: unknown }).status;
      setLoaded(
        status === 404
          ? { status: 'missing' }
          : { status: 'failed', message: apiErrorMessage(error) },
      );
    }
  }, [callEndpoint, user.id]);

  useEffect(() => {
    void load();
  }, [load]);

  const validate = (next: Values) =>
    validateFields<Field, typeof updateUserProfileInputSchema>(
      updateUserProfileInputSchema,
      toPatch(next),
    );

  const update = (field: Field) => (value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (Object.keys(errors).length > 0) setErrors(validate(next).errors);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isPending) return;
    const result = validate(values);
    setErrors(result.errors);
    if (!result.success) {
      focusFirstInvalid(formRef.current);
      return;
    }
    setPending(true);
    setFailure(null);
    try {
      const { user: profile } = await callEndpoint(updateUserProfile, {
        query: { id: user.id },
        body: result.output,
      });
      setLoaded({ status: 'ready', profile });
      setValues(toValues(profile));
      toast.show({ tone: 'success', message: 'Profile saved' });
      // The account menu shows the session's display name: keep it in step (best effort).
      const displayName = `${profile.firstName} ${profile.lastName}`.trim();
      if (services && displayName) {
        const { error } = await services.client.updateUser({
          data: {
            display_name: displayName,
            first_name: profile.firstName,
            last_name: profile.lastName,
          },
        });
        if (error) services.log.warn('Could not update the display name', error.message);
      }
    } catch (error) {
      setFailure(apiErrorMessage(error));
    } finally {
      setPending(false);
    }
  };

  const preview =
    values.profilePictureUrl.trim() && !errors.profilePictureUrl
      ? values.profilePictureUrl.trim()
      : null;

  return (
    <SettingsSection
      title="Profile"
      description="How you appear to your team and your clients."
      icon={<UserRound aria-hidden="true" size={20} />}
    >
      {loaded.status === 'loading' ? (
        <p role="status" className="flex items-center gap-2 text-fg-muted">
          <Spinner size="small" /> Loading your profile...
        </p>
      ) : loaded.status === 'failed' ? (
        <FormAlert
          action={
            <Button variant="secondary" onPress={() => void load()}>
              Try again
            </Button>
          }
        >
          Your profile could not be loaded. {loaded.message}
        </FormAlert>
      ) : loaded.status === 'missing' ? (
        <FormAlert
          tone="info"
          action={
            <LinkButton href="/auth/confirm-registration?returnTo=%2Fsettings">
              Finish setting up
            </LinkButton>
          }
        >
          Your profile is not set up yet.
        </FormAlert>
      ) : (
        <form
          ref={formRef}
          noValidate
          onSubmit={(event) => void onSubmit(event)}
          // Unnamed: the section around it is the "Profile" landmark (axe landmark-unique).
          className="flex flex-col gap-5"
        >
          {failure ? <FormAlert>{failure}</FormAlert> : null}
          {errors.form ? <FormAlert>{errors.form}</FormAlert> : null}
          <div className="flex items-center gap-4">
            <ProfileAvatar
              url={preview}
              name={`${values.firstName} ${values.lastName}`.trim() || user.email}
            />
            <div className="min-w-0">
              <p className="truncate font-semibold text-fg">
                {`${values.firstName} ${values.lastName}`.trim() || 'Your name'}
              </p>
              <p className="truncate text-sm text-fg-muted">{loaded.profile.email}</p>
            </div>
          </div>
          <div className="grid gap-5 sm:grid-cols-2">
            <FormTextField
              label="First name"
              name="firstName"
              autoComplete="given-name"
              value={values.firstName}
              onChange={update('firstName')}
              error={errors.firstName}
            />
            <FormTextField
              label="Last name"
              name="lastName"
              autoComplete="family-name"
              value={values.lastName}
              onChange={update('lastName')}
              error={errors.lastName}
            />
          </div>
          <FormTextField
            label="Picture URL"
            name="profilePictureUrl"
            type="url"
            inputMode="url"
            autoComplete="photo"
            placeholder="https://"
            value={values.profilePictureUrl}
            onChange={update('profilePictureUrl')}
            error={errors.profilePictureUrl}
            description="A link to a square image. Leave empty to show your initials."
          />
          <div>
            <SubmitButton
              isPending={isPending}
              pendingLabel="Saving..."
              size="medium"
              className="w-full sm:w-auto"
            >
              Save profile
            </SubmitButton>
          </div>
        </form>
      )}
    </SettingsSection>
  );
}
