import { KeyRound } from 'lucide-react';
import { useAuth } from '../../auth/auth-provider.tsx';
import { useAuthServices } from '../../auth/auth-services.tsx';
import { LinkButton } from '../../ui/link-button.tsx';
import { TextLink } from '../../ui/text-link.tsx';
import { useToast } from '../../ui/use-toast.ts';
import { AuthScreen } from './auth-screen.tsx';
import { ChoosePasswordForm } from './choose-password-form.tsx';
import { MfaChallenge } from './mfa-challenge.tsx';

/**
 * /reset-password, opened from the reset email. supabase-js exchanges the link's code and signs
 * the user in with a recovery session (PASSWORD_RECOVERY); the guest guard lets that user stay
 * here (see guestOnlyRedirect). An account with a second factor verifies it first, since the
 * auth service only changes its password from an `aal2` session. Once changed, the recovery ends
 * and the guard takes the user to their workspace.
 */
export function ResetPasswordScreen() {
  const auth = useAuth();
  const services = useAuthServices();
  const toast = useToast();

  if (services && auth.status === 'unauthenticated' && auth.pendingMfa) {
    return <MfaChallenge services={services} title="Verify it's you" />;
  }

  if (services && auth.status === 'authenticated' && auth.passwordRecovery) {
    return (
      <AuthScreen
        title="Choose a new password"
        icon={<KeyRound aria-hidden="true" size={24} />}
        lead={
          <>
            For <strong className="font-semibold wrap-anywhere text-fg">{auth.user.email}</strong>.
            You stay signed in on this device.
          </>
        }
      >
        <ChoosePasswordForm
          services={services}
          submitLabel="Save the new password"
          onChanged={() =>
            toast.show({ tone: 'success', message: 'Your password is changed. Welcome back!' })
          }
        />
      </AuthScreen>
    );
  }

  return (
    <AuthScreen
      title="Choose a new password"
      icon={<KeyRound aria-hidden="true" size={24} />}
      lead="This page opens from the link in a password reset email. Open the link in the browser where you asked for it; links work once and expire."
      footer={<TextLink href="/login">Back to sign in</TextLink>}
    >
      <LinkButton href="/forgot-password" size="large" className="w-full">
        Ask for a new link
      </LinkButton>
    </AuthScreen>
  );
}
